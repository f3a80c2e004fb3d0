import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MonthlyBulkInput, YearlyEntryInput } from '@/domain/ledger';
import type { MonthName } from '@/domain/sessions';
import { refreshLedger, type CarriedSummary, type Receipt } from '@/web/lib/ledger-api';
import { api } from '@/web/lib/request';

/** Wire shapes of the fee screens (src/server/fees/*-routes.ts); amounts are rupee strings. */

export interface MonthlyEntry {
  id: string;
  studentId: string;
  month: MonthName;
  year: number;
  monthKey: string;
  tuitionFee: string;
  tuitionDate: string | null;
  busFee: string;
  busDate: string | null;
  status: 'pending' | 'paid';
  submittedAt: string;
  clientId: string | null;
  receiptNumbers: string[];
  locked: { tuition: boolean; bus: boolean };
}

export interface MonthlyEntries {
  entries: MonthlyEntry[];
  previousBalance: CarriedSummary;
}

export interface FeeStructureAmounts {
  className: string;
  academicYear: string;
  monthlyTuitionFee: string;
  yearlyFee: string;
  examFee: string;
  booksFee: string;
  uniformFee: string;
  miscFee: string;
}

export type YearlyHead = 'admission' | 'exam' | 'books' | 'uniform' | 'misc';

export interface YearlyEntry {
  studentId: string;
  academicYear: string;
  exists: boolean;
  admissionFee: string | null;
  admissionDate: string | null;
  examFee: string | null;
  examDate: string | null;
  booksFee: string | null;
  booksDate: string | null;
  uniformFee: string | null;
  uniformDate: string | null;
  miscFee: string | null;
  miscDate: string | null;
  lockedFees: YearlyHead[];
  /** heads with part of their due received: the rest is collected on the same card */
  partialFees: Array<{ head: YearlyHead; received: string; due: string; remaining: string }>;
  submittedAt: string | null;
  clientId: string | null;
  version: number;
  receiptNumbers: string[];
  structure: FeeStructureAmounts | null;
}

interface Head {
  expected: string;
  paid: string;
  concession: string;
  /** taken off by approved concessions (issue 16) */
  granted: string;
  grants: Array<{ concessionId: string; name: string; amount: string }>;
  outstanding: string;
  recorded: boolean;
  paidOn: string | null;
}

interface HorizonTotals {
  expected: string;
  received: string;
  concessions: string;
  outstanding: string;
  monthlyExpected: string;
  monthlyOutstanding: string;
  yearlyExpected: string;
  yearlyOutstanding: string;
}

export type MonthBadge = 'Paid' | 'Partial' | 'Pending' | 'Not Recorded';

export interface FeeStatus {
  student: { id: string; name: string; className: string; section: string; rollNumber: number; status: 'active' | 'passout'; monthlyBusFee: string };
  session: { id: string; name: string; startDate: string; endDate: string; isActive: boolean };
  asOfMonth: string;
  closed: boolean;
  structure: FeeStructureAmounts | null;
  previousBalance: CarriedSummary;
  account: {
    months: Array<{
      key: string;
      month: MonthName;
      year: number;
      label: string;
      due: boolean;
      status: MonthBadge;
      tuition: Head;
      bus: Head;
      discount: string;
      outstanding: string;
    }>;
    yearly: {
      status: 'paid' | 'partial' | 'pending';
      paidCount: number;
      applicableCount: number;
      totalCount: 5;
      expected: string;
      paid: string;
      outstanding: string;
      heads: Array<Head & { head: YearlyHead; label: string; status: 'paid' | 'pending' | 'not_applicable' }>;
    };
    extras: Array<{ head: string; label: string; paid: string }>;
    tillDate: HorizonTotals;
    annual: HorizonTotals;
    totalPaid: string;
    monthlyPaid: string;
    yearlyPaid: string;
    extrasPaid: string;
    totalMonths: number;
    monthsPaid: number;
    monthsPending: number;
    averageMonthly: string;
    totalDiscount: string;
  };
  ledger: {
    pendingFeesAnnual: string;
    totalPaid: string;
    outstandingTillDate: string;
    outstandingLabel: string;
    paidUp: boolean;
    monthsPaid: number;
    monthsPending: number;
    totalMonths: number;
    averageMonthly: string;
    totalDiscount: string;
  };
  receipts: Receipt[];
}

const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();

export const monthlyEntriesPath = (studentId: string, academicYear: string) =>
  `/api/monthly-fee-entries?${qs({ studentId, academicYear, withContinuity: 'true' })}`;
export const yearlyEntryPath = (studentId: string, year: string) => `/api/yearly-fee-entries?${qs({ studentId, year })}`;
export const feeStatusPath = (studentId: string, academicYear: string) => `/api/students/${studentId}/fee-status?${qs({ academicYear })}`;

/** Five minutes of freshness for the grid (operations §9); a save or Refresh reloads it at once. */
export const monthlyEntriesQuery = (studentId: string, academicYear: string) =>
  queryOptions({
    queryKey: [monthlyEntriesPath(studentId, academicYear)],
    queryFn: () => api.get<MonthlyEntries>(monthlyEntriesPath(studentId, academicYear)),
    staleTime: 5 * 60_000,
  });

export const yearlyEntryQuery = (studentId: string, year: string) =>
  queryOptions({ queryKey: [yearlyEntryPath(studentId, year)], queryFn: () => api.get<YearlyEntry>(yearlyEntryPath(studentId, year)), staleTime: 0 });

export const feeStatusQuery = (studentId: string, academicYear: string) =>
  queryOptions({ queryKey: [feeStatusPath(studentId, academicYear)], queryFn: () => api.get<FeeStatus>(feeStatusPath(studentId, academicYear)), staleTime: 0 });

export interface MonthlySaveAnswer {
  message: string;
  replayed: boolean;
  receipt: Receipt;
  entries: MonthlyEntry[];
}

export interface YearlySaveAnswer {
  message: string;
  replayed: boolean;
  receipt: Receipt;
  entry: Omit<YearlyEntry, 'structure'>;
}

/** Saves are idempotent on clientId (ruling 5), so the request helper may retry them. */
export function useSaveMonthly() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MonthlyBulkInput) => api.post<MonthlySaveAnswer>('/api/monthly-fee-entries/bulk', input, { idempotent: true }),
    onSuccess: () => refreshLedger(queryClient),
  });
}

export function useSaveYearly() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: YearlyEntryInput) => api.post<YearlySaveAnswer>('/api/yearly-fee-entries', input, { idempotent: true }),
    onSuccess: () => refreshLedger(queryClient),
  });
}

export function useCancelReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => api.post<{ message: string; receipt: Receipt }>(`/api/receipts/${id}/cancel`, { reason }),
    onSuccess: () => refreshLedger(queryClient),
  });
}
