import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { refreshLedger } from '@/web/lib/ledger-api';
import { api } from '@/web/lib/request';

/**
 * The school side of online payments (the payment-links contract): links, bulk links, UPI
 * confirmations, a student's credit and the day's online payments. Every answer is parsed with
 * zod so a change on the server shows as one clear error, not a blank screen. Query keys are the
 * paths; every write refreshes the ledger too (a confirmed UPI or applied credit is a receipt).
 */

export const LINK_STATUSES = ['active', 'paid', 'expired', 'cancelled'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const linkRowSchema = z.object({
  id: z.string(),
  linkToken: z.string(),
  url: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  className: z.string(),
  section: z.string().nullable(),
  rollNumber: z.number().nullable(),
  feeType: z.string(),
  feeMonth: z.string().nullable(),
  amount: z.string(),
  description: z.string().nullable(),
  status: z.enum(LINK_STATUSES),
  expiresAt: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  receiptId: z.string().nullable(),
  receiptNumber: z.string().nullable(),
});
export type LinkRow = z.infer<typeof linkRowSchema>;

const createdSchema = z.object({
  id: z.string(),
  linkToken: z.string(),
  url: z.string(),
  amount: z.string(),
  feeType: z.string(),
  feeMonth: z.string().nullable(),
  expiresAt: z.string(),
  status: z.string(),
});
export type CreatedLink = z.infer<typeof createdSchema>;

const bulkSchema = z.object({
  created: z.array(linkRowSchema),
  skipped: z.array(z.object({ studentId: z.string(), studentName: z.string(), reason: z.string() })),
});
export type BulkAnswer = z.infer<typeof bulkSchema>;

export const UPI_STATUSES = ['pending', 'confirmed', 'rejected'] as const;
export type UpiStatus = (typeof UPI_STATUSES)[number];
const upiItemSchema = z.object({
  id: z.string(),
  linkId: z.string(),
  studentName: z.string(),
  className: z.string(),
  amount: z.string(),
  upiReference: z.string(),
  payerName: z.string().nullable(),
  submittedAt: z.string(),
  status: z.enum(UPI_STATUSES),
  reason: z.string().nullable(),
  receiptNumber: z.string().nullable(),
});
export type UpiItem = z.infer<typeof upiItemSchema>;

const creditSchema = z.object({
  balance: z.string(),
  entries: z.array(
    z.object({
      id: z.string(),
      at: z.string(),
      kind: z.enum(['online_excess', 'applied', 'refund']),
      amount: z.string(),
      reason: z.string().nullable(),
      receiptNumber: z.string().nullable(),
      by: z.string().nullable(),
    }),
  ),
});
export type Credit = z.infer<typeof creditSchema>;

const receiptRef = z.object({ receiptId: z.string(), receiptNumber: z.string() });
/** a confirmed UPI payment whose fee had been paid at the counter meanwhile is all credit: no receipt */
const confirmedRef = z.object({ receiptId: z.string().nullable(), receiptNumber: z.string().nullable() });

export const ONLINE_STATUSES = ['receipted', 'credited', 'partly_credited', 'pending', 'failed'] as const;
const onlineDaySchema = z.object({
  date: z.string(),
  payments: z.array(
    z.object({
      id: z.string(),
      at: z.string(),
      studentName: z.string(),
      className: z.string(),
      provider: z.string(),
      orderId: z.string().nullable(),
      paymentId: z.string().nullable(),
      amount: z.string(),
      receiptNumber: z.string().nullable(),
      status: z.enum(ONLINE_STATUSES),
      credit: z.string(),
      refund: z.string(),
    }),
  ),
  totals: z.object({ count: z.number(), amount: z.string(), credit: z.string(), refund: z.string() }),
});
export type OnlineDay = z.infer<typeof onlineDaySchema>;

const qs = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
  const text = search.toString();
  return text ? `?${text}` : '';
};

export const LINKS_PATH = '/api/payment-links';
export const UPI_PATH = '/api/upi-confirmations';
export const ONLINE_PATH = '/api/online-payments';
export interface ApplyCreditBody {
  feeType: string;
  feeMonth?: string;
  amount: string;
  clientId: string;
}
export interface RefundCreditBody {
  amount: string;
  reason: string;
  mode: string;
  clientId: string;
}

export const creditPath = (studentId: string) => `/api/students/${studentId}/credit`;
export const onlineExportPath = (date: string) => `${ONLINE_PATH}/export.xlsx${qs({ date })}`;

export const linksQuery = (filter: { studentId?: string; status?: LinkStatus | undefined; class?: string | undefined }) => {
  const path = `${LINKS_PATH}${qs({ studentId: filter.studentId, status: filter.status, class: filter.class })}`;
  return queryOptions({ queryKey: [LINKS_PATH, path], queryFn: async () => z.object({ links: z.array(linkRowSchema) }).parse(await api.get(path)).links });
};

export const upiQuery = (status: UpiStatus) => {
  const path = `${UPI_PATH}${qs({ status })}`;
  return queryOptions({
    queryKey: [UPI_PATH, path],
    queryFn: async () => z.object({ items: z.array(upiItemSchema) }).parse(await api.get(path)).items,
    // the pending count in the menu stays fresh while the office works
    refetchInterval: status === 'pending' ? 60_000 : false,
  });
};

export const creditQuery = (studentId: string) =>
  queryOptions({ queryKey: [creditPath(studentId)], queryFn: async () => creditSchema.parse(await api.get(creditPath(studentId))) });

export const onlineDayQuery = (date: string) => {
  const path = `${ONLINE_PATH}${qs({ date })}`;
  return queryOptions({ queryKey: [ONLINE_PATH, path], queryFn: async () => onlineDaySchema.parse(await api.get(path)) });
};

export interface CreateLinkBody {
  studentId: string;
  feeType: string;
  feeMonth?: string;
  amount?: string;
  description?: string;
  expiresInDays?: number;
}

function refreshOnline(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: [LINKS_PATH] });
  void queryClient.invalidateQueries({ queryKey: [UPI_PATH] });
  void queryClient.invalidateQueries({ queryKey: [ONLINE_PATH] });
}

export const paymentLinksApi = {
  create: async (body: CreateLinkBody) => createdSchema.parse(await api.post(LINKS_PATH, body)),
  cancel: async (id: string) => linkRowSchema.parse(await api.post(`${LINKS_PATH}/${id}/cancel`, {})),
  bulk: async (studentIds: string[], expiresInDays?: number) =>
    // the server reuses a student's active link, so a retried chunk mints nothing twice
    bulkSchema.parse(await api.post(`${LINKS_PATH}/bulk`, { studentIds, ...(expiresInDays ? { expiresInDays } : {}) }, { idempotent: true })),
  confirmUpi: async (id: string) => confirmedRef.parse(await api.post(`${UPI_PATH}/${id}/confirm`, {})),
  rejectUpi: async (id: string, reason: string) => upiItemSchema.parse(await api.post(`${UPI_PATH}/${id}/reject`, { reason })),
  // both carry the dialog's clientId (ruling 5): the server applies or refunds once, so the helper may retry
  applyCredit: async (studentId: string, body: ApplyCreditBody) => receiptRef.parse(await api.post(`${creditPath(studentId)}/apply`, body, { idempotent: true })),
  refundCredit: async (studentId: string, body: RefundCreditBody) => api.post<unknown>(`${creditPath(studentId)}/refund`, body, { idempotent: true }),
};

export function useCreateLink() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: paymentLinksApi.create, onSuccess: () => refreshOnline(queryClient) });
}

export function useCancelLink() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: paymentLinksApi.cancel, onSuccess: () => refreshOnline(queryClient) });
}

export function useBulkLinks() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: ({ ids, days }: { ids: string[]; days?: number }) => paymentLinksApi.bulk(ids, days), onSettled: () => refreshOnline(queryClient) });
}

export function useUpiDecision() {
  const queryClient = useQueryClient();
  const onSuccess = () => {
    refreshOnline(queryClient);
    refreshLedger(queryClient);
  };
  return {
    confirm: useMutation({ mutationFn: paymentLinksApi.confirmUpi, onSuccess }),
    reject: useMutation({ mutationFn: ({ id, reason }: { id: string; reason: string }) => paymentLinksApi.rejectUpi(id, reason), onSuccess }),
  };
}

export function useCreditActions(studentId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => {
    void queryClient.invalidateQueries({ queryKey: [creditPath(studentId)] });
    refreshLedger(queryClient);
  };
  return {
    apply: useMutation({ mutationFn: (body: ApplyCreditBody) => paymentLinksApi.applyCredit(studentId, body), onSuccess }),
    refund: useMutation({ mutationFn: (body: RefundCreditBody) => paymentLinksApi.refundCredit(studentId, body), onSuccess }),
  };
}
