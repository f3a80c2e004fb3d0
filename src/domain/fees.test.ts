import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateCarriedPayment,
  allocateToMonths,
  carriedBalancePositions,
  computeSessionAccount,
  findOverpayment,
  headDue,
  overpaymentMessage,
  splitAgainstDues,
  type AccountLine,
  type FeeClaim,
  type FeeStructureAmounts,
} from './fees';
import { FEE_HEADS, isBalanceHead, type FeeHead } from './ledger';
import { paise } from './money';
import { sessionMonths } from './sessions';

const months = sessionMonths('2025-04-01', '2026-03-31');
const structure: FeeStructureAmounts = {
  monthlyTuition: paise(150_000),
  yearly: { admission: paise(500_000), exam: paise(80_000), books: paise(250_000), uniform: paise(180_000), misc: paise(40_000) },
};
const line = (head: FeeHead, period: string | null, rupees: number, paidOn = '2025-06-10'): AccountLine => ({ head, period, amount: paise(rupees * 100), paidOn });

describe('computeSessionAccount (ruling 6)', () => {
  it('expects tuition × months and bus × months, yearly heads once, and counts till date up to the current month', () => {
    const account = computeSessionAccount({ months, asOfMonth: '2025-11', structure, busFee: paise(60_000), lines: [] });
    expect(account.totalMonths).toBe(12);
    // April … November: 8 months of ₹1,500 + ₹600, and the yearly heads ₹10,500 in full
    expect(account.tillDate.monthlyExpected).toBe(8 * 210_000);
    expect(account.tillDate.yearlyExpected).toBe(1_050_000);
    expect(account.tillDate.outstanding).toBe(8 * 210_000 + 1_050_000);
    expect(account.annual.outstanding).toBe(12 * 210_000 + 1_050_000);
    expect(account.months.filter((m) => m.status === 'Pending')).toHaveLength(8);
    expect(account.months.filter((m) => m.status === 'Not Recorded')).toHaveLength(4);
  });

  it('settles a recorded month: the shortfall is the discount of operations §9', () => {
    const account = computeSessionAccount({
      months,
      asOfMonth: '2025-11',
      structure,
      busFee: paise(60_000),
      lines: [line('tuition', '2025-04', 1200), line('bus', '2025-04', 600), line('tuition', '2025-05', 1500)],
    });
    const [april, may] = account.months;
    expect(april!.status).toBe('Paid');
    expect(april!.discount).toBe(30_000);
    expect(april!.outstanding).toBe(0);
    // May: tuition in full, bus not recorded, still owed
    expect(may!.status).toBe('Partial');
    expect(may!.outstanding).toBe(60_000);
    expect(account.totalDiscount).toBe(30_000);
    expect(account.monthsPaid).toBe(1);
    expect(account.averageMonthly).toBe(165_000);
  });

  it('keeps overpayment as excess, never as a negative balance', () => {
    const account = computeSessionAccount({ months, asOfMonth: '2025-11', structure, busFee: paise(0), lines: [line('exam', null, 1000)] });
    const exam = account.yearly.find((y) => y.head === 'exam')!;
    expect(exam.applied).toBe(80_000);
    expect(exam.excess).toBe(20_000);
    expect(exam.outstanding).toBe(0);
  });

  it('expects nothing before the session starts, and nothing at all without a structure', () => {
    const before = computeSessionAccount({ months, asOfMonth: '2025-03', structure, busFee: paise(60_000), lines: [] });
    expect(before.tillDate.outstanding).toBe(0);
    const none = computeSessionAccount({ months, asOfMonth: '2025-11', structure: null, busFee: paise(0), lines: [line('tuition', '2025-04', 500)] });
    expect(none.annual.outstanding).toBe(0);
    expect(none.totalPaid).toBe(50_000);
    expect(none.yearlyStatus).toBe('pending');
  });

  it('spreads a payment with no month over the months still short, oldest first (Record Fee Payment)', () => {
    const account = computeSessionAccount({ months, asOfMonth: '2025-11', structure, busFee: paise(0), lines: [line('tuition', '2025-04', 1500), line('tuition', '2025-05', 1000)] });
    expect(allocateToMonths(account, 'tuition', paise(200_000))).toEqual([
      { head: 'tuition', period: '2025-05', amount: 50_000 },
      { head: 'tuition', period: '2025-06', amount: 150_000 },
    ]);
    // ₹18,000 due over the session, ₹2,500 received: ₹15,500 left, not a paisa more
    expect(allocateToMonths(account, 'tuition', paise(1_550_000))).toHaveLength(11);
    expect(allocateToMonths(account, 'tuition', paise(1_550_001))).toBeNull();
    // no bus fee: nothing is due, nothing can be placed
    expect(allocateToMonths(account, 'bus', paise(1))).toBeNull();
  });

  const arbLine = fc.record({
    // balance heads (carried, opening) are paid against their own balances, never a session's account
    head: fc.constantFrom(...FEE_HEADS.filter((h) => !isBalanceHead(h))),
    month: fc.integer({ min: -1, max: 13 }),
    amount: fc.integer({ min: 1, max: 5_000_000 }),
  });

  it('always balances: expected − received − concessions = outstanding, and every paisa paid is accounted for', () => {
    fc.assert(
      fc.property(
        fc.array(arbLine, { maxLength: 40 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.boolean(),
        (raw, asOf, bus, withStructure) => {
          const lines: AccountLine[] = raw.map((r) => ({
            head: r.head,
            // months outside the session (index −1, 12, 13) must be kept as unplaced, not lost
            period: r.head === 'tuition' || r.head === 'bus' ? (months[r.month]?.key ?? (r.month < 0 ? '2025-03' : '2026-05')) : null,
            amount: paise(r.amount),
            paidOn: '2025-06-01',
          }));
          const asOfMonth = asOf === 0 ? '2025-03' : months[Math.min(asOf, 12) - 1]!.key;
          const a = computeSessionAccount({ months, asOfMonth, structure: withStructure ? structure : null, busFee: paise(bus), lines });
          for (const t of [a.tillDate, a.annual]) {
            expect(t.expected - t.applied - t.concessions).toBe(t.outstanding);
            expect(t.monthlyOutstanding + t.yearlyOutstanding).toBe(t.outstanding);
            expect(t.outstanding).toBeGreaterThanOrEqual(0);
          }
          expect(a.annual.outstanding).toBeGreaterThanOrEqual(a.tillDate.outstanding);
          const sum = lines.reduce((s, l) => s + l.amount, 0);
          expect(a.totalPaid).toBe(sum);
          expect(a.monthlyPaid + a.yearlyPaid + a.extrasPaid + a.finePaid + a.unplacedPaid).toBe(sum);
          for (const m of a.months) {
            for (const h of [m.tuition, m.bus]) expect(h.applied + h.excess).toBe(h.paid);
            if (m.status === 'Paid') expect(m.outstanding).toBe(0);
            if (m.status === 'Pending') expect(m.due && !m.tuition.recorded && !m.bus.recorded).toBe(true);
          }
          expect(a.monthsPaid + a.monthsPending).toBe(12);
          if (asOfMonth >= '2026-03') expect(a.tillDate).toEqual(a.annual);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('carried balances', () => {
  it('pays the monthly part first and never goes below zero', () => {
    const [row] = carriedBalancePositions([{ sessionId: 's1', academicYear: '2024-2025', monthly: paise(5_000), yearly: paise(3_000) }], new Map([['s1', 6_000]]));
    expect(row).toMatchObject({ recorded: 8_000, paid: 6_000, monthlyRemaining: 0, yearlyRemaining: 2_000, remaining: 2_000 });
  });

  it('splits a payment over open balances oldest first, and refuses more than is owed', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 600_000 }), (owed, amount) => {
        const open = owed.map((remaining, i) => ({ sessionId: `s${i}`, remaining: paise(remaining) }));
        const total = owed.reduce((s, o) => s + o, 0);
        const split = allocateCarriedPayment(open, paise(amount));
        if (amount > total) {
          expect(split).toBeNull();
          return;
        }
        expect(split!.reduce((s, x) => s + x.amount, 0)).toBe(amount);
        for (const part of split!) expect(part.amount).toBeLessThanOrEqual(open.find((o) => o.sessionId === part.sessionId)!.remaining);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a fee cannot be paid twice (ruling 26)', () => {
  const base = computeSessionAccount({ months, asOfMonth: '2025-11', structure, busFee: paise(60_000), lines: [line('tuition', '2025-04', 1500), line('books', null, 1000)] });

  it('knows what each head and period still has due', () => {
    expect(headDue(base, 'tuition', '2025-04')).toEqual({ head: 'tuition', period: '2025-04', due: 150_000, received: 150_000, remaining: 0 });
    expect(headDue(base, 'books', null)).toEqual({ head: 'books', period: null, due: 250_000, received: 100_000, remaining: 150_000 });
    // a month outside the session has nothing due
    expect(headDue(base, 'bus', '2026-04').due).toBe(0);
  });

  it('names the head and month, or the session of a yearly head, in its refusal', () => {
    const paid = findOverpayment(base, [{ head: 'tuition', period: '2025-04', amount: paise(150_000) }])!;
    expect(overpaymentMessage(paid, '2025-2026')).toBe('Tuition Fee for April 2025 is already paid: ₹1,500.00 received of ₹1,500.00 due. A fee cannot be paid twice.');
    // two lines for one head share its due: the message names all that was offered
    const books = findOverpayment(base, [{ head: 'books', period: null, amount: paise(100_000) }, { head: 'books', period: null, amount: paise(100_000) }])!;
    expect(overpaymentMessage(books, '2025-2026')).toBe('Books Fee for 2025-2026: only ₹1,500.00 is still due (₹1,000.00 received of ₹2,500.00); ₹2,000.00 is more than that.');
    expect(findOverpayment(base, [{ head: 'laboratory', period: null, amount: paise(9_999_999) }])).toBeNull();
  });

  const claim: fc.Arbitrary<FeeClaim> = fc.record({
    head: fc.constantFrom('tuition' as const, 'bus' as const, 'admission' as const, 'books' as const, 'exam' as const, 'sports' as const),
    month: fc.integer({ min: 0, max: 12 }),
    amount: fc.integer({ min: 1, max: 600_000 }),
  }).map(({ head, month, amount }) => ({ head, period: head === 'tuition' || head === 'bus' ? (months[month]?.key ?? '2026-04') : null, amount: paise(amount) }));

  it('never lets a head and period receive more than is due, and loses no paisa in the split', () => {
    fc.assert(
      fc.property(fc.array(claim, { maxLength: 30 }), fc.array(claim, { maxLength: 30 }), (before, offered) => {
        // the ledger before: whatever fitted of earlier payments
        const start = computeSessionAccount({ months, asOfMonth: '2025-11', structure, busFee: paise(60_000), lines: [] });
        const paidBefore = splitAgainstDues(start, before).within.map((c) => ({ ...c, paidOn: '2025-06-01' }));
        const account = computeSessionAccount({ months, asOfMonth: '2025-11', structure, busFee: paise(60_000), lines: paidBefore });
        const { within, excess } = splitAgainstDues(account, offered);
        const total = (list: FeeClaim[]) => list.reduce((s, c) => s + c.amount, 0);
        expect(total(within) + total(excess)).toBe(total(offered));
        const after = computeSessionAccount({ months, asOfMonth: '2025-11', structure, busFee: paise(60_000), lines: [...paidBefore, ...within.map((c) => ({ ...c, paidOn: '2025-07-01' }))] });
        for (const m of after.months) for (const h of [m.tuition, m.bus]) expect(h.paid).toBeLessThanOrEqual(h.expected);
        for (const y of after.yearly) expect(y.paid).toBeLessThanOrEqual(y.expected);
        expect(findOverpayment(account, within)).toBeNull();
        expect(findOverpayment(account, offered) === null).toBe(excess.length === 0);
      }),
    );
  });
});
