import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paise, type Paise } from './money';
import {
  accessState,
  applyRenewal,
  paidUntil,
  planAt,
  quoteRenewal,
  settleTimeline,
  subscriptionPrice,
  unusedCredit,
  type BillingCycle,
  type PaidPeriod,
  type PlanTimeline,
  type RenewalQuote,
} from './plans';

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

describe('renewals never take away what was paid (ruling 28)', () => {
  const ranks = new Map([['basic', 1], ['standard', 2], ['premium', 3]]);
  const prices: Record<string, { monthly: Paise; yearly: Paise }> = {
    basic: { monthly: paise(25_000), yearly: paise(300_000) },
    standard: { monthly: paise(50_000), yearly: paise(600_000) },
    premium: { monthly: paise(100_000), yearly: paise(1_200_000) },
  };
  const now = new Date('2026-11-22T00:00:00Z');
  const premiumYear: PlanTimeline = {
    current: { planId: 'premium', valueFrom: new Date('2026-11-22T00:00:00Z'), end: new Date('2027-11-22T00:00:00Z'), value: paise(1_200_000) },
    queued: null,
  };
  const quote = (timeline: PlanTimeline, planId: string, cycle: BillingCycle, at: Date, first = false) =>
    quoteRenewal({ timeline, ranks, planId, cycle, base: prices[planId]![cycle], firstSubscription: first, now: at });

  it('buying Basic monthly during a paid Premium year queues Basic from the end of the Premium year', () => {
    const q = quote(premiumYear, 'basic', 'monthly', new Date('2027-03-01T00:00:00Z')) as RenewalQuote;
    expect(q).toMatchObject({ kind: 'queue', start: new Date('2027-11-22T00:00:00Z'), end: new Date('2027-12-22T00:00:00Z'), total: 29_500 });
    const after = applyRenewal(premiumYear, q, new Date('2027-03-01T00:00:00Z'));
    expect(planAt(after, new Date('2027-11-21T23:59:59Z'))).toBe('premium');
    expect(planAt(after, new Date('2027-11-22T00:00:00Z'))).toBe('basic');
    // on 22 Nov 2027 the queue takes effect
    expect(settleTimeline(after, new Date('2027-11-22T00:00:00Z')).current).toMatchObject({ planId: 'basic', end: new Date('2027-12-22T00:00:00Z') });
  });

  it('the same plan extends from the end date; a higher plan starts now with the unused days credited', () => {
    const standard: PlanTimeline = {
      current: { planId: 'standard', valueFrom: new Date('2026-01-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z'), value: paise(300_000) },
      queued: null,
    };
    expect(quote(standard, 'standard', 'yearly', now)).toMatchObject({ kind: 'extend', start: new Date('2027-01-01T00:00:00Z'), end: new Date('2028-01-01T00:00:00Z'), credit: 0, total: 708_000 });
    // 22 Nov 2026 → 1 Jan 2027: 40 unused days of 365, worth ₹3,000 → 40 × 300,000 / 365 = 32,876.7 → 32,876 paise
    const up = quote(standard, 'premium', 'yearly', now) as RenewalQuote;
    expect(up).toMatchObject({ kind: 'upgrade', start: now, credit: 32_876, taxable: 1_167_124, gst: 210_082, total: 1_377_206 });
    // a month of Premium would end before the paid Standard year: refused, not cut short
    expect(quote(standard, 'premium', 'monthly', new Date('2026-06-01T00:00:00Z'))).toEqual({ refused: 'upgrade-ends-early' });
  });

  it('a trial school that never paid starts now with the first-time discount', () => {
    expect(quote({ current: null, queued: null }, 'premium', 'yearly', now, true)).toMatchObject({
      kind: 'start', start: now, end: new Date('2027-11-22T00:00:00Z'), discount: 600_000, credit: 0, total: 708_000,
    });
  });

  const planIds = fc.constantFrom('basic', 'standard', 'premium');
  const cycles = fc.constantFrom<BillingCycle>('monthly', 'yearly');
  const order = fc.record({ planId: planIds, cycle: cycles, afterDays: fc.integer({ min: 0, max: 800 }), first: fc.boolean() });

  it('over any sequence of orders: the paid end never moves earlier, the plan never drops before it, credit ≤ paid, totals in whole paise', () => {
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 8 }), (orders) => {
        let timeline: PlanTimeline = { current: null, queued: null };
        let at = now;
        for (const o of orders) {
          at = new Date(at.getTime() + o.afterDays * 86_400_000 + 3_600_000);
          timeline = settleTimeline(timeline, at);
          const q = quoteRenewal({ timeline, ranks, planId: o.planId, cycle: o.cycle, base: prices[o.planId]![o.cycle], firstSubscription: o.first, now: at });
          if ('refused' in q) continue;
          for (const v of [q.base, q.discount, q.credit, q.taxable, q.gst, q.total]) {
            expect(Number.isInteger(v) && v >= 0).toBe(true);
          }
          expect(q.total).toBe(q.taxable + q.gst);
          expect(q.taxable).toBe(q.base - q.discount - q.credit);
          expect(q.credit).toBeLessThanOrEqual(timeline.current?.value ?? 0);
          expect(q.credit).toBeLessThanOrEqual(q.base - q.discount);
          const before = paidUntil(timeline);
          const next = applyRenewal(timeline, q, at);
          const after = paidUntil(next);
          if (before && before > at) expect(after!.getTime()).toBeGreaterThanOrEqual(before.getTime());
          // at every day until the old paid end the plan is the same or higher
          if (before) {
            for (let t = at.getTime(); t < before.getTime(); t += 86_400_000 * 7) {
              const old = planAt(timeline, new Date(t));
              if (old) expect(ranks.get(planAt(next, new Date(t)) ?? '') ?? 0).toBeGreaterThanOrEqual(ranks.get(old)!);
            }
          }
          timeline = next;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never credits more than the unused share of what was paid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 800 }),
        fc.integer({ min: 0, max: 900 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (days, elapsedHours, value) => {
          const from = new Date('2026-01-01T00:00:00Z');
          const period: PaidPeriod = { planId: 'standard', valueFrom: from, end: new Date(from.getTime() + days * 86_400_000), value: paise(value) };
          const credit = unusedCredit(period, new Date(from.getTime() + elapsedHours * 3_600_000));
          expect(Number.isInteger(credit)).toBe(true);
          expect(credit).toBeLessThanOrEqual(value);
          expect(credit * days).toBeLessThanOrEqual(Math.max(0, days - Math.floor(elapsedHours / 24)) * value);
        },
      ),
    );
  });
});
