import { describe, expect, it } from 'vitest';
import { daysLeft, subscriptionCounts } from './subscription-rules';

const school = (over: Partial<Parameters<typeof daysLeft>[0]>) => ({
  subscriptionStatus: 'active' as const,
  isExpired: false,
  daysRemaining: 40,
  trialStatus: { isExpired: false, daysRemaining: null },
  ...over,
});

describe('Days Left (platform §4)', () => {
  it('is red under 7, yellow under 30, green from 30, and Expired at 0 or after the end', () => {
    expect(daysLeft(school({ daysRemaining: 6 }))).toEqual({ days: 6, expired: false, tone: 'destructive' });
    expect(daysLeft(school({ daysRemaining: 7 })).tone).toBe('warning');
    expect(daysLeft(school({ daysRemaining: 29 })).tone).toBe('warning');
    expect(daysLeft(school({ daysRemaining: 30 })).tone).toBe('success');
    expect(daysLeft(school({ daysRemaining: 0, isExpired: true })).expired).toBe(true);
    expect(daysLeft(school({ subscriptionStatus: 'trial', trialStatus: { isExpired: false, daysRemaining: 3 } }))).toMatchObject({ days: 3, tone: 'destructive' });
  });

  it('counts ended trials and plans as Expired and cancelled ones as Cancelled', () => {
    const counts = subscriptionCounts([
      school({}),
      school({ isExpired: true, subscriptionStatus: 'expired' }),
      school({ subscriptionStatus: 'trial', trialStatus: { isExpired: true, daysRemaining: 0 } }),
      school({ subscriptionStatus: 'trial', trialStatus: { isExpired: false, daysRemaining: 2 } }),
      school({ subscriptionStatus: 'cancelled', isExpired: true }),
    ]);
    expect(counts).toEqual({ active: 1, trial: 1, expired: 2, cancelled: 1 });
  });
});
