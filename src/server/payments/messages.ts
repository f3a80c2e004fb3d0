import type { RenewalRefusal } from '../../domain/plans';

/** What the payment routes say to the school (one place, so the API reference and tests agree). */
export const PAYMENT_FAILED = 'Payment verification failed. Please contact support if payment was deducted.';
export const INVALID_PLAN = 'Choose a valid plan: basic, standard or premium';
export const ORDER_NOT_FOUND = 'Payment order not found';
export const ORDER_FAILED = 'Failed to create payment order. Please try again.';
export const ORDER_CLOSED = 'This order has already been paid or closed. Create a new order to pay again.';
/** a second order quoted on the same plan state (e.g. a second first-time discount) was captured after the first */
export const QUOTE_NO_LONGER_HOLDS =
  'Your plan changed after this order was priced (another payment was applied first), so this payment was not applied. Any amount deducted will be refunded; please check your plan and order again.';
export const NOTHING_TO_PAY = 'Your unused credit covers this plan change: nothing is left to pay online. Please contact support to switch.';

export const REFUSALS: Record<RenewalRefusal, string> = {
  'upgrade-ends-early':
    'This plan would end before the plan you have already paid for. Choose the yearly cycle for the higher plan, or renew your current plan.',
  'queue-taken':
    'Another plan is already queued to start when your current plan ends. Buy that plan again to lengthen it, or wait until it starts.',
  'unknown-plan': INVALID_PLAN,
};
