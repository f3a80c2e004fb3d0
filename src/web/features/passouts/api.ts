import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshLedger } from '@/web/lib/ledger-api';
import { api } from '@/web/lib/request';

/** A passout with what they still owe (src/server/passouts/queries.ts); amounts are rupee strings. */
export interface Passout {
  id: string;
  studentId: string;
  name: string;
  rollNumber: number;
  lastClass: string;
  section: string;
  outstandingMonthlyFees: string;
  outstandingYearlyFees: string;
  totalOutstanding: string;
  passoutDate: string;
  graduationYear: number;
  kind: 'graduated' | 'discharged';
  reason: string;
}

export const PASSOUTS_KEY = ['/api/passouts'] as const;
export const PASSOUT_CLASSES_KEY = ['/api/passouts/classes'] as const;

export const passoutsQuery = () => queryOptions({ queryKey: PASSOUTS_KEY, queryFn: () => api.get<Passout[]>('/api/passouts'), staleTime: 0 });

/** Classes with active students and their counts: the Create Passouts from Class selector. */
export const passoutClassesQuery = () =>
  queryOptions({ queryKey: PASSOUT_CLASSES_KEY, queryFn: () => api.get<Array<{ className: string; count: number }>>('/api/passouts/classes'), staleTime: 0 });

export interface FromClassAnswer {
  message: string;
  className: string;
  graduationYear: number;
  count: number;
  totalOutstanding: string;
}

export function useCreatePassouts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { className: string; graduationYear: string }) => api.post<FromClassAnswer>('/api/passouts/from-class', input),
    onSuccess: () => refreshLedger(queryClient),
  });
}

export const balanceReportPath = (format: 'csv' | 'pdf', graduationYear: number | null) =>
  `/api/passouts/balance-report.${format}${graduationYear ? `?graduationYear=${graduationYear}` : ''}`;
