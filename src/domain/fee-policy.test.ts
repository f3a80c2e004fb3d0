import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concessionShares, type AppliedConcession } from './concessions';
import { computeSessionAccount, type FeeStructureAmounts } from './fees';
import { computeLateFine, DEFAULT_LATE_FINE_RULE, fineInstalments, type LateFineRule } from './fines';
import { dueTiming, instalmentPositions, instalmentSchedule, planProblem, planSchedule, type InstalmentPlan } from './instalments';
import { paise } from './money';
import { sessionMonths } from './sessions';
import { DEFAULT_TALLY_MAPPING, expenseVoucher, journalRows, receiptVoucher, tallyAmount, voucherBalances } from './tally';

const months = sessionMonths('2025-04-01', '2026-03-31');
const structure: FeeStructureAmounts = { monthlyTuition: paise(150_000), yearly: { admission: paise(500_000), exam: paise(80_000), books: paise(0), uniform: paise(0), misc: paise(0) } };
const sibling: AppliedConcession = { id: 'c1', name: 'Sibling', kind: 'percent', value: 1000, heads: ['tuition', 'exam'], fromMonth: '2025-07', toMonth: null, excluded: [] };

describe('concessions', () => {
  it('reduce a head from the start month, capped at its due when several add up', () => {
    expect(concessionShares([sibling], 'tuition', '2025-06', paise(150_000))).toEqual([]);
    expect(concessionShares([sibling], 'tuition', '2025-07', paise(150_000))).toEqual([{ concessionId: 'c1', name: 'Sibling', amount: 15_000 }]);
    const rte: AppliedConcession = { ...sibling, id: 'c2', name: 'RTE', value: 10_000 };
    expect(concessionShares([sibling, rte], 'tuition', '2025-08', paise(150_000)).reduce((s, x) => s + x.amount, 0)).toBe(150_000);
    expect(concessionShares([{ ...sibling, excluded: ['tuition:2025-07'] }], 'tuition', '2025-07', paise(150_000))).toEqual([]);
  });

  it('keep ruling 6 for any concessions and payments', () => {
    const arb = fc.record({
      kind: fc.constantFrom('percent' as const, 'amount' as const),
      value: fc.integer({ min: 1, max: 10_000 }),
      from: fc.integer({ min: 0, max: 11 }),
      paid: fc.array(fc.record({ m: fc.integer({ min: 0, max: 11 }), amount: fc.integer({ min: 1, max: 200_000 }) }), { maxLength: 6 }),
      asOf: fc.integer({ min: 0, max: 11 }),
    });
    fc.assert(
      fc.property(arb, (a) => {
        const c: AppliedConcession = { ...sibling, kind: a.kind, value: a.value, fromMonth: months[a.from]!.key, heads: ['tuition', 'bus', 'admission'] };
        const account = computeSessionAccount({
          months, asOfMonth: months[a.asOf]!.key, structure, busFee: paise(50_000), concessions: [c],
          lines: a.paid.map((x) => ({ head: 'tuition' as const, period: months[x.m]!.key, amount: paise(x.amount), paidOn: '2025-06-01' })),
        });
        for (const t of [account.tillDate, account.annual]) {
          expect(t.expected - t.applied - t.concessions).toBe(t.outstanding);
          expect(t.outstanding).toBeGreaterThanOrEqual(0);
          expect(t.granted).toBeLessThanOrEqual(t.expected);
        }
      }),
    );
  });
});

describe('late fines', () => {
  const rule: LateFineRule = { ...DEFAULT_LATE_FINE_RULE, enabled: true, dueDay: 10, graceDays: 5, amount: paise(1_000), capPerMonth: paise(10_000) };
  const inst = (key: string, dueDate: string, settledOn: string | null = null) => ({ key, label: key, dueDate, unpaid: paise(settledOn ? 0 : 150_000), settledOn });

  it('runs from the due date once past grace, keeps what a late payment had reached, and caps', () => {
    const r = computeLateFine({ rule, asOf: '2025-05-22', instalments: [inst('Apr', '2025-04-10', '2025-04-15'), inst('May', '2025-05-10')] });
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]!.explanation).toBe('May: 12 days × ₹10.00 = ₹120.00, capped at ₹100.00');
    const late = computeLateFine({ rule, asOf: '2025-06-30', instalments: [inst('Apr', '2025-04-10', '2025-04-18')] });
    expect(late.due).toBe(8_000);
  });

  it('supports flat and slab modes, the session cap and waivers', () => {
    const flat = computeLateFine({ rule: { ...rule, mode: 'flat', amount: paise(5_000) }, asOf: '2025-06-30', instalments: [inst('Apr', '2025-04-10'), inst('May', '2025-05-10')] });
    expect(flat.accrued).toBe(10_000);
    const slab = computeLateFine({
      rule: { ...rule, mode: 'slab', capPerMonth: null, capPerSession: paise(12_000), slabs: [{ afterDays: 10, amount: paise(5_000) }, { afterDays: 30, amount: paise(10_000) }] },
      asOf: '2025-05-22', instalments: [inst('Apr', '2025-04-10'), inst('May', '2025-05-10')], waivedKeys: new Set(['May']),
    });
    expect(slab.lines.map((l) => [l.instalment, l.amount, l.waived])).toEqual([['Apr', 10_000, false], ['May', 2_000, true]]);
    expect(slab.due).toBe(10_000);
  });
});

describe('instalment plans', () => {
  it('group months by quarter, due on the first month, yearly heads in the first instalment', () => {
    const plan: InstalmentPlan = { kind: 'quarterly', dueDay: 10, custom: [] };
    const s = instalmentSchedule(structure, plan, { months, busFee: paise(0) });
    expect(s.map((i) => [i.key, i.dueDate, i.total])).toEqual([
      ['Q1', '2025-04-10', 3 * 150_000 + 580_000],
      ['Q2', '2025-07-10', 450_000],
      ['Q3', '2025-10-10', 450_000],
      ['Q4', '2026-01-10', 450_000],
    ]);
    const account = computeSessionAccount({ months, asOfMonth: '2025-04', structure, busFee: paise(0), lines: [], timing: dueTiming(s, plan) });
    expect(account.tillDate.outstanding).toBe(3 * 150_000 + 580_000);
  });

  it('split yearly heads in custom parts, the last taking the remainder', () => {
    const plan: InstalmentPlan = {
      kind: 'custom', dueDay: 10,
      custom: [
        { label: 'Term 1', dueDate: '2025-04-15', months: months.slice(0, 6).map((m) => m.key), yearlyShare: 3_333 },
        { label: 'Term 2', dueDate: '2025-10-15', months: months.slice(6).map((m) => m.key), yearlyShare: 6_667 },
      ],
    };
    const s = instalmentSchedule(structure, plan, { months, busFee: paise(0) });
    expect(s[0]!.yearly.admission + s[1]!.yearly.admission).toBe(500_000);
    const account = computeSessionAccount({ months, asOfMonth: '2025-05', structure, busFee: paise(0), lines: [], timing: dueTiming(s, plan) });
    expect(account.tillDate.yearlyOutstanding).toBe(Math.floor(500_000 * 0.3333) + Math.floor(80_000 * 0.3333));
  });

  const terms: InstalmentPlan = {
    kind: 'custom', dueDay: 10,
    custom: [
      { label: 'Term 1', dueDate: '2025-04-15', months: months.slice(0, 6).map((m) => m.key), yearlyShare: 6_000 },
      { label: 'Term 2', dueDate: '2025-10-15', months: months.slice(6).map((m) => m.key), yearlyShare: 4_000 },
    ],
  };

  it('count a yearly payment against the earliest part first; the parts add up to the account', () => {
    const s = instalmentSchedule(structure, terms, { months, busFee: paise(0) });
    // ₹4,000 of the ₹5,000 admission fee paid: Term 1's ₹3,000 part is settled, ₹1,000 goes to Term 2's ₹2,000
    const lines = [{ head: 'admission' as const, period: null, amount: paise(400_000), paidOn: '2025-04-20' }];
    const account = computeSessionAccount({ months, asOfMonth: '2025-05', structure, busFee: paise(0), lines, timing: dueTiming(s, terms) });
    const [t1, t2] = instalmentPositions(s, account);
    expect([t1!.paid, t1!.outstanding]).toEqual([300_000, 6 * 150_000 + 48_000]);
    expect([t2!.paid, t2!.outstanding]).toEqual([100_000, 6 * 150_000 + 100_000 + 32_000]);
    expect(t1!.outstanding + t2!.outstanding).toBe(account.annual.outstanding);
    expect(account.tillDate.outstanding).toBe(t1!.outstanding);
  });

  it('fine per instalment from its due date under a plan, per month without one', () => {
    const rule: LateFineRule = { ...DEFAULT_LATE_FINE_RULE, enabled: true, dueDay: 10, heads: ['tuition', 'admission'] };
    const s = planSchedule(structure, terms, { months, busFee: paise(0) });
    const account = computeSessionAccount({ months, asOfMonth: '2025-05', structure, busFee: paise(0), lines: [], timing: dueTiming(s!, terms) });
    expect(fineInstalments(account, rule, s).map((i) => [i.key, i.dueDate, i.unpaid])).toEqual([
      ['I1', '2025-04-15', 6 * 150_000 + 300_000],
      ['I2', '2025-10-15', 6 * 150_000 + 200_000],
    ]);
    // the monthly plan has no schedule: the fine is what it always was
    expect(planSchedule(structure, { kind: 'monthly', dueDay: 10, custom: [] }, { months, busFee: paise(0) })).toBeNull();
    const monthly = computeSessionAccount({ months, asOfMonth: '2025-05', structure, busFee: paise(0), lines: [] });
    expect(fineInstalments(monthly, rule, null)).toEqual(fineInstalments(monthly, rule));
    expect(fineInstalments(monthly, rule)[0]).toMatchObject({ key: '2025-04', dueDate: '2025-04-10' });
  });

  it('refuse custom instalments that collect the months out of order', () => {
    const swapped: InstalmentPlan = { ...terms, custom: [{ ...terms.custom[0]!, dueDate: '2025-11-01' }, terms.custom[1]!] };
    expect(planProblem(swapped, months)).toBe('October 2025 would fall due before September 2025: instalments collect the months in order');
    expect(planProblem(terms, months)).toBeNull();
  });
});

describe('Tally vouchers', () => {
  it('balance, with debits negative, and reverse a cancellation', () => {
    const r = { receiptNumber: 'FEE/2025-26/000001', date: '2025-04-10', mode: 'cash' as const, studentName: 'Ishaan', className: 'Class 5', lines: [{ head: 'tuition' as const, amount: paise(150_000) }, { head: 'fine' as const, amount: paise(5_000) }] };
    const v = receiptVoucher(r, DEFAULT_TALLY_MAPPING);
    expect(v.entries).toEqual([{ ledger: 'Cash', amount: -155_000 }, { ledger: 'Tuition Fee', amount: 150_000 }, { ledger: 'Late Fine', amount: 5_000 }]);
    expect(voucherBalances(v)).toBe(true);
    const c = receiptVoucher({ ...r, cancelled: { reason: 'Cheque bounced' } }, DEFAULT_TALLY_MAPPING);
    expect(c).toMatchObject({ type: 'Payment', number: 'FEE/2025-26/000001/C' });
    expect(c.entries[0]).toEqual({ ledger: 'Cash', amount: 155_000 });
    const e = expenseVoucher({ id: 'x', date: '2025-04-11', category: 'Rent', description: 'April', amount: paise(2_500_000) }, DEFAULT_TALLY_MAPPING, 1);
    expect(journalRows([e])).toEqual([
      { date: '2025-04-11', voucherNumber: 'EXP/000001', account: 'Rent', debit: 2_500_000, credit: 0, narration: 'Rent: April' },
      { date: '2025-04-11', voucherNumber: 'EXP/000001', account: 'Cash', debit: 0, credit: 2_500_000, narration: 'Rent: April' },
    ]);
    expect(tallyAmount(-155_005)).toBe('-1550.05');
  });
});
