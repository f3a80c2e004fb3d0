import { describe, expect, it } from 'vitest';
import { paise } from './money';
import { accessState, subscriptionPrice } from './plans';

describe('subscription price (ruling 11)', () => {
  it('takes 50% off the first subscription before adding 18% GST', () => {
    expect(subscriptionPrice(paise(600_000), true)).toEqual({
      base: 600_000, discount: 300_000, taxable: 300_000, gst: 54_000, total: 354_000, undiscountedTotal: 708_000,
    });
  });
  it('charges the full price plus GST afterwards', () => {
    expect(subscriptionPrice(paise(25_000), false)).toMatchObject({ discount: 0, gst: 4_500, total: 29_500 });
  });
});

describe('accessState', () => {
  const now = new Date('2026-04-10T00:00:00Z');
  it('counts whole days left, rounding up', () => {
    expect(accessState({ subscriptionStatus: 'trial', trialEndsAt: new Date('2026-04-14T12:00:00Z'), planEndDate: null }, now)).toMatchObject({ isExpired: false, daysRemaining: 5 });
  });
  it('expires at the end date, and at once when the status says expired', () => {
    expect(accessState({ subscriptionStatus: 'active', trialEndsAt: null, planEndDate: new Date('2026-04-09T23:59:59Z') }, now).isExpired).toBe(true);
    expect(accessState({ subscriptionStatus: 'expired', trialEndsAt: null, planEndDate: null }, now).isExpired).toBe(true);
  });
  it('keeps a cancelled plan open until its end date (ruling 15)', () => {
    expect(accessState({ subscriptionStatus: 'cancelled', trialEndsAt: null, planEndDate: new Date('2026-05-01T00:00:00Z') }, now)).toMatchObject({ isExpired: false, daysRemaining: 21 });
  });
  it('has no clock before the trial starts', () => {
    expect(accessState({ subscriptionStatus: 'trial', trialEndsAt: null, planEndDate: null }, now)).toEqual({ isExpired: false, daysRemaining: null, endsAt: null });
  });
});
