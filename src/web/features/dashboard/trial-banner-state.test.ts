import { describe, expect, it } from 'vitest';
import { can, STAFF_ROLES } from '@/domain/permissions';
import { trialBannerState } from './trial-banner-state';

const expiredTrial = { subscriptionStatus: 'trial', trialStatus: { isExpired: true, daysRemaining: 0 }, planEndDate: null, isExpired: true } as const;
const endingTrial = { subscriptionStatus: 'trial', trialStatus: { isExpired: false, daysRemaining: 1 }, planEndDate: null, isExpired: false } as const;
const endedPlan = { subscriptionStatus: 'active', trialStatus: { isExpired: true, daysRemaining: 0 }, planEndDate: '2026-11-22T05:00:00.000Z', isExpired: true } as const;
const ASK = "Only the school's owner or an administrator can change the plan: ask them to.";

describe('the trial and plan banner', () => {
  it('offers Upgrade Plan / Renew Plan to whoever manages the plan', () => {
    expect(trialBannerState(expiredTrial, true)).toMatchObject({ title: 'Trial Period Expired', action: 'Upgrade Plan' });
    expect(trialBannerState(endingTrial, true)).toMatchObject({
      title: 'Trial Period Ending Soon',
      lines: [{ text: '1 day(s) remaining', strong: true }, { text: 'Your trial period will expire in 1 day. Upgrade now to avoid service interruption.' }],
      action: 'Upgrade Plan',
    });
    expect(trialBannerState(endedPlan, true)).toMatchObject({ title: 'Subscription Expired on 22 Nov 2026', action: 'Renew Plan' });
    expect(trialBannerState(expiredTrial, true)!.lines.map((l) => l.text)).not.toContain(ASK);
  });

  it('tells the other roles the same news without a button, and whom to ask', () => {
    for (const school of [expiredTrial, endingTrial, endedPlan]) {
      const banner = trialBannerState(school, false)!;
      expect(banner.action).toBeNull();
      expect(banner.title).toBe(trialBannerState(school, true)!.title);
      expect(banner.lines.at(-1)!.text).toBe(ASK);
    }
  });

  it('says nothing while the trial has days to go or the plan runs', () => {
    expect(trialBannerState({ ...endingTrial, trialStatus: { isExpired: false, daysRemaining: 3 } }, true)).toBeNull();
    expect(trialBannerState({ ...endedPlan, isExpired: false }, true)).toBeNull();
  });

  it('gives the buttons to the owner and administrators only (billing.manage)', () => {
    expect(STAFF_ROLES.filter((role) => can(role, 'billing.manage'))).toEqual(['owner', 'administrator']);
  });
});
