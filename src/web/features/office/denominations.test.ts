import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cashDifference, countedTotal, DENOMINATIONS, parseCount } from './denominations';

describe('the cash count', () => {
  it('adds notes and coins into paise', () => {
    expect(countedTotal({ 2000: 1, 500: 3, 10: 2, 1: 7 })).toBe(352_700);
    expect(countedTotal({})).toBe(0);
  });

  it('shows a shortfall as negative and an excess as positive', () => {
    expect(cashDifference(countedTotal({ 500: 2 }), 110_000 as never)).toBe(-10_000);
    expect(cashDifference(countedTotal({ 500: 3 }), 110_000 as never)).toBe(40_000);
  });

  it('reads only whole, non-negative counts', () => {
    expect(parseCount('12')).toBe(12);
    expect(parseCount(' 3 ')).toBe(3);
    for (const bad of ['', '-1', '1.5', 'abc', '1e3']) expect(parseCount(bad)).toBe(0);
  });

  it('is the sum of each denomination on its own, whatever the counts', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5000 }), { minLength: DENOMINATIONS.length, maxLength: DENOMINATIONS.length }), (ns) => {
        const counts = Object.fromEntries(DENOMINATIONS.map((d, i) => [d, ns[i]]));
        const parts = DENOMINATIONS.reduce((sum, d, i) => sum + countedTotal({ [d]: ns[i] }), 0);
        expect(countedTotal(counts)).toBe(parts);
      }),
    );
  });
});
