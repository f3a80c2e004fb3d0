import type { BillingCycle, PlanId } from '@/domain/plans';
import type { CheckoutOrder, PaymentResult } from '@/web/lib/checkout';
import { api } from '@/web/lib/request';

export interface QuickSession {
  token: string;
  expiresAt: string;
  schoolId: string;
  schoolName: string;
  /** once true, the first-subscription discount no longer applies */
  hasPaidSubscription: boolean;
}

export interface OrderRequest {
  planType: PlanId;
  /** the total the card showed, in paise (platform §7: price × 100); the server charges its own quote */
  amount: number;
  billingCycle: BillingCycle;
}

/**
 * The subscription page's calls. A quick-login token (platform §7) lives only in the page's memory
 * and is passed explicitly; without it the signed-in session's token is used.
 */
export const subscriptionApi = {
  quickLogin: (schoolId: string) => api.post<QuickSession>('/api/auth/quick-login', { schoolId }, { token: null }),
  createOrder: (body: OrderRequest, token?: string) =>
    api.post<CheckoutOrder>('/api/payments/create-subscription-order', body, token ? { token } : undefined),
  verify: (body: PaymentResult & { planType: PlanId; schoolId?: string }, token?: string) =>
    api.post<{ ok: true; status: 'active' }>('/api/payments/verify-subscription', body, token ? { token } : undefined),
};
