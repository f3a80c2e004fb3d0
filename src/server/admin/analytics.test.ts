import { describe, expect, it } from 'vitest';
import { computeAnalytics, indiaWeekStart, monthlyValue, type PaidPayment, type SchoolFacts } from './analytics';
import { ServerErrorCounter } from './request-stats';

const plans = [
  { id: 'basic', name: 'Basic', monthlyPricePaise: 25_000, yearlyPricePaise: 300_000 },
  { id: 'standard', name: 'Standard', monthlyPricePaise: 50_000, yearlyPricePaise: 600_000 },
  { id: 'premium', name: 'Premium', monthlyPricePaise: 100_000, yearlyPricePaise: 1_200_000 },
];
const at = (iso: string) => new Date(iso);
const now = at('2026-11-22T06:00:00.000Z');

describe('platform analytics', () => {
  it('MRR counts running paid plans that renew: the monthly price, or a twelfth of the yearly one', () => {
    expect(monthlyValue(plans[1]!, 'yearly')).toBe(50_000);
    expect(monthlyValue({ ...plans[0]!, yearlyPricePaise: 300_005 }, 'yearly')).toBe(25_000);
    const schools: SchoolFacts[] = [
      { id: 'a', createdAt: at('2026-01-05T00:00:00Z'), status: 'active', plan: 'standard', paidUntil: at('2027-01-05T00:00:00Z'), hasPaid: true },
      { id: 'b', createdAt: at('2026-02-05T00:00:00Z'), status: 'active', plan: 'premium', paidUntil: at('2026-12-05T00:00:00Z'), hasPaid: true },
      // cancelled: runs to its end but will not renew
      { id: 'c', createdAt: at('2026-02-05T00:00:00Z'), status: 'cancelled', plan: 'premium', paidUntil: at('2026-12-05T00:00:00Z'), hasPaid: true },
      { id: 'd', createdAt: at('2026-11-20T00:00:00Z'), status: 'trial', plan: 'basic', paidUntil: null, hasPaid: false },
    ];
    const payments: PaidPayment[] = [
      { schoolId: 'a', planId: 'standard', billingCycle: 'yearly', netPaise: 300_000, paidAt: at('2026-01-05T00:00:00Z'), periodStart: at('2026-01-05T00:00:00Z'), periodEnd: at('2027-01-05T00:00:00Z') },
      { schoolId: 'b', planId: 'premium', billingCycle: 'monthly', netPaise: 100_000, paidAt: at('2026-11-05T00:00:00Z'), periodStart: at('2026-11-05T00:00:00Z'), periodEnd: at('2026-12-05T00:00:00Z') },
    ];
    const a = computeAnalytics({ now, schools, payments, plans });
    expect(a.mrr).toBe(150_000);
    expect(a.arr).toBe(1_800_000);
    expect(a.payingSchools).toBe(2);
    expect(a.planMix).toEqual([
      { plan: 'basic', name: 'Basic', schools: 0, mrr: 0 },
      { plan: 'standard', name: 'Standard', schools: 1, mrr: 50_000 },
      { plan: 'premium', name: 'Premium', schools: 1, mrr: 100_000 },
    ]);
    expect(a.revenueByMonth).toHaveLength(12);
    expect(a.revenueByMonth[0]).toEqual({ month: '2025-12', revenue: 0, payments: 0 });
    expect(a.revenueByMonth.find((m) => m.month === '2026-01')).toEqual({ month: '2026-01', revenue: 300_000, payments: 1 });
    expect(a.revenueByMonth[11]).toEqual({ month: '2026-11', revenue: 100_000, payments: 1 });
    expect(a.revenueLast12Months).toBe(400_000);
    expect(a.signupsByWeek[11]).toEqual({ weekStart: '2026-11-16', signups: 1, converted: 0, conversionPercent: 0 });
  });

  it('months and weeks are India’s: a payment at 20:00 UTC on 30 November is December', () => {
    expect(indiaWeekStart(at('2026-11-22T18:29:00Z'))).toBe('2026-11-16');
    expect(indiaWeekStart(at('2026-11-22T18:31:00Z'))).toBe('2026-11-23');
    const a = computeAnalytics({
      now: at('2026-12-10T00:00:00Z'),
      schools: [],
      plans,
      payments: [{ schoolId: 'x', planId: 'basic', billingCycle: 'monthly', netPaise: 25_000, paidAt: at('2026-11-30T20:00:00Z'), periodStart: null, periodEnd: null }],
    });
    expect(a.revenueByMonth[11]).toEqual({ month: '2026-12', revenue: 25_000, payments: 1 });
  });

  it('churn: of the schools paying when a month began, those whose paid time ran out in it and stayed out', () => {
    const schools: SchoolFacts[] = [
      { id: 'gone', createdAt: at('2026-09-01T00:00:00Z'), status: 'active', plan: 'basic', paidUntil: at('2026-11-01T00:00:00+05:30'), hasPaid: true },
      { id: 'stays', createdAt: at('2026-09-01T00:00:00Z'), status: 'active', plan: 'basic', paidUntil: at('2027-10-01T00:00:00+05:30'), hasPaid: true },
    ];
    const payments: PaidPayment[] = [
      { schoolId: 'gone', planId: 'basic', billingCycle: 'monthly', netPaise: 12_500, paidAt: at('2026-10-01T00:00:00+05:30'), periodStart: at('2026-10-01T00:00:00+05:30'), periodEnd: at('2026-11-01T00:00:00+05:30') },
      { schoolId: 'stays', planId: 'basic', billingCycle: 'yearly', netPaise: 150_000, paidAt: at('2026-10-01T00:00:00+05:30'), periodStart: at('2026-10-01T00:00:00+05:30'), periodEnd: at('2027-10-01T00:00:00+05:30') },
    ];
    const a = computeAnalytics({ now, schools, payments, plans });
    expect(a.churnByMonth.find((m) => m.month === '2026-11')).toEqual({ month: '2026-11', payingAtStart: 2, churned: 1, churnPercent: 50 });
    expect(a.churnByMonth.find((m) => m.month === '2026-10')).toEqual({ month: '2026-10', payingAtStart: 2, churned: 0, churnPercent: 0 });
    expect(a.trialToPaidPercent).toBe(100);
  });
});

describe('the 5xx counter', () => {
  it('counts answers of the last hour only', () => {
    const counter = new ServerErrorCounter();
    counter.record(at('2026-11-22T05:00:30Z'));
    counter.record(at('2026-11-22T05:30:00Z'));
    counter.record(at('2026-11-22T05:59:59Z'));
    expect(counter.lastHour(at('2026-11-22T05:59:59Z'))).toBe(3);
    expect(counter.lastHour(at('2026-11-22T06:00:10Z'))).toBe(2);
    expect(counter.lastHour(at('2026-11-22T07:10:00Z'))).toBe(0);
  });
});
