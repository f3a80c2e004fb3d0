import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppliedConcession } from './concessions';
import { computeSessionAccount, grantsByConcession, type FeeStructureAmounts } from './fees';
import { dueTiming, instalmentSchedule, type InstalmentPlan } from './instalments';
import { paise } from './money';
import { sessionMonths } from './sessions';

/**
 * The concession register splits a student's `granted` per concession with `grantsByConcession`:
 * whatever the concessions, the horizon and the plan, the parts add up to fee status's totals to
 * the paisa.
 */

const months = sessionMonths('2025-04-01', '2026-03-31');
const structure: FeeStructureAmounts = { monthlyTuition: paise(150_033), yearly: { admission: paise(500_001), exam: paise(80_007), books: paise(0), uniform: paise(0), misc: paise(0) } };
const custom: InstalmentPlan = {
  kind: 'custom', dueDay: 10,
  custom: [
    { label: 'Term 1', dueDate: '2025-04-15', months: months.slice(0, 6).map((m) => m.key), yearlyShare: 3_333 },
    { label: 'Term 2', dueDate: '2025-10-15', months: months.slice(6).map((m) => m.key), yearlyShare: 6_667 },
  ],
};
const sum = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0);

describe('grants per concession', () => {
  it('add up to the till-date and annual granted of the account, with or without a plan', () => {
    const concession = fc.record({
      kind: fc.constantFrom('percent' as const, 'amount' as const),
      value: fc.integer({ min: 1, max: 10_000 }),
      from: fc.integer({ min: 0, max: 11 }),
      heads: fc.subarray(['tuition', 'bus', 'admission', 'exam'] as const, { minLength: 1 }),
    });
    fc.assert(
      fc.property(fc.array(concession, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 11 }), fc.boolean(), (list, asOf, planned) => {
        const concessions: AppliedConcession[] = list.map((c, i) => ({ id: `c${i}`, name: `C${i}`, kind: c.kind, value: c.value, heads: c.heads, fromMonth: months[c.from]!.key, toMonth: null, excluded: [] }));
        const timing = planned ? dueTiming(instalmentSchedule(structure, custom, { months, busFee: paise(60_011) }), custom) : null;
        const account = computeSessionAccount({ months, asOfMonth: months[asOf]!.key, structure, busFee: paise(60_011), lines: [], concessions, timing });
        expect(sum(grantsByConcession(account, 'tillDate'))).toBe(account.tillDate.granted);
        expect(sum(grantsByConcession(account, 'annual'))).toBe(account.annual.granted);
        expect(sum(grantsByConcession(account))).toBe(account.annual.granted);
      }),
    );
  });

  it('count a concession till date only in the months due so far', () => {
    const sibling: AppliedConcession = { id: 's', name: 'Sibling', kind: 'percent', value: 1000, heads: ['tuition', 'exam'], fromMonth: '2025-07', toMonth: null, excluded: [] };
    const account = computeSessionAccount({ months, asOfMonth: '2025-11', structure: { ...structure, monthlyTuition: paise(150_000), yearly: { ...structure.yearly, exam: paise(80_000) } }, busFee: paise(0), lines: [], concessions: [sibling] });
    // July–November 5 × ₹150 plus ₹80 off the exam fee; July–March 9 × ₹150 plus ₹80
    expect(grantsByConcession(account, 'tillDate').get('s')).toBe(5 * 15_000 + 8_000);
    expect(grantsByConcession(account, 'annual').get('s')).toBe(9 * 15_000 + 8_000);
  });
});
