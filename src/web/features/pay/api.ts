import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { parseRupees, paise, type Paise } from '@/domain/money';
import { ApiError, api } from '@/web/lib/request';
import { PAY_TEXTS } from './texts';

/**
 * The public payment-link calls (operations §3 and §7, the payment-links contract). None sends a
 * session token: the link's token in the path is the only key (ruling 23).
 */

const PUBLIC = { token: null } as const;

/** Operations §3 "Payment link response"; the amount comes as a decimal rupee string ("1500.00"), never a float. */
export const payLinkSchema = z.object({
  school: z.object({ name: z.string() }),
  student: z.object({ name: z.string(), class: z.string(), rollNumber: z.union([z.number(), z.string()]).nullable() }),
  paymentLink: z.object({
    feeType: z.string(),
    description: z.string().nullable().optional(),
    feeMonth: z.string().nullable().optional(),
    amount: z.string(),
    expiresAt: z.string(),
    status: z.string(),
  }),
});
export type PayLink = z.infer<typeof payLinkSchema>;

export const payMethodsSchema = z.object({
  gateway: z.enum(['razorpay', 'sandbox']).nullable(),
  upi: z.object({ vpa: z.string(), payeeName: z.string().nullable().optional(), intentUrl: z.string() }).nullable(),
});
export type PayMethods = z.infer<typeof payMethodsSchema>;

/** The order: `amount` in rupees ("1500.00") and `amountPaise` for the checkout script. */
const orderSchema = z.object({
  orderId: z.string(),
  amount: z.string(),
  amountPaise: z.number().int().nonnegative(),
  currency: z.literal('INR'),
  keyId: z.string(),
  provider: z.enum(['razorpay', 'sandbox']),
  description: z.string().optional(),
});
export type PayOrder = z.infer<typeof orderSchema>;

/**
 * What verify answers. `receiptNumber` and `receiptUrl` are null when the whole payment became the
 * student's credit (the fee was collected at the counter meanwhile; a receipt has no empty lines).
 */
export const paidSchema = z.object({
  status: z.literal('paid'),
  receiptNumber: z.string().nullable(),
  amount: z.string(),
  credit: z.string(),
  receiptUrl: z.string().nullable(),
});
export type PaidAnswer = z.infer<typeof paidSchema>;

const signedSchema = z.object({ razorpay_order_id: z.string(), razorpay_payment_id: z.string(), razorpay_signature: z.string() });

const upiReferenceAnswer = z.object({ status: z.literal('pending') });

/** The amount of the link in paise, parsed from its decimal string without a float. */
export function linkAmount(amount: string): Paise | null {
  return parseRupees(amount);
}

export const orderPaise = (order: PayOrder): Paise => paise(order.amountPaise);

const base = (token: string) => `/api/pay/${encodeURIComponent(token)}`;
export const receiptPath = (token: string) => `${base(token)}/receipt.pdf`;

/**
 * Operations §8: a refusal shows the server's `error` text, otherwise "Failed to fetch payment
 * details"; a network failure or a broken answer says the same.
 */
async function fetchLink(token: string): Promise<PayLink> {
  let body: unknown;
  try {
    body = await api.get<unknown>(base(token), PUBLIC);
  } catch (error) {
    if (error instanceof ApiError && typeof error.body.error === 'string' && error.body.error) throw error;
    if (error instanceof ApiError && typeof error.body.message === 'string' && error.body.message) throw error;
    throw new ApiError(error instanceof ApiError ? error.status : 0, PAY_TEXTS.fetchFailed);
  }
  const parsed = payLinkSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(0, PAY_TEXTS.fetchFailed);
  return parsed.data;
}

export const payLinkQuery = (token: string) =>
  queryOptions({ queryKey: [base(token)], queryFn: () => fetchLink(token), retry: false, staleTime: 30_000 });

export const payMethodsQuery = (token: string) =>
  queryOptions({
    queryKey: [`${base(token)}/methods`],
    queryFn: async () => payMethodsSchema.parse(await api.get<unknown>(`${base(token)}/methods`, PUBLIC)),
    retry: false,
    staleTime: 60_000,
  });

export const payApi = {
  order: async (token: string) => orderSchema.parse(await api.post<unknown>(`${base(token)}/order`, {}, PUBLIC)),
  /** the sandbox's checkout for a link (no session): the same three signed fields as Razorpay's window */
  sandboxCheckout: async (token: string, orderId: string) =>
    signedSchema.parse(await api.post<unknown>(`${base(token)}/sandbox-checkout`, { orderId }, PUBLIC)),
  verify: async (token: string, result: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }) =>
    // the server writes the receipt once, whatever arrives twice: a lost answer may be retried
    paidSchema.parse(await api.post<unknown>(`${base(token)}/verify`, result, { ...PUBLIC, idempotent: true })),
  upiReference: async (token: string, body: { upiReference: string; payerName?: string }) =>
    upiReferenceAnswer.parse(await api.post<unknown>(`${base(token)}/upi-reference`, body, PUBLIC)),
};

/** The UPI reference (UTR) a parent copies from the UPI app: 12 digits, spaces allowed when typed. */
export const upiReferenceSchema = z.object({
  upiReference: z
    .string()
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{12}$/, PAY_TEXTS.utrInvalid.en)),
  payerName: z.string().trim().max(100, PAY_TEXTS.payerNameTooLong),
});
export type UpiReferenceInput = z.input<typeof upiReferenceSchema>;

/**
 * Operations §4: only `active` is payable and expiry is checked first. One exception (decision
 * 0039): a paid link stays the parent's way to the receipt after its date has passed.
 */
export function linkState(link: PayLink, now: Date): 'expired' | 'paid' | 'inactive' | 'payable' {
  if (link.paymentLink.status === 'paid') return 'paid';
  const expires = new Date(link.paymentLink.expiresAt);
  // the server says so too when its clock has passed expiresAt
  if (link.paymentLink.status === 'expired') return 'expired';
  if (!Number.isNaN(expires.getTime()) && expires.getTime() < now.getTime()) return 'expired';
  return link.paymentLink.status === 'active' ? 'payable' : 'inactive';
}
