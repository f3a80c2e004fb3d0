import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Paise } from '@/domain/money';
import { parseCount } from './count-input';
import { cashDifference, countedCash, DENOMINATIONS } from '@/domain/cash-closing';

describe('the cash count of Close the Day', () => {
  it('adds notes and coins into paise', () => {
    expect(countedCash({ '2000': 1, '500': 3, '10': 2, '1': 7 })).toBe(352_700);
    expect(countedCash({})).toBe(0);
  });

  it('shows a shortfall as negative and an excess as positive', () => {
    expect(cashDifference(countedCash({ '500': 2, '100': 4 }), 150_000 as Paise)).toBe(-10_000);
    expect(cashDifference(countedCash({ '500': 3, '100': 1 }), 150_000 as Paise)).toBe(10_000);
  });

  it('reads only whole, non-negative counts from a box', () => {
    expect(parseCount('12')).toBe(12);
    expect(parseCount(' 3 ')).toBe(3);
    for (const bad of ['', '-1', '1.5', 'abc', '1e3']) expect(parseCount(bad)).toBe(0);
  });

  it('is the sum of each denomination on its own, whatever the counts', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5000 }), { minLength: DENOMINATIONS.length, maxLength: DENOMINATIONS.length }), (ns) => {
        const counts = Object.fromEntries(DENOMINATIONS.map((d, i) => [String(d), ns[i]]));
        const parts = DENOMINATIONS.reduce((sum, d, i) => sum + countedCash({ [`${d}`]: ns[i] }), 0);
        expect(countedCash(counts)).toBe(parts);
      }),
    );
  });
});
