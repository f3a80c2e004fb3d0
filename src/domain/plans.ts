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
  /** school users (owner and staff) allowed, ruling 32; null means unlimited */
  userLimit: number | null;
  features: string[];
  recommended: boolean;
  sortOrder: number;
}

/**
 * What every plan does, stated only as far as the product does it today (issue 12 item 7): the
 * plans differ in how many students they hold, not in features, so each lists the same lines.
 * The platform document's "API integration", "24/7 phone support", "Real-time analytics" and
 * "Get new features first" were promises nothing behind them kept, and are not offered.
 */
export const PLAN_FEATURES = [
  'Students, classes and bulk import',
  'Monthly and yearly fee collection',
  'Numbered receipts to print or save as PDF',
  'Dues carried from session to session',
  'Expenses and financial reports in Excel and CSV',
  'Exam results and printable marksheets',
  'Export all your data at any time',
  'Email support',
];
const BASIC_FEATURES = PLAN_FEATURES;
const STANDARD_FEATURES = PLAN_FEATURES;
const PREMIUM_FEATURES = PLAN_FEATURES;

/** The catalogue the database is seeded with (ruling 11). Prices exclude GST. */
export const PLAN_SEED: readonly PlanSeed[] = [
  { id: 'basic', name: 'Basic', monthlyPrice: paise(25_000), yearlyPrice: paise(300_000), studentLimit: 100, userLimit: 2, features: BASIC_FEATURES, recommended: false, sortOrder: 1 },
  { id: 'standard', name: 'Standard', monthlyPrice: paise(50_000), yearlyPrice: paise(600_000), studentLimit: 500, userLimit: 5, features: STANDARD_FEATURES, recommended: true, sortOrder: 2 },
  { id: 'premium', name: 'Premium', monthlyPrice: paise(100_000), yearlyPrice: paise(1_200_000), studentLimit: null, userLimit: null, features: PREMIUM_FEATURES, recommended: false, sortOrder: 3 },
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

// ---------------------------------------------------------------------------------------------
// Renewals (ruling 28): what a new order buys, given what the school has already paid for.
// ---------------------------------------------------------------------------------------------

/** Adds one billing period (a calendar month or year, UTC) to a date. */
export function addPeriod(start: Date, cycle: BillingCycle): Date {
  const end = new Date(start);
  if (cycle === 'monthly') end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  return end;
}

/** The paid plan running now. Its value is spread evenly over [valueFrom, end]. */
export interface PaidPeriod {
  planId: string;
  valueFrom: Date;
  end: Date;
  /** what the period is worth before GST: catalogue price less the first-time discount, in paise */
  value: Paise;
}

/** A lower plan bought during a higher one: it starts when the current period ends. */
export interface QueuedPeriod {
  planId: string;
  start: Date;
  end: Date;
  value: Paise;
}

/** What a school has paid for: nothing (trial, or ended), a running period, and perhaps a queued one. */
export interface PlanTimeline {
  current: PaidPeriod | null;
  queued: QueuedPeriod | null;
}

/** The catalogue's order of plans: a higher rank is a higher plan. */
export type PlanRanks = ReadonlyMap<string, number>;

export type RenewalKind = 'start' | 'extend' | 'upgrade' | 'queue';

export type RenewalRefusal =
  /** a higher plan bought for a shorter cycle would end before what is already paid for */
  | 'upgrade-ends-early'
  /** a different lower plan is already queued */
  | 'queue-taken'
  | 'unknown-plan';

export interface RenewalQuote {
  kind: RenewalKind;
  planId: string;
  cycle: BillingCycle;
  /** when the bought period starts and ends */
  start: Date;
  end: Date;
  base: Paise;
  discount: Paise;
  /** unused value of the current period taken off the price (upgrades only) */
  credit: Paise;
  taxable: Paise;
  gst: Paise;
  total: Paise;
  undiscountedTotal: Paise;
  /** what the new period is worth (base − discount): the credit a later upgrade works from */
  value: Paise;
}

export interface RenewalRequest {
  timeline: PlanTimeline;
  ranks: PlanRanks;
  planId: string;
  cycle: BillingCycle;
  /** the catalogue price for the cycle, before GST */
  base: Paise;
  /** the school has never paid: the first-time discount applies */
  firstSubscription: boolean;
  /** the catalogue's first-time discount when the order was priced (default 50%) */
  discountPercent?: number;
  now: Date;
}

const DAY = 86_400_000;

/** Applies a queued plan whose time has come; a queue is only ever the period right after the current one. */
export function settleTimeline(timeline: PlanTimeline, now: Date): PlanTimeline {
  const { current, queued } = timeline;
  if (!queued || queued.start > now) return timeline;
  if (current && current.end > now) return timeline;
  return { current: { planId: queued.planId, valueFrom: queued.start, end: queued.end, value: queued.value }, queued: null };
}

/** The last instant anything is paid for, or null. */
export function paidUntil(timeline: PlanTimeline): Date | null {
  return timeline.queued?.end ?? timeline.current?.end ?? null;
}

/** The plan in force at instant `at` according to the timeline, or null when nothing is paid for then. */
export function planAt(timeline: PlanTimeline, at: Date): string | null {
  if (timeline.current && at >= timeline.current.valueFrom && at < timeline.current.end) return timeline.current.planId;
  if (timeline.queued && at >= timeline.queued.start && at < timeline.queued.end) return timeline.queued.planId;
  return null;
}

/**
 * The unused part of the running period, pro rata by whole days: unused days × (value ÷ days of
 * the period), floored to the paisa with integer arithmetic. A started day counts as used.
 */
export function unusedCredit(period: PaidPeriod, now: Date): Paise {
  if (period.end <= now) return paise(0);
  const days = Math.max(1, Math.round((period.end.getTime() - period.valueFrom.getTime()) / DAY));
  const unused = Math.min(days, Math.floor((period.end.getTime() - Math.max(now.getTime(), period.valueFrom.getTime())) / DAY));
  return paise(Math.floor((unused * period.value) / days));
}

/**
 * Prices an order against what is already paid for (ruling 28):
 * - nothing running (trial, never paid, or ended): the plan starts now;
 * - the same plan: it extends from the current end date;
 * - a higher plan: it starts now, and the unused part of the current period is credited
 *   (capped at the new price); its period must reach the current end, so nothing paid is cut short;
 * - a lower plan: it is queued to start when the current period ends (another order of the same
 *   lower plan lengthens the queue).
 * The first-time discount comes off the catalogue price, then the credit, then 18% GST is added.
 */
export function quoteRenewal(request: RenewalRequest): RenewalQuote | { refused: RenewalRefusal } {
  const { ranks, planId, cycle, base, now } = request;
  const rank = ranks.get(planId);
  if (rank === undefined) return { refused: 'unknown-plan' };
  const { current, queued } = settleTimeline(request.timeline, now);
  const discount = request.firstSubscription ? percentOf(base, request.discountPercent ?? FIRST_SUBSCRIPTION_DISCOUNT_PERCENT) : paise(0);
  const value = paise(base - discount);
  let kind: RenewalKind;
  let start: Date;
  let credit = paise(0);
  if (!current || current.end <= now) {
    kind = 'start';
    start = now;
  } else {
    const currentRank = ranks.get(current.planId) ?? 0;
    if (planId === current.planId) {
      kind = 'extend';
      start = current.end;
    } else if (rank > currentRank) {
      kind = 'upgrade';
      start = now;
      if (addPeriod(now, cycle) < current.end) return { refused: 'upgrade-ends-early' };
      credit = paise(Math.min(unusedCredit(current, now), value));
    } else if (queued && queued.planId !== planId) {
      return { refused: 'queue-taken' };
    } else {
      kind = 'queue';
      start = queued ? queued.end : current.end;
    }
  }
  const taxable = paise(value - credit);
  const gst = percentOf(taxable, GST_PERCENT);
  return {
    kind,
    planId,
    cycle,
    start,
    end: addPeriod(start, cycle),
    base,
    discount,
    credit,
    taxable,
    gst,
    total: paise(taxable + gst),
    undiscountedTotal: paise(base + percentOf(base, GST_PERCENT)),
    value,
  };
}

/** The timeline after a quoted order is paid. */
export function applyRenewal(timeline: PlanTimeline, quote: RenewalQuote, now: Date): PlanTimeline {
  const { current, queued } = settleTimeline(timeline, now);
  const shiftQueue = (newEnd: Date): QueuedPeriod | null => {
    if (!queued || !current) return null;
    const shift = newEnd.getTime() - current.end.getTime();
    return { ...queued, start: new Date(queued.start.getTime() + shift), end: new Date(queued.end.getTime() + shift) };
  };
  switch (quote.kind) {
    case 'start':
      return { current: { planId: quote.planId, valueFrom: quote.start, end: quote.end, value: quote.value }, queued: null };
    case 'extend':
      return {
        current: { ...current!, end: quote.end, value: paise(current!.value + quote.value) },
        queued: shiftQueue(quote.end),
      };
    case 'upgrade':
      return {
        current: { planId: quote.planId, valueFrom: quote.start, end: quote.end, value: quote.value },
        queued: shiftQueue(quote.end),
      };
    case 'queue':
      return {
        current,
        queued: queued
          ? { ...queued, end: quote.end, value: paise(queued.value + quote.value) }
          : { planId: quote.planId, start: quote.start, end: quote.end, value: quote.value },
      };
  }
}

/** Whether two quotes charge the same money for the same kind of change (dates may have moved on). */
export function sameCharge(a: Pick<RenewalQuote, 'kind' | 'base' | 'discount' | 'credit' | 'total'>, b: Pick<RenewalQuote, 'kind' | 'base' | 'discount' | 'credit' | 'total'>): boolean {
  return a.kind === b.kind && a.base === b.base && a.discount === b.discount && a.credit === b.credit && a.total === b.total;
}

/**
 * The master administrator's Extend (platform §4: "adds days to the end date"): whole days after
 * the current end, or after today when that end has already passed, so an extension always gives
 * the school the days it names.
 */
export function extendedEnd(end: Date | null, days: number, now: Date): Date {
  const from = end && end > now ? end : now;
  return new Date(from.getTime() + days * DAY);
}

export const EXTEND_DAYS = { min: 1, max: 365 } as const;
