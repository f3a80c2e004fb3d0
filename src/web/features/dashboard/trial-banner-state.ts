import type { School } from '@/web/features/auth/api';
import { formatDate } from '@/web/lib/format';
import { TRIAL_TEXTS as T } from './texts';

export interface TrialBannerState {
  tone: 'destructive' | 'warning';
  icon: 'lock' | 'clock';
  title: string;
  lines: { text: string; strong?: boolean }[];
  /** the button to the plan page, or null for a role that cannot manage the plan (it reads askOwner instead) */
  action: string | null;
}

/**
 * What the dashboard says about the trial or plan (operations §8): expired trial, expired plan
 * (whatever its stored status still says: ruling 14), or a trial ending within two days; null
 * otherwise. `canManagePlan` is can('billing.manage'): only then the Upgrade / Renew button.
 */
export function trialBannerState(
  school: Pick<School, 'subscriptionStatus' | 'trialStatus' | 'isExpired' | 'planEndDate'>,
  canManagePlan: boolean,
): TrialBannerState | null {
  const withAction = (state: Omit<TrialBannerState, 'action'>, action: string): TrialBannerState =>
    canManagePlan ? { ...state, action } : { ...state, lines: [...state.lines, { text: T.askOwner }], action: null };
  if (school.subscriptionStatus === 'trial' && school.trialStatus.isExpired) {
    return withAction({ tone: 'destructive', icon: 'lock', title: T.trialExpiredTitle, lines: [{ text: T.trialExpired }, { text: T.readOnly }] }, T.upgrade);
  }
  if (school.subscriptionStatus !== 'trial' && school.isExpired) {
    const title = T.planExpiredTitle(school.planEndDate ? formatDate(school.planEndDate) : null);
    return withAction({ tone: 'destructive', icon: 'lock', title, lines: [{ text: T.planExpired }] }, T.renew);
  }
  const days = school.trialStatus.daysRemaining;
  if (school.subscriptionStatus === 'trial' && days !== null && days <= 2) {
    return withAction(
      { tone: 'warning', icon: 'clock', title: T.endingTitle, lines: [{ text: T.daysLeft(days), strong: true }, { text: T.ending(days) }] },
      T.upgrade,
    );
  }
  return null;
}
