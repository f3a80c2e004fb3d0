import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatShortDateIN } from './dates';
import { groupReceiptLines, monthRangeLabel } from './receipt';
import { monthRangesText } from './reports';
import { parseRupees, toRupeeString, type Paise } from './money';

const line = (head: string, period: string | null, amount: string, academicYear = '2026-2027') => ({
  head,
  headLabel: head === 'tuition' ? 'Tuition Fee' : head === 'bus' ? 'Bus Fee' : 'Exam Fee',
  period,
  amount,
  academicYear,
});

describe('receipt lines as a parent reads them', () => {
  it('groups consecutive months of a head: "Apr–Jun 2026 Tuition Fee ₹4,500.00"', () => {
    const groups = groupReceiptLines([
      line('tuition', '2026-04', '1500.00'),
      line('bus', '2026-04', '600.00'),
      line('tuition', '2026-05', '1500.00'),
      line('bus', '2026-05', '600.00'),
      line('tuition', '2026-06', '1500.00'),
      line('exam', null, '800.00'),
    ]);
    expect(groups).toEqual([
      { label: 'Tuition Fee', period: 'Apr–Jun 2026', amount: '4500.00', lines: 3 },
      { label: 'Bus Fee', period: 'Apr–May 2026', amount: '1200.00', lines: 2 },
      { label: 'Exam Fee', period: '2026-2027', amount: '800.00', lines: 1 },
    ]);
  });

  it('a gap starts a new range, and a range across the new year names both years', () => {
    const groups = groupReceiptLines([line('tuition', '2026-04', '1.00'), line('tuition', '2026-12', '1.00'), line('tuition', '2027-01', '1.00'), line('tuition', '2026-06', '1.00')]);
    expect(groups.map((g) => g.period)).toEqual(['Apr 2026', 'Jun 2026', 'Dec 2026–Jan 2027']);
    expect(monthRangeLabel('2026-04', '2026-04')).toBe('Apr 2026');
  });

  it('writes September as every date of the app does, "Sept" (en-IN)', () => {
    expect(formatShortDateIN('2026-09-14')).toBe('14 Sept 2026');
    expect(monthRangeLabel('2026-08', '2026-09')).toBe('Aug–Sept 2026');
    expect(groupReceiptLines([line('tuition', '2026-09', '1500.00')])[0]!.period).toBe('Sept 2026');
    // the defaulters list's months due, too
    expect(monthRangesText(['2026-09', '2026-10'])).toBe('Sept–Oct 2026 (2)');
  });

  it('the groups always add up to the lines to the paisa', () => {
    const arb = fc.array(
      fc.record({
        head: fc.constantFrom('tuition', 'bus', 'exam'),
        month: fc.integer({ min: 0, max: 11 }),
        paise: fc.integer({ min: 1, max: 10_000_000 }),
      }),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(arb, (rows) => {
        const lines = rows.map((r) =>
          line(r.head, r.head === 'exam' ? null : `${2026 + Math.floor((r.month + 3) / 12)}-${String(((r.month + 3) % 12) + 1).padStart(2, '0')}`, toRupeeString(r.paise as Paise)),
        );
        const sum = (xs: Array<{ amount: string }>) => xs.reduce((s, x) => s + parseRupees(x.amount)!, 0);
        const groups = groupReceiptLines(lines);
        expect(sum(groups)).toBe(sum(lines));
        expect(groups.reduce((s, g) => s + g.lines, 0)).toBe(lines.length);
      }),
    );
  });
});
