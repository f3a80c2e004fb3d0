import { paise, type Paise } from './money';

export const PLAN_IDS = ['basic', 'standard', 'premium'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export type BillingCycle = 'monthly' | 'yearly';

export const SUBSCRIPTION_STATUSES = ['trial', 'active', 'expired', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const TRIAL_DAYS = 5;
export const GST_PERCENT = 18;
export const FIRST_SUBSCRIPTION_DISCOUNT_PERCENT = 50;

export interface PlanSeed {
  id: PlanId;
  name: string;
  monthlyPrice: Paise;
  yearlyPrice: Paise;
  /** null means unlimited */
  studentLimit: number | null;
  features: string[];
  recommended: boolean;
  sortOrder: number;
}

const BASIC_FEATURES = [
  'Basic fee management',
  'Monthly reports',
  'Email support',
  'Student management',
  'Fee collection',
];
const STANDARD_FEATURES = [
  ...BASIC_FEATURES,
  'Custom reports',
  'Expense tracking',
  'Academic results',
  'Priority support',
];
const PREMIUM_FEATURES = [
  ...STANDARD_FEATURES,
  'Complete financial suite',
  'Real-time analytics',
  'Multi-user access',
  'API integration',
  '24/7 phone support',
  'Get new features first',
];

/** The catalogue the database is seeded with (ruling 11). Prices exclude GST. */
export const PLAN_SEED: readonly PlanSeed[] = [
  { id: 'basic', name: 'Basic', monthlyPrice: paise(25_000), yearlyPrice: paise(300_000), studentLimit: 100, features: BASIC_FEATURES, recommended: false, sortOrder: 1 },
  { id: 'standard', name: 'Standard', monthlyPrice: paise(50_000), yearlyPrice: paise(600_000), studentLimit: 500, features: STANDARD_FEATURES, recommended: true, sortOrder: 2 },
  { id: 'premium', name: 'Premium', monthlyPrice: paise(100_000), yearlyPrice: paise(1_200_000), studentLimit: null, features: PREMIUM_FEATURES, recommended: false, sortOrder: 3 },
];

/** Rounds half-up to the paisa: percent of an amount with integers only. */
export function percentOf(amount: Paise, percent: number): Paise {
  return paise(Math.floor((amount * percent + 50) / 100));
}

export interface PriceBreakdown {
  base: Paise;
  discount: Paise;
  taxable: Paise;
  gst: Paise;
  total: Paise;
  /** full price plus GST, shown struck out when a discount applies */
  undiscountedTotal: Paise;
}

export function subscriptionPrice(base: Paise, firstSubscription: boolean): PriceBreakdown {
  const discount = firstSubscription ? percentOf(base, FIRST_SUBSCRIPTION_DISCOUNT_PERCENT) : paise(0);
  const taxable = paise(base - discount);
  const gst = percentOf(taxable, GST_PERCENT);
  return {
    base,
    discount,
    taxable,
    gst,
    total: paise(taxable + gst),
    undiscountedTotal: paise(base + percentOf(base, GST_PERCENT)),
  };
}

const DAY_MS = 86_400_000;

export interface AccessState {
  /** true when the school may only read, sign in and pay */
  isExpired: boolean;
  /** whole days left, rounded up; null when there is no end date */
  daysRemaining: number | null;
  endsAt: Date | null;
}

/** Works out whether a school's trial or plan has ended at `now` (rulings 12, 14, 15). */
export function accessState(
  school: { subscriptionStatus: SubscriptionStatus; trialEndsAt: Date | null; planEndDate: Date | null },
  now: Date,
): AccessState {
  const endsAt = school.subscriptionStatus === 'trial' ? school.trialEndsAt : school.planEndDate;
  if (school.subscriptionStatus === 'expired') {
    return { isExpired: true, daysRemaining: 0, endsAt };
  }
  if (!endsAt) return { isExpired: false, daysRemaining: null, endsAt: null };
  const left = endsAt.getTime() - now.getTime();
  return {
    isExpired: left <= 0,
    daysRemaining: Math.max(0, Math.ceil(left / DAY_MS)),
    endsAt,
  };
}
