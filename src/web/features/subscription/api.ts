import { queryOptions } from '@tanstack/react-query';
import type { BillingCycle, PlanId } from '@/domain/plans';
import type { CheckoutOrder, PaymentResult } from '@/web/lib/checkout';
import { api } from '@/web/lib/request';

export interface OrderRequest {
  planType: PlanId;
  /** the total the card showed, in paise (platform §7: price × 100); the server charges its own quote */
  amount: number;
  billingCycle: BillingCycle;
}

export interface PlanChange {
  kind: 'start' | 'extend' | 'upgrade' | 'queue';
  startDate: string;
  endDate: string;
}

export interface QuotedPrice {
  base: string;
  discount: string;
  credit: string;
  gst: string;
  total: string;
  undiscountedTotal: string;
}

export interface PlanQuote {
  planId: PlanId;
  planName: string;
  billingCycle: BillingCycle;
  price: QuotedPrice | null;
  change: PlanChange | null;
  /** why the plan cannot be bought now */
  refused: string | null;
}

export interface QuotesAnswer {
  provider: 'razorpay' | 'sandbox';
  /** the sandbox takes the payments: no money moves */
  testMode: boolean;
  quotes: PlanQuote[];
}

export const QUOTES_KEY = ['/api/payments/subscription-quotes'] as const;

/**
 * The subscription page's calls, all with the signed-in session: a school whose plan ended signs in
 * to a read-only session that may still pay (rulings 14, 29).
 */
export const subscriptionApi = {
  quotes: (cycle: BillingCycle) =>
    queryOptions({
      queryKey: [...QUOTES_KEY, cycle],
      queryFn: () => api.get<QuotesAnswer>(`/api/payments/subscription-quotes?billingCycle=${cycle}`),
      staleTime: 30_000,
    }),
  createOrder: (body: OrderRequest) => api.post<CheckoutOrder>('/api/payments/create-subscription-order', body),
  verify: (body: PaymentResult & { planType: PlanId }) => api.post<{ ok: true; status: 'active' }>('/api/payments/verify-subscription', body),
};
