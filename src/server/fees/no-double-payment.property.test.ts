import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { activatePlan, seedSession, seedStructure, seedStudents } from './test-fixtures';

/**
 * Ruling 26 over random interleavings of the three save routes (monthly grid, yearly cards, Record
 * Fee Payment), run several at a time: per head and period what is received never exceeds what is
 * due, no save answers a 5xx, and every screen's figures keep adding up.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
});
afterAll(() => ctx.close());

const MONTHS = ['April', 'May', 'June', 'July', 'August', 'September', 'October', 'November'] as const;
const KEYS = ['2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11'] as const;
const toPaise = (amount: string) => {
  const [whole = '0', fraction = '00'] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};

// the full amounts collide most; partial and odd amounts find the edges
const tuition = fc.oneof(fc.constant('1000'), fc.constant('500'), fc.integer({ min: 1, max: 150_000 }).map((p) => (p / 100).toFixed(2)));
const yearlyAmount = fc.oneof(fc.constant('2000'), fc.constant('500'), fc.integer({ min: 1, max: 300_000 }).map((p) => (p / 100).toFixed(2)));
const save = fc.oneof(
  fc.record({ route: fc.constant('grid' as const), who: fc.nat(2), month: fc.nat(7), amount: tuition, bus: fc.option(fc.constantFrom('300', '150', '400')) }),
  fc.record({ route: fc.constant('yearly' as const), who: fc.nat(2), field: fc.constantFrom('admissionFee', 'examFee'), amount: yearlyAmount }),
  fc.record({
    route: fc.constant('payment' as const),
    who: fc.nat(2),
    type: fc.constantFrom('monthly', 'transport', 'admission', 'exam'),
    month: fc.option(fc.nat(7)),
    amount: fc.oneof(tuition, yearlyAmount),
  }),
);
type Save = typeof save extends fc.Arbitrary<infer T> ? T : never;

async function newSchool() {
  const school = await signUpSchool(ctx);
  const db = ctx.database.db;
  await activatePlan(db, { schoolId: school.schoolId });
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', tuition: 1000, yearly: 2000, exam: 500 });
  const students = await seedStudents(db, {
    schoolId: school.schoolId,
    sessionId: session.id,
    people: [{ name: 'A', className: 'Class 5', busFee: 300 }, { name: 'B', className: 'Class 5' }, { name: 'C', className: 'Class 5', busFee: 150 }],
  });
  return { api: school.api, ids: students.map((s) => s.id) };
}

function request(api: Awaited<ReturnType<typeof newSchool>>['api'], ids: string[], s: Save) {
  const studentId = ids[s.who % ids.length]!;
  switch (s.route) {
    case 'grid':
      return api.post('/api/monthly-fee-entries/bulk', {
        studentId,
        academicYear: '2025-2026',
        entries: [{ month: MONTHS[s.month], year: 2025, tuitionFee: s.amount, tuitionDate: '2025-11-01', busFee: s.bus, busDate: s.bus ? '2025-11-01' : null }],
      });
    case 'yearly':
      return api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', [s.field]: s.amount });
    case 'payment':
      return api.post('/api/fees', {
        studentId,
        fees: [{ type: s.type, amount: s.amount, month: s.month !== null && (s.type === 'monthly' || s.type === 'transport') ? KEYS[s.month] : null }],
      });
  }
}

describe('ruling 26 over every save route (property, real database)', () => {
  it('per head and period, received never exceeds due, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(save, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 8 }), async (batches) => {
        const { api, ids } = await newSchool();
        for (const batch of batches) {
          // the saves of a batch race each other, as two clerks at two counters would
          const answers = await Promise.all(batch.map((s) => request(api, ids, s)));
          for (const res of answers) expect([201, 400, 409], res.body).toContain(res.statusCode);
        }
        for (const id of ids) {
          const status = (await api.get(`/api/students/${id}/fee-status`)).json();
          const a = status.account;
          for (const m of a.months) {
            for (const head of ['tuition', 'bus'] as const) {
              expect(toPaise(m[head].paid), `${head} ${m.key}`).toBeLessThanOrEqual(toPaise(m[head].expected));
            }
          }
          for (const y of a.yearly.heads) expect(toPaise(y.paid), y.head).toBeLessThanOrEqual(toPaise(y.expected));
          for (const horizon of [a.tillDate, a.annual]) {
            expect(toPaise(horizon.expected) - toPaise(horizon.received) - toPaise(horizon.concessions)).toBe(toPaise(horizon.outstanding));
          }
          // with nothing beyond a due, every paisa received counts against one: nothing is lost as "excess"
          const applied = toPaise(a.annual.received);
          expect(applied).toBe(toPaise(a.totalPaid));
        }
      }),
      { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 10), endOnFailure: true },
    );
  }, 240_000);
});
