import type { School } from '@/web/features/auth/api';
import { formatDate } from '@/web/lib/format';

/** "standard" → "Standard"; plan ids ending in -monthly are shown as Monthly (operations §4). */
export function planLabel(plan: string): string {
  const [base = '', cycle] = plan.toLowerCase().split('-');
  const name = base ? base[0]!.toUpperCase() + base.slice(1) : 'Plan';
  return cycle === 'monthly' ? `${name} Monthly` : name;
}

export type BadgeTone = 'success' | 'warning' | 'destructive' | 'secondary';

/** The trial or active-till badge of the header (platform §4). */
export function accessBadge(school: Pick<School, 'subscriptionStatus' | 'trialStatus' | 'planEndDate' | 'isExpired'>): { text: string; tone: BadgeTone } {
  // statuses are always true: an ended paid plan never reads "Active till <a past date>"
  const ended = school.subscriptionStatus !== 'trial' && school.isExpired;
  if (ended) return { text: school.planEndDate ? `Expired on ${formatDate(school.planEndDate)}` : 'Plan Expired', tone: 'destructive' };
  switch (school.subscriptionStatus) {
    case 'trial': {
      if (school.trialStatus.isExpired) return { text: 'Trial Expired', tone: 'destructive' };
      const days = school.trialStatus.daysRemaining ?? 0;
      return { text: `Trial (${days} ${days === 1 ? 'day' : 'days'} left)`, tone: days <= 2 ? 'warning' : 'secondary' };
    }
    case 'active':
      return { text: school.planEndDate ? `Active till ${formatDate(school.planEndDate)}` : 'Active', tone: 'success' };
    case 'cancelled':
      return { text: school.planEndDate ? `Cancelled · access till ${formatDate(school.planEndDate)}` : 'Cancelled', tone: 'warning' };
    case 'expired':
      return { text: 'Plan Expired', tone: 'destructive' };
  }
}
