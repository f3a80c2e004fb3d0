import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PaymentMode } from '@/web/lib/ledger-api';
import { api } from '@/web/lib/request';
import type { Counts } from './denominations';

/**
 * The office's day (issue 15 items 4–6): a collector's day and its closing, the closings to
 * acknowledge, the cheque register and the cancellation register. Amounts are rupee strings.
 */

export interface ModeTotal {
  mode: PaymentMode | 'card';
  receipts: number;
  amount: string;
}

export interface Closing {
  id: string;
  date: string;
  userId: string;
  userName: string;
  expectedCash: string;
  countedCash: string;
  /** counted − expected: "-100.00" is a shortfall */
  difference: string;
  note: string | null;
  byMode?: ModeTotal[];
  closedAt: string;
  acknowledgedAt: string | null;
  acknowledgedByName: string | null;
}

export interface MyDay {
  date: string;
  byMode: ModeTotal[];
  /** the cash the collector should hold: cash receipts of the day, less cash ones cancelled */
  expectedCash: string;
  total: string;
  closing: Closing | null;
}

export interface Cheque {
  id: string;
  receiptId: string;
  receiptNumber: string;
  studentName: string;
  className: string;
  section: string;
  chequeNumber: string;
  bankName: string | null;
  amount: string;
  receivedAt: string;
  status: ChequeStatus;
  statusAt: string | null;
  bounceReason: string | null;
  bankCharges: string | null;
}
export type ChequeStatus = 'in_hand' | 'deposited' | 'cleared' | 'bounced';

export interface Cancellation {
  receiptId: string;
  receiptNumber: string;
  receiptDate: string;
  amount: string;
  studentName: string;
  className: string;
  section: string;
  collectedBy: string;
  cancelledAt: string;
  cancelledBy: string;
  reason: string;
}

export interface RangeFilters {
  fromDate?: string;
  toDate?: string;
  userId?: string;
  status?: string;
}

export function search(filters: RangeFilters | Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

const list = <T>(answer: T[] | Record<string, T[]>, key: string): T[] => (Array.isArray(answer) ? answer : (answer[key] ?? []));

export const myDayQuery = (date: string) =>
  queryOptions({ queryKey: [`/api/closings/my-day?date=${date}`], queryFn: () => api.get<MyDay>(`/api/closings/my-day?date=${date}`) });

export const closingsQuery = (filters: RangeFilters) =>
  queryOptions({
    queryKey: [`/api/closings${search(filters)}`],
    queryFn: async () => list(await api.get<Closing[] | Record<string, Closing[]>>(`/api/closings${search(filters)}`), 'closings'),
  });

export const chequesQuery = (filters: RangeFilters) =>
  queryOptions({
    queryKey: [`/api/cheques${search(filters)}`],
    queryFn: async () => list(await api.get<Cheque[] | Record<string, Cheque[]>>(`/api/cheques${search(filters)}`), 'cheques'),
  });

export const cancellationsQuery = (filters: RangeFilters) =>
  queryOptions({
    queryKey: [`/api/reports/cancellations${search(filters)}`],
    queryFn: async () => list(await api.get<Cancellation[] | Record<string, Cancellation[]>>(`/api/reports/cancellations${search(filters)}`), 'rows'),
  });

/** Closings, cheques and receipts feed the stats and reports, so every write refreshes them all. */
function refreshOffice(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (q) => {
      const key = q.queryKey[0];
      return typeof key === 'string' && /^\/api\/(closings|cheques|reports|stats|receipts|students|fee)/.test(key);
    },
  });
}

export function useCloseDay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { date: string; denominations: Counts; note: string }) => api.post<Closing>('/api/closings', input),
    onSuccess: () => refreshOffice(queryClient),
  });
}

export function useAcknowledge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Closing>(`/api/closings/${id}/acknowledge`, {}),
    onSuccess: () => refreshOffice(queryClient),
  });
}

export type ChequeAction = { id: string; action: 'deposit' | 'clear' } | { id: string; action: 'bounce'; reason: string; bankCharges?: string };

export function useChequeAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, ...body }: ChequeAction) => api.post<Cheque>(`/api/cheques/${id}/${action}`, body),
    onSuccess: () => refreshOffice(queryClient),
  });
}
