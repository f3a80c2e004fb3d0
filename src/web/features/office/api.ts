import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Closing, ClosingMode, closingsReportDto, DayCollections, DenominationCounts } from '@/domain/cash-closing';
import type { CancellationRow as Cancellation, Cheque, ChequeStatus } from '@/domain/cheques';
import { api } from '@/web/lib/request';

export type { Cancellation, Cheque, ChequeStatus, Closing, ClosingMode, DayCollections };

/**
 * The office's day (issue 15 items 4–6): a collector's day and its closing, the closings to
 * acknowledge, the cheque register and the cancellation register. Amounts are rupee strings.
 */

export type ClosingsReport = z.infer<typeof closingsReportDto>;

export interface RangeFilters {
  from?: string;
  to?: string;
  userId?: string;
  status?: string;
}

export function search(filters: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A list answered bare or wrapped in an object under `key`. */
const list = <T>(answer: T[] | Record<string, unknown>, key: string): T[] => (Array.isArray(answer) ? answer : ((answer[key] as T[] | undefined) ?? []));

export const PATHS = {
  myDay: '/api/cash/day',
  close: '/api/cash/closings',
  closings: '/api/reports/cash-closings',
  cheques: '/api/cheques',
  cancellations: '/api/reports/cancellations',
} as const;

export const myDayQuery = (date: string) =>
  queryOptions({ queryKey: [`${PATHS.myDay}?date=${date}`], queryFn: () => api.get<DayCollections>(`${PATHS.myDay}?date=${date}`) });

export const closingsQuery = (filters: RangeFilters) =>
  queryOptions({ queryKey: [`${PATHS.closings}${search({ ...filters })}`], queryFn: () => api.get<ClosingsReport>(`${PATHS.closings}${search({ ...filters })}`) });

export const chequesQuery = (filters: RangeFilters) =>
  queryOptions({
    queryKey: [`${PATHS.cheques}${search({ ...filters })}`],
    queryFn: async () => list<Cheque>(await api.get<Cheque[] | Record<string, unknown>>(`${PATHS.cheques}${search({ ...filters })}`), 'cheques'),
  });

export const cancellationsQuery = (filters: RangeFilters) =>
  queryOptions({
    queryKey: [`${PATHS.cancellations}${search({ ...filters })}`],
    queryFn: async () => list<Cancellation>(await api.get<Cancellation[] | Record<string, unknown>>(`${PATHS.cancellations}${search({ ...filters })}`), 'rows'),
  });

/** Closings, cheques and receipts feed the stats and reports, so every write refreshes them all. */
function refreshOffice(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (q) => {
      const key = q.queryKey[0];
      return typeof key === 'string' && /^\/api\/(cash|cheques|reports|stats|receipts|students|fee|ledger)/.test(key);
    },
  });
}

export function useCloseDay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { date: string; counts: DenominationCounts; note: string }) => api.post<Closing>(PATHS.close, input),
    onSuccess: () => refreshOffice(queryClient),
  });
}

export function useAcknowledge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Closing>(`${PATHS.close}/${id}/acknowledge`, {}),
    onSuccess: () => refreshOffice(queryClient),
  });
}

export type ChequeAction = { receiptId: string; action: 'deposited' | 'cleared' } | { receiptId: string; action: 'bounced'; reason: string; bankCharges?: string };

export function useChequeAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChequeAction) =>
      input.action === 'bounced'
        ? api.post<Cheque>(`${PATHS.cheques}/${input.receiptId}/bounce`, { reason: input.reason, ...(input.bankCharges ? { bankCharges: input.bankCharges } : {}) })
        : api.put<Cheque>(`${PATHS.cheques}/${input.receiptId}`, { status: input.action }),
    onSuccess: () => refreshOffice(queryClient),
  });
}
