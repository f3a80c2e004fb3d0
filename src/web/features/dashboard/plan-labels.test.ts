import { describe, expect, it } from 'vitest';
import { accessBadge, planLabel } from './plan-labels';

describe('header badges', () => {
  it('names plans, monthly ones as Monthly', () => {
    expect(planLabel('basic')).toBe('Basic');
    expect(planLabel('premium')).toBe('Premium');
    expect(planLabel('standard-monthly')).toBe('Standard Monthly');
  });

  it('shows the trial days left, the expired trial and the paid end date', () => {
    expect(accessBadge({ subscriptionStatus: 'trial', trialStatus: { isExpired: false, daysRemaining: 5 }, planEndDate: null, isExpired: false }).text).toBe('Trial (5 days left)');
    expect(accessBadge({ subscriptionStatus: 'trial', trialStatus: { isExpired: false, daysRemaining: 1 }, planEndDate: null, isExpired: false }).text).toBe('Trial (1 day left)');
    expect(accessBadge({ subscriptionStatus: 'trial', trialStatus: { isExpired: true, daysRemaining: 0 }, planEndDate: null, isExpired: false }).text).toBe('Trial Expired');
    expect(accessBadge({ subscriptionStatus: 'active', trialStatus: { isExpired: true, daysRemaining: 0 }, planEndDate: '2027-03-31T00:00:00.000Z', isExpired: false }).text).toBe(
      'Active till 31 Mar 2027',
    );
  });

  it('says Expired on <date> for a paid plan that has ended, whatever its stored status', () => {
    for (const subscriptionStatus of ['active', 'expired', 'cancelled'] as const) {
      const badge = accessBadge({ subscriptionStatus, trialStatus: { isExpired: true, daysRemaining: 0 }, planEndDate: '2026-11-22T05:00:00.000Z', isExpired: true });
      expect(badge).toEqual({ text: 'Expired on 22 Nov 2026', tone: 'destructive' });
    }
  });
});
