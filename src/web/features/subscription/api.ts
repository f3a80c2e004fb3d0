import type { BillingCycle, PlanId } from '@/domain/plans';
import { api } from '@/web/lib/request';

export interface QuickSession {
  token: string;
  expiresAt: string;
  schoolId: string;
  schoolName: string;
}

export interface OrderRequest {
  planType: PlanId;
  /** the catalogue price of the plan for the cycle, in paise (platform §7: price × 100) */
  amount: number;
  billingCycle: BillingCycle;
}

/** Platform §3 gives two readings of the answer: `orderId`, or `id` with amount, currency and keyId. */
export interface OrderAnswer {
  orderId?: string;
  id?: string;
  amount?: number;
  currency?: string;
  keyId?: string;
  /** where the provider's checkout script lives, when it is not Razorpay's own (the local sandbox) */
  checkoutScript?: string;
}

export interface PaymentResult {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

/**
 * The subscription page's calls. A quick-login token (platform §7) lives only in the page's memory
 * and is passed explicitly; without it the signed-in session's token is used.
 */
export const subscriptionApi = {
  quickLogin: (schoolId: string) => api.post<QuickSession>('/api/auth/quick-login', { schoolId }, { token: null }),
  createOrder: (body: OrderRequest, token?: string) =>
    api.post<OrderAnswer>('/api/payments/create-subscription-order', body, token ? { token } : undefined),
  verify: (body: PaymentResult & { planType: PlanId; billingCycle: BillingCycle; schoolId?: string }, token?: string) =>
    api.post<{ ok?: boolean; success?: boolean }>('/api/payments/verify-subscription', body, token ? { token } : undefined),
};

export const orderIdOf = (order: OrderAnswer): string | undefined => order.orderId ?? order.id;
