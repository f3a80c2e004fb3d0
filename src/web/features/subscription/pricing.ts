import { parseRupees, type Paise } from '@/domain/money';
import { subscriptionPrice, type BillingCycle, type PriceBreakdown } from '@/domain/plans';
import type { Plan } from '@/web/lib/plans-api';

export interface PlanPrice {
  /** the catalogue price for the cycle, in paise: what the order call sends as `amount` (platform §7) */
  amount: Paise;
  breakdown: PriceBreakdown;
}

/**
 * The price of a plan for a billing cycle, with the first-subscription discount and GST worked out
 * by the shared rule (operations §9), so the screen shows what the server will charge.
 */
export function planPrice(plan: Plan, cycle: BillingCycle, firstSubscription: boolean): PlanPrice {
  const amount = parseRupees(cycle === 'yearly' ? plan.yearlyPrice : plan.monthlyPrice);
  if (amount === null) throw new Error(`The catalogue price of ${plan.name} is not an amount`);
  return { amount, breakdown: subscriptionPrice(amount, firstSubscription) };
}
