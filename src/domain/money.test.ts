import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountInWords, formatINR, increaseByPercent, paise, paiseFromRupees, parseRupees, raiseFee, roundToRupees, toRupeeString } from './money';

describe('parseRupees', () => {
  it.each([
    ['1500', 150_000],
    ['1500.5', 150_050],
    ['1500.50', 150_050],
    ['1,500.05', 150_005],
    [' 0.01 ', 1],
    ['1.005', null], // three decimals are refused, never rounded
    ['12.3.4', null],
    ['abc', null],
    ['', null],
    ['-250', -25_000],
  ] as const)('%s → %s paise', (text, expected) => {
    expect(parseRupees(text)).toBe(expected);
  });

  it('reads JSON numbers by their decimal text, not by multiplying floats', () => {
    expect(parseRupees(1.005)).toBeNull();
    expect(parseRupees(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(parseRupees(1150.1)).toBe(115_010);
    expect(parseRupees(1e21)).toBeNull();
    expect(parseRupees(Number.NaN)).toBeNull();
  });

  it('round-trips every amount through the wire format', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }), (n) => {
        expect(parseRupees(toRupeeString(paise(n)))).toBe(n);
      }),
    );
  });
});

describe('paiseFromRupees', () => {
  it('reads back what the product wrote, the sign included, and throws on anything else', () => {
    expect(paiseFromRupees('1234.50')).toBe(123450);
    expect(paiseFromRupees('-0.50')).toBe(-50);
    expect(paiseFromRupees(1500)).toBe(150000);
    expect(() => paiseFromRupees('12.345')).toThrow('not an amount: 12.345');
  });
});

describe('paise guard', () => {
  it('throws on a non-integer amount', () => {
    expect(() => paise(10.5)).toThrow(TypeError);
  });
});

describe('formatINR', () => {
  it.each([
    [0, '₹0.00'],
    [5, '₹0.05'],
    [12_345_600, '₹1,23,456.00'],
    [1_000_000_000, '₹1,00,00,000.00'],
    [-150_050, '-₹1,500.50'],
  ])('%i paise → %s', (value, text) => {
    expect(formatINR(paise(value))).toBe(text);
  });

  it('rounds half-up to the rupee without decimals', () => {
    expect(formatINR(paise(149_950), { decimals: false })).toBe('₹1,500');
    expect(formatINR(paise(149_949), { decimals: false })).toBe('₹1,499');
  });
});

describe('increaseByPercent', () => {
  it('rounds half-up to the paisa', () => {
    expect(increaseByPercent(paise(100_000), '10')).toBe(110_000);
    expect(increaseByPercent(paise(33_333), '7.5')).toBe(35_833); // 358.33 (358.329975)
    expect(increaseByPercent(paise(1), '50')).toBe(2); // 1.5 paise → 2
    expect(() => increaseByPercent(paise(100), 'ten')).toThrow(RangeError);
  });

  it('never lowers an amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 1, max: 10_000 }), (amount, hundredths) => {
        const pct = `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
        expect(increaseByPercent(paise(amount), pct)).toBeGreaterThanOrEqual(amount);
      }),
    );
  });
});

describe('amountInWords', () => {
  it.each([
    [12_345_600, 'Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six Only'],
    [150_050, 'Rupees One Thousand Five Hundred and Fifty Paise Only'],
    [0, 'Rupees Zero Only'],
    [1_000_000_000, 'Rupees One Crore Only'],
    [2_101_010_100, 'Rupees Two Crore Ten Lakh Ten Thousand One Hundred One Only'],
    [9_900, 'Rupees Ninety-Nine Only'],
  ])('%i paise', (value, words) => {
    expect(amountInWords(paise(value))).toBe(words);
  });
});

describe('annual increment rounding', () => {
  it('rounds half-up to whole rupees, fives or tens, never through a float', () => {
    expect(roundToRupees(paise(181_995), 1)).toBe(182_000);
    expect(roundToRupees(paise(135_740), 5)).toBe(135_500);
    expect(roundToRupees(paise(135_750), 5)).toBe(136_000);
    expect(roundToRupees(paise(135_740), 10)).toBe(136_000);
    expect(roundToRupees(paise(50), 1)).toBe(100);
    expect(roundToRupees(paise(49), 1)).toBe(0);
    expect(raiseFee(paise(165_450), '10', 10)).toBe(182_000);
  });
});
