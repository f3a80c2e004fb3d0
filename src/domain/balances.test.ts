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
});
