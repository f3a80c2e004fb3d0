import { describe, expect, it } from 'vitest';
import { monthlyOwedAt, sessionBalance } from './balances';
import { computeSessionAccount } from './fees';
import { paise } from './money';
import { sessionMonths } from './sessions';

const months = sessionMonths('2026-04-01', '2027-03-31');
const input = {
  months,
  structure: { monthlyTuition: paise(150_000), yearly: { admission: paise(300_000), exam: paise(45_000), books: paise(0), uniform: paise(0), misc: paise(0) } },
  busFee: paise(40_000),
  feesFrom: '2026-06',
  lines: [
    { head: 'tuition' as const, period: '2026-06', amount: paise(150_000), paidOn: '2026-06-05' },
    { head: 'tuition' as const, period: '2026-07', amount: paise(100_000), paidOn: '2026-07-05' },
    { head: 'bus' as const, period: '2026-08', amount: paise(40_000), paidOn: '2026-08-05' },
    { head: 'admission' as const, period: null, amount: paise(200_000), paidOn: '2026-04-10' },
    { head: 'sports' as const, period: null, amount: paise(5_000), paidOn: '2026-04-10' },
  ],
};

describe('sessionBalance', () => {
  it('answers the till-date monthly outstanding of ruling 6 at every horizon month', () => {
    const b = sessionBalance(input);
    for (const m of months) {
      const account = computeSessionAccount({ ...input, asOfMonth: m.key });
      expect(monthlyOwedAt(b.monthlyOwed, '2026-04', m.key)).toBe(account.tillDate.monthlyOutstanding);
    }
    expect(monthlyOwedAt(b.monthlyOwed, '2026-04', '2026-03')).toBe(0);
  });

  it('keeps what each yearly head expects and received, the recorded months and the totals', () => {
    const b = sessionBalance(input);
    expect(b.startKey).toBe('2026-06');
    expect(b.expected.admission).toBe(300_000);
    expect(b.paid.admission).toBe(200_000);
    // ₹1,000 of admission and ₹450 of exam still owed
    expect(b.yearlyOwed).toBe(145_000);
    // June and July for tuition (bits 2 and 3), August for bus (bit 4)
    expect(b.tuitionMask).toBe(0b1100);
    expect(b.busMask).toBe(0b10000);
    expect(b.received).toBe(495_000);
    expect(b.extrasReceived).toBe(5_000);
  });

  it('keeps, month by month, what tuition and bus received met of their due and the concessions of recorded months', () => {
    // June paid whole, July ₹500 short (a concession), August bus only; a ₹200 tuition line for May,
    // before the student's fees began, meets no due
    const b = sessionBalance({ ...input, lines: [...input.lines, { head: 'tuition' as const, period: '2026-05', amount: paise(20_000), paidOn: '2026-05-05' }] });
    const step = (list: number[], k: number) => (list[k] ?? 0) - (k > 0 ? (list[k - 1] ?? 0) : 0);
    // months: April 0, May 1, June 2, July 3, August 4
    expect([0, 1, 2, 3, 4].map((k) => step(b.monthlyApplied, k))).toEqual([0, 0, 150_000, 100_000, 40_000]);
    expect([0, 1, 2, 3, 4].map((k) => step(b.monthlyDiscount, k))).toEqual([0, 0, 0, 50_000, 0]);
    expect(b.monthlyApplied.at(-1)).toBe(290_000);
    // what was paid naming each month, the May line too (the dashboard's collection by month)
    expect([0, 1, 2, 3, 4].map((k) => step(b.monthlyPaid, k))).toEqual([0, 20_000, 150_000, 100_000, 40_000]);
    expect(b.busPaid).toBe(40_000);
    // admission ₹2,000 of ₹3,000 received, exam nothing
    expect(b.yearlyApplied).toBe(200_000);
    // every month of the session: gross due = outstanding + received against it + concessions
    for (const [k, m] of months.entries()) {
      const gross = m.key >= '2026-06' ? 190_000 : 0;
      expect(step(b.monthlyOwed, k) + step(b.monthlyApplied, k) + step(b.monthlyDiscount, k) + step(b.monthlyGranted, k), m.key).toBe(gross);
    }
  });
});

