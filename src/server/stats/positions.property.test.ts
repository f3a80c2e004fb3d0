import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRupees } from '../../domain/money';
import { previousBalances } from '../db/schema';
import { refreshBalances } from '../balances/refresh';
import { verifySchoolBalances } from '../balances/verify';
import { verifySchoolPositions } from './student-positions';
import { seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { markSchoolChanged } from './versions';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * Ruling 6 says one function computes outstanding everywhere. Stats and reports compute it for a
 * whole school in set-based SQL (positions.ts); fee status computes it per student with the domain
 * function. For random ledgers written through the real fee endpoints (monthly and yearly saves,
 * Record Fee Payment, previous-balance payments, cancellations), they must agree to the paisa.
 * Stats read rows kept by marks (decision 0058): built before the writes, they must equal a build from scratch after.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T05:30:00.000Z') });
});
afterAll(() => ctx.close());

const MONTHS = ['April', 'May', 'June', 'July', 'August', 'September', 'October', 'November'] as const;
const amount = (max: number) => fc.option(fc.integer({ min: 1, max }), { nil: null });

const structure = fc.record({
  tuition: fc.constantFrom(0, 800, 1500, 2250.5),
  yearly: fc.constantFrom(0, 3000),
  exam: fc.constantFrom(0, 450),
  books: fc.constantFrom(0, 1999.99),
  uniform: fc.constantFrom(0, 1200),
  misc: fc.constantFrom(0, 300),
});

const student = fc.record({
  classIdx: fc.integer({ min: 0, max: 1 }),
  bus: fc.constantFrom(0, 350, 999.5),
  months: fc.uniqueArray(
    fc.record({ m: fc.integer({ min: 0, max: 7 }), tuition: amount(3000), bus: amount(1200), day: fc.integer({ min: 1, max: 28 }) }),
    { maxLength: 6, selector: (e) => e.m },
  ),
  yearly: fc.record({ admission: amount(4000), exam: amount(600), books: amount(2500), uniform: amount(1500), misc: amount(400) }),
  extra: amount(700),
  carried: fc.option(fc.record({ monthly: fc.integer({ min: 0, max: 5000 }), yearly: fc.integer({ min: 0, max: 3000 }), pay: amount(6000) }), { nil: null }),
  cancelMonthly: fc.boolean(),
  // admitted mid-year: monthly fees from this month of the session (null: from April)
  feesFrom: fc.option(fc.constantFrom('2026-06', '2026-09', '2026-11', '2027-01'), { nil: null }),
});

const ledger = fc.record({ structures: fc.tuple(structure, structure), students: fc.array(student, { minLength: 1, maxLength: 4 }) });
type Ledger = typeof ledger extends fc.Arbitrary<infer T> ? T : never;

const P = (text: string) => parseRupees(text)!;

/**
 * Ledgers that once failed, run first every time. CI's seed -1386689962 drew the first: the only
 * student's carried balance, written past the API, was all that changed after the first stats, and the
 * test did not raise the school's counter for it as the API does, so the stats answered from its cache.
 */
const PINNED: Array<[Ledger]> = [
  [
    {
      structures: [
        { tuition: 0, yearly: 0, exam: 450, books: 1999.99, uniform: 1200, misc: 300 },
        { tuition: 2250.5, yearly: 0, exam: 0, books: 0, uniform: 0, misc: 0 },
      ],
      students: [
        {
          classIdx: 1,
          bus: 0,
          months: [{ m: 1, tuition: 9, bus: null, day: 3 }, { m: 0, tuition: 1560, bus: 582, day: 5 }],
          yearly: { admission: null, exam: null, books: 251, uniform: 1314, misc: 307 },
          extra: null,
          carried: { monthly: 11, yearly: 697, pay: null },
          cancelMonthly: false,
          feesFrom: '2026-11',
        },
      ],
    },
  ],
];
const CLASSES = ['Class 1', 'Class 2'] as const;

describe('school figures and fee status agree for random ledgers', () => {
  it('stats, reports and fee status give the same paise', async () => {
    await fc.assert(
      fc.asyncProperty(ledger, async (l) => {
        const school = await signUpSchool(ctx);
        const db = ctx.database.db;
        const schoolId = school.schoolId;
        const old = await seedSession(db, { schoolId, name: '2025-2026', startDate: '2025-04-01', endDate: '2026-03-31', isActive: false });
        const session = await seedSession(db, { schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: true });
        for (const [k, s] of l.structures.entries()) await seedStructure(db, { schoolId, academicYear: '2026-2027', className: CLASSES[k]!, ...s });
        const rows = await seedStudents(db, {
          schoolId,
          sessionId: session.id,
          people: l.students.map((s, k) => ({ name: `Student ${k + 1}`, className: CLASSES[s.classIdx]!, busFee: s.bus, ...(s.feesFrom ? { feesFrom: s.feesFrom } : {}) })),
        });
        const api = school.api;
        // the whole-school rows are built now, so every write below reaches them through its marks (decision 0058)
        expect((await api.get('/api/stats/school')).json().totalStudents).toBe(rows.length);
        for (const [k, s] of l.students.entries()) {
          const studentId = rows[k]!.id;
          if (s.carried && s.carried.monthly + s.carried.yearly > 0) {
            await db.insert(previousBalances).values({
              schoolId, studentId, sessionId: old.id, academicYear: '2025-2026', className: 'Class 1',
              monthlyOutstandingPaise: s.carried.monthly * 100, yearlyOutstandingPaise: s.carried.yearly * 100, throughMonth: '2026-03', reason: 'rollover',
            });
            await refreshBalances(db, { schoolId, studentIds: [studentId] });
            // written past the API, so raised here as every write through it raises the school's counter
            // (stats/versions.ts): without it a student with nothing else written kept the cached figures
            await markSchoolChanged(db, schoolId);
          }
          // ruling 26: nothing beyond a head's due is accepted, so the random amounts are capped at it
          const st = l.structures[s.classIdx]!;
          const upTo = (value: number | null, due: number) => (value === null || due === 0 ? null : Math.min(value, due));
          const entries = s.months
            // and nothing is due for a month before the student's fees start
            .map((e) => (s.feesFrom && `2026-${String(4 + e.m).padStart(2, '0')}` < s.feesFrom ? { ...e, tuition: null, bus: null } : e))
            .map((e) => ({ ...e, tuition: upTo(e.tuition, st.tuition), bus: upTo(e.bus, s.bus) }))
            .filter((e) => e.tuition !== null || e.bus !== null)
            .map((e) => {
              const date = `2026-${String(4 + e.m).padStart(2, '0')}-${String(Math.min(e.day, e.m === 7 ? 22 : 28)).padStart(2, '0')}`;
              return { month: MONTHS[e.m], year: 2026, tuitionFee: e.tuition, tuitionDate: e.tuition ? date : null, busFee: e.bus, busDate: e.bus ? date : null };
            });
          const carriedTotal = s.carried ? s.carried.monthly + s.carried.yearly : 0;
          const previousBalancePaid = s.carried?.pay && carriedTotal > 0 ? Math.min(s.carried.pay, carriedTotal) : null;
          if (entries.length > 0 || previousBalancePaid) {
            const res = await api.post('/api/monthly-fee-entries/bulk', {
              studentId, academicYear: '2026-2027', entries, previousBalancePaid, previousBalanceDate: previousBalancePaid ? '2026-11-02' : null,
            });
            expect(res.statusCode, res.body).toBe(201);
            if (s.cancelMonthly) {
              const cancel = await api.post(`/api/receipts/${res.json().receipt.id}/cancel`, { reason: 'Test cancellation' });
              expect(cancel.statusCode, cancel.body).toBe(200);
            }
          }
          const yearly: Record<string, unknown> = { studentId, academicYear: '2026-2027' };
          for (const [head, given] of Object.entries(s.yearly)) {
            const value = upTo(given, head === 'admission' ? st.yearly : st[head as 'exam' | 'books' | 'uniform' | 'misc']);
            if (value === null) continue;
            yearly[`${head}Fee`] = value;
            yearly[`${head}Date`] = '2026-05-05';
          }
          if (Object.keys(yearly).length > 2) expect((await api.post('/api/yearly-fee-entries', yearly)).statusCode).toBe(201);
          if (s.extra) expect((await api.post('/api/fees', { studentId, fees: [{ type: 'sports', amount: s.extra }], paidOn: '2026-10-15' })).statusCode).toBe(201);
        }

        // the running balances every write kept equal what the ledger says now (decision 0041)
        expect((await verifySchoolBalances(db, schoolId)).differences).toEqual([]);

        // per student, through the ledger's own endpoints (the domain function)
        let owed = 0;
        let withDues = 0;
        let paidOctober = 0;
        let expectedNovember = 0;
        let monthlyPaid = 0;
        let busPaid = 0;
        let sessionOutstanding = 0;
        // the months each student owes with nothing recorded, as the Pending Fees report counts them
        const monthsDue = new Map<string, number>();
        for (const row of rows) {
          const out = (await api.get(`/api/students/${row.id}/outstanding-fees`)).json();
          const status = (await api.get(`/api/students/${row.id}/fee-status`)).json();
          owed += P(out.total);
          if (P(out.total) > 0) withDues += 1;
          const month = (key: string) => status.account.months.find((m: { key: string }) => m.key === key);
          if (month('2026-10').status === 'Paid') paidOctober += 1;
          expectedNovember += P(month('2026-11').tuition.expected) + P(month('2026-11').bus.expected);
          monthlyPaid += P(status.account.monthlyPaid);
          busPaid += status.account.months.reduce((s: number, m: { bus: { paid: string } }) => s + P(m.bus.paid), 0);
          sessionOutstanding += P(status.ledger.outstandingTillDate);
          type Head = { expected: string; recorded: boolean };
          const unrecorded = (h: Head) => P(h.expected) > 0 && !h.recorded;
          monthsDue.set(
            row.name,
            status.account.months.filter((m: { key: string; tuition: Head; bus: Head }) => m.key <= '2026-11' && (unrecorded(m.tuition) || unrecorded(m.bus))).length,
          );
        }

        // the whole school at once
        const stats = (await api.get('/api/stats/school')).json();
        expect(P(stats.pendingFees)).toBe(owed);
        expect(stats.pendingStudents).toBe(withDues);
        expect(stats.paidStudents).toBe(paidOctober);
        expect(P(stats.expectedMonthlyIncome)).toBe(expectedNovember);
        expect(P(stats.currentSessionBusRevenue)).toBe(busPaid);

        const session26 = (await api.get('/api/reports/financial?fromDate=2026-04-01&toDate=2027-03-31')).json();
        expect(P(session26.summary.totalMonthlyIncome)).toBe(monthlyPaid);
        const everything = (await api.get('/api/reports/financial?fromDate=2017-01-01&toDate=2026-12-31')).json();
        expect(everything.summary.totalIncome).toBe(stats.totalRevenue);

        const classWise = (await api.get('/api/reports/class-wise')).json();
        expect(P(classWise.tables[0].totals.outstanding)).toBe(sessionOutstanding);
        // issue item 10: the report reconciles on every row and total, whatever the ledger
        for (const row of [...classWise.tables[0].rows, classWise.tables[0].totals]) {
          expect(P(row.due) - P(row.concession) - P(row.received)).toBe(P(row.outstanding));
        }
        const pending = (await api.get('/api/reports/pending-fees')).json();
        expect(pending.tables[0].totals.total).toBe(stats.pendingFees);
        expect(pending.tables[0].rows).toHaveLength(withDues);
        for (const r of pending.tables[0].rows as Array<{ name: string; monthsDue: string }>) {
          expect(Number(/\((\d+)\)$/.exec(r.monthsDue)?.[1] ?? 0), `${r.name}: ${r.monthsDue}`).toBe(monthsDue.get(r.name));
        }
        // and the rows the marks kept equal a build from scratch, field by field
        expect((await verifySchoolPositions(db, schoolId, '2026-11')).differences).toEqual([]);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 12), endOnFailure: true, examples: PINNED },
    );
  }, 300_000);
});
