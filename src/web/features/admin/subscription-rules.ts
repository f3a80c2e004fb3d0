import type { School } from '@/web/lib/me-api';

/** The end that matters for a school: its trial end during a trial, else the end of all it paid for (a queued plan included). */
export function validUntil(s: Pick<School, 'subscriptionStatus' | 'trialEndsAt' | 'planEndDate' | 'queuedPlan'>): string | null {
  return s.subscriptionStatus === 'trial' ? s.trialEndsAt : (s.queuedPlan?.endDate ?? s.planEndDate);
}

export type DaysTone = 'destructive' | 'warning' | 'success' | 'secondary';

/** Platform §4: under 7 days red, under 30 yellow, else green; 0 or fewer reads Expired. */
export function daysLeft(s: Pick<School, 'subscriptionStatus' | 'isExpired' | 'daysRemaining' | 'trialStatus'>): { days: number | null; expired: boolean; tone: DaysTone } {
  const days = s.subscriptionStatus === 'trial' ? s.trialStatus.daysRemaining : s.daysRemaining;
  const expired = s.isExpired || (s.subscriptionStatus === 'trial' && s.trialStatus.isExpired) || (days !== null && days <= 0);
  if (expired) return { days: 0, expired: true, tone: 'destructive' };
  if (days === null) return { days: null, expired: false, tone: 'secondary' };
  return { days, expired: false, tone: days < 7 ? 'destructive' : days < 30 ? 'warning' : 'success' };
}

export interface SubscriptionCounts {
  active: number;
  trial: number;
  expired: number;
  cancelled: number;
}

/** The four counts of the tab: an ended trial or plan counts as Expired, a cancelled one as Cancelled. */
export function subscriptionCounts(schools: readonly Pick<School, 'subscriptionStatus' | 'isExpired' | 'trialStatus'>[]): SubscriptionCounts {
  const counts = { active: 0, trial: 0, expired: 0, cancelled: 0 };
  for (const s of schools) {
    if (s.subscriptionStatus === 'cancelled') counts.cancelled++;
    else if (s.subscriptionStatus === 'expired' || s.isExpired || (s.subscriptionStatus === 'trial' && s.trialStatus.isExpired)) counts.expired++;
    else if (s.subscriptionStatus === 'trial') counts.trial++;
    else counts.active++;
  }
  return counts;
}

/** A date input's value (yyyy-mm-dd, India time) from an ISO timestamp. */
export function dateInputValue(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(new Date(iso).getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

/** Today in India as yyyy-mm-dd: the default start date of Manage School Plan. */
export const indiaToday = (now = new Date()) => dateInputValue(now.toISOString());
