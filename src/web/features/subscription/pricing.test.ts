import { describe, expect, it } from 'vitest';
import type { Plan } from '@/web/lib/plans-api';
import { planPrice } from './pricing';

const standard: Plan = {
  id: 'standard',
  name: 'Standard',
  monthlyPrice: '500.00',
  yearlyPrice: '6000.00',
  studentLimit: 500,
  features: [],
  recommended: true,
};

describe('planPrice', () => {
  it('charges half the yearly price plus 18% GST on a first subscription, with the full price struck out', () => {
    const { amount, breakdown } = planPrice(standard, 'yearly', true);
    expect(amount).toBe(600_000);
    expect(breakdown).toEqual({ base: 600_000, discount: 300_000, taxable: 300_000, gst: 54_000, total: 354_000, undiscountedTotal: 708_000 });
  });

  it('charges the monthly price plus GST on a renewal', () => {
    const { amount, breakdown } = planPrice(standard, 'monthly', false);
    expect(amount).toBe(50_000);
    expect(breakdown.discount).toBe(0);
    expect(breakdown.gst).toBe(9_000);
    expect(breakdown.total).toBe(59_000);
  });

  it('keeps paise exact for odd prices', () => {
    const { breakdown } = planPrice({ ...standard, monthlyPrice: '999.99' }, 'monthly', true);
    // the discount is rounded half-up (49,999.5 → 50,000), so 49,999 paise are taxed; GST 8,999.82 → 9,000
    expect(breakdown.discount).toBe(50_000);
    expect(breakdown.taxable).toBe(49_999);
    expect(breakdown.gst).toBe(9_000);
    expect(breakdown.total).toBe(58_999);
  });

  it('refuses a price that is not an amount', () => {
    expect(() => planPrice({ ...standard, yearlyPrice: 'abc' }, 'yearly', true)).toThrow();
  });
});
