import { formatINR, type Paise } from '@/domain/money';
import type { BillingCycle } from '@/domain/plans';
import { formatDate } from '@/web/lib/format';
import type { PlanChange } from './api';

/** Every text of the subscription screen (platform §2, §8; rulings 14, 28, 29). */
export const TEXTS = {
  authTitle: 'Authentication Required',
  authText: 'Please log in to renew your subscription and continue using the school management system.',
  authHint: 'A school whose trial or plan has ended can still sign in with its password, view its records and renew here.',
  goToLogin: 'Go to Login',
  refresh: 'Refresh Page',
  expiredTitle: 'Subscription Required',
  expiredText: 'Your trial period has ended. Choose a plan to continue using our services.',
  chooseTitle: 'Choose Your Plan',
  chooseText: 'Pick the plan that fits your school. Nothing you have paid for is cut short: the same plan extends, a higher plan starts now with credit, a lower plan waits for yours to end.',
  plansFailed: 'Unable to load the plans. Please refresh the page.',
  backToDashboard: 'Back to Dashboard',
  testTitle: 'Test payments',
  testText: 'This server takes payments through the built-in sandbox: no money moves, and any plan can be tried. A live server uses Razorpay.',
  sessionExpired: { title: 'Session Expired', description: 'Please sign in again to continue with payment.' },
  paymentError: { title: 'Payment Error', description: 'Failed to initiate payment. Please try again.' },
  orderFailed: { title: 'Payment Error', description: 'Failed to create payment order' },
  verifyFailed: { title: 'Payment Verification Failed', description: 'Please contact support if payment was deducted.' },
  successTitle: 'Payment Successful!',
  success: (planName: string) => `Your ${planName} plan is paid for. Taking you back…`,
  card: {
    mostPopular: 'MOST POPULAR',
    per: (cycle: BillingCycle) => `/${per(cycle)}`,
    everythingIn: (planName: string, more: boolean) => `Everything in ${planName}${more ? ', plus:' : ''}`,
    breakdown: (planName: string) => `${planName} price breakdown`,
    planPrice: (cycle: BillingCycle) => `Plan price (1 ${per(cycle)})`,
    discount: 'First-time discount (50%)',
    credit: 'Credit for unused days',
    gst: 'GST (18%)',
    total: 'Total',
    fullPrice: (amount: string) => `full price ${amount}`,
    processing: 'Processing...',
    /** platform §2: the pay button carries the payment provider's name (the sandbox stands in for it) */
    pay: 'Pay with Razorpay',
  },
} as const;

const per = (cycle: BillingCycle) => (cycle === 'yearly' ? 'year' : 'month');

/** What buying a plan would do, in one line (ruling 28), e.g. "Basic from 22 Nov 2027". */
export function changeText(planName: string, change: PlanChange, credit: Paise, cycle: BillingCycle): string {
  switch (change.kind) {
    case 'start':
      return `Starts today, paid until ${formatDate(change.endDate)}`;
    case 'extend':
      return `Adds a ${per(cycle)} after your current plan: paid until ${formatDate(change.endDate)}`;
    case 'upgrade':
      return credit > 0
        ? `Starts today; ${formatINR(credit)} credit for the unused days of your current plan`
        : `Starts today, paid until ${formatDate(change.endDate)}`;
    case 'queue':
      return `${planName} from ${formatDate(change.startDate)}, when your current plan ends`;
  }
}

/** "Your Premium plan is paid until 22 Nov 2027" and, when one is queued, "Basic from 22 Nov 2027". */
export function currentPlanText(planName: string, endDate: string | null): string {
  return `Your ${planName} plan is paid until ${formatDate(endDate)}.`;
}
export const queuedPlanText = (planName: string, startDate: string) => `${planName} from ${formatDate(startDate)}.`;
