import type { School } from '@/web/lib/me-api';

type SchoolLike = Pick<School, 'name' | 'email' | 'subscriptionStatus' | 'isExpired' | 'trialStatus' | 'daysRemaining'>;

export interface SchoolCounts {
  total: number;
  active: number;
  trial: number;
  expiredTrials: number;
}

/**
 * The four Overview counts (platform §2). Active means a paid plan that has not run out; Trial a
 * trial still running (or not yet started: awaiting email confirmation); Expired Trials a trial
 * whose 5 days are over without a paid plan.
 */
export function schoolCounts(schools: readonly SchoolLike[]): SchoolCounts {
  const counts: SchoolCounts = { total: schools.length, active: 0, trial: 0, expiredTrials: 0 };
  for (const s of schools) {
    if (s.subscriptionStatus === 'active' && !s.isExpired) counts.active++;
    if (s.subscriptionStatus === 'trial') {
      if (s.trialStatus.isExpired) counts.expiredTrials++;
      else counts.trial++;
    }
  }
  return counts;
}

/** Search by school name or email, ignoring case and surrounding spaces. */
export function filterSchools<T extends Pick<School, 'name' | 'email'>>(schools: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...schools];
  return schools.filter((s) => s.name.toLowerCase().includes(q) || s.email.toLowerCase().includes(q));
}

export type StatusTone = 'success' | 'warning' | 'destructive' | 'secondary';

/** The status badge text (platform §4: "Trial Expired" or "Trial (N days left)"). */
export function schoolStatus(s: SchoolLike): { label: string; tone: StatusTone } {
  switch (s.subscriptionStatus) {
    case 'trial': {
      if (s.trialStatus.isExpired) return { label: 'Trial Expired', tone: 'destructive' };
      const days = s.trialStatus.daysRemaining;
      if (days === null) return { label: 'Trial (awaiting email confirmation)', tone: 'secondary' };
      return { label: `Trial (${days} ${days === 1 ? 'day' : 'days'} left)`, tone: 'warning' };
    }
    case 'active':
      return s.isExpired ? { label: 'Expired', tone: 'destructive' } : { label: 'Active', tone: 'success' };
    case 'cancelled':
      return { label: 'Cancelled', tone: 'secondary' };
    default:
      return { label: 'Expired', tone: 'destructive' };
  }
}

/** "standard" → "Standard"; "basic-monthly" → "Basic (Monthly)". */
export function planLabel(plan: string): string {
  const [id = '', cycle] = plan.split('-');
  const name = id.charAt(0).toUpperCase() + id.slice(1);
  return cycle === 'monthly' ? `${name} (Monthly)` : name;
}
