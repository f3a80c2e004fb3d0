import { and, count, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptLines, receipts } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { activatePlan, seedSession, seedStructure, seedStudent, seedStudents } from './test-fixtures';

/**
 * The money invariants of issue 4, on the real database: for any sequence of receipts,
 * cancellations, promotions, rollovers and discharges,
 * - every paisa of the live receipt lines is accounted for by fee status (per session) and by the
 *   previous balances (what was collected against them);
 * - outstanding-fees, previous balances and passout balances agree with each other and with the
 *   closed sessions' own accounts;
 * - receipt numbers never repeat or skip;
 * - a retried save with the same clientId changes nothing.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
});
afterAll(() => ctx.close());

type Api = ReturnType<typeof client>;
const MONTHS: Array<[string, number]> = [
  ['April', 2025], ['May', 2025], ['June', 2025], ['July', 2025], ['August', 2025], ['September', 2025], ['October', 2025], ['November', 2025],
];
const paise = (amount: string) => {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = '00'] = amount.replace('-', '').split('.');
  return (negative ? -1 : 1) * (Number(whole) * 100 + Number(fraction));
};

const amount = fc.oneof(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 300_000 }).map((p) => (p / 100).toFixed(2)));
const op = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('monthly' as const), who: fc.nat(9), months: fc.subarray([0, 1, 2, 3, 4, 5, 6, 7], { minLength: 1, maxLength: 3 }), tuition: amount, bus: fc.option(amount), key: fc.option(fc.constantFrom('k1', 'k2', 'k3')) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('yearly' as const), who: fc.nat(9), head: fc.constantFrom('admissionFee', 'examFee', 'booksFee'), value: amount }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('payment' as const), who: fc.nat(9), type: fc.constantFrom('monthly', 'exam', 'laboratory', 'transport'), value: amount }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('carried' as const), who: fc.nat(9), value: amount }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), which: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('retry' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rollover' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('join' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('promote' as const), who: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('discharge' as const), who: fc.nat(9) }) },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

interface World {
  schoolId: string;
  api: Api;
  students: Array<{ id: string; name: string }>;
  lastSave: { url: string; body: unknown } | null;
  rolledOver: boolean;
  joined: number;
}

async function newSchool(): Promise<World> {
  const school = await signUpSchool(ctx);
  const db = ctx.database.db;
  await activatePlan(db, { schoolId: school.schoolId });
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', tuition: 1000, yearly: 2000, exam: 500 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 6', academicYear: '2026-2027', tuition: 1200, exam: 600 });
  const rows = await seedStudents(db, {
    schoolId: school.schoolId,
    sessionId: session.id,
    people: [
      { name: 'A', className: 'Class 5', busFee: 300 },
      { name: 'B', className: 'Class 5' },
      { name: 'C', className: 'Class 5', section: 'B', busFee: 450.5 },
    ],
  });
  return { schoolId: school.schoolId, api: school.api, students: rows.map((r) => ({ id: r.id, name: r.name })), lastSave: null, rolledOver: false, joined: 0 };
}

const lineCount = async (schoolId: string) => {
  const [r] = await ctx.database.db.select({ n: count() }).from(receiptLines).where(eq(receiptLines.schoolId, schoolId));
  return Number(r!.n);
};

async function apply(w: World, o: Op): Promise<void> {
  const pick = (i: number) => w.students[i % w.students.length]!;
  const save = async (url: string, body: unknown) => {
    const res = await w.api.post(url, body);
    expect([200, 201, 400, 409], `${url} ${res.body}`).toContain(res.statusCode);
    // only saves that carry an idempotency key promise to be applied once
    if (res.statusCode === 201 && (body as { clientId?: string | null }).clientId) w.lastSave = { url, body };
  };
  switch (o.kind) {
    case 'monthly': {
      const s = pick(o.who);
      await save('/api/monthly-fee-entries/bulk', {
        studentId: s.id,
        academicYear: '2025-2026',
        clientId: o.key ? `${o.key}-${s.id}` : null,
        entries: o.months.map((m) => ({ month: MONTHS[m]![0], year: MONTHS[m]![1], tuitionFee: o.tuition, tuitionDate: '2025-10-01', busFee: o.bus, busDate: o.bus ? '2025-10-02' : null })),
      });
      return;
    }
    case 'yearly':
      await save('/api/yearly-fee-entries', { studentId: pick(o.who).id, academicYear: '2025-2026', [o.head]: o.value, clientId: `yearly-${Math.random()}` });
      return;
    case 'payment':
      await save('/api/fees', { studentId: pick(o.who).id, fees: [{ type: o.type, amount: o.value }], clientId: `pay-${Math.random()}` });
      return;
    case 'carried':
      await save('/api/fees', { studentId: pick(o.who).id, fees: [{ type: 'previous_balance', amount: o.value }] });
      return;
    case 'cancel': {
      const list = (await w.api.get('/api/fees?limit=500')).json() as Array<{ id: string }>;
      if (list.length === 0) return;
      const res = await w.api.post(`/api/receipts/${list[o.which % list.length]!.id}/cancel`, { reason: 'property test' });
      expect([200, 409]).toContain(res.statusCode);
      return;
    }
    case 'retry': {
      if (!w.lastSave) return;
      const before = await lineCount(w.schoolId);
      const res = await w.api.post(w.lastSave.url, w.lastSave.body);
      expect(res.statusCode).toBe(200);
      expect(res.json().replayed).toBe(true);
      expect(await lineCount(w.schoolId)).toBe(before);
      return;
    }
    case 'rollover': {
      if (w.rolledOver) return;
      const created = await w.api.post('/api/academic-sessions', { sessionName: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: false });
      expect(created.statusCode).toBe(201);
      // November: before the running session's last month, so the start is an early one
      const res = await w.api.post(`/api/academic-sessions/${created.json().id}/start`, { early: true });
      expect(res.statusCode, res.body).toBe(200);
      w.rolledOver = true;
      return;
    }
    case 'join': {
      const db = ctx.database.db;
      const s1 = await seedSession(db, { schoolId: w.schoolId });
      w.joined += 1;
      const row = await seedStudent(db, { schoolId: w.schoolId, sessionId: s1.id, name: `J${w.joined}`, className: 'Class 5', section: 'C' });
      w.students.push({ id: row.id, name: row.name });
      return;
    }
    case 'promote': {
      if (!w.rolledOver) return;
      const res = await w.api.post(`/api/students/${pick(o.who).id}/promote`, { toClass: 'Class 6', toSession: '2026-2027', fromSession: '2025-2026' });
      expect([200, 409]).toContain(res.statusCode);
      return;
    }
    case 'discharge': {
      const res = await w.api.post(`/api/students/${pick(o.who).id}/discharge`, { reason: 'property test' });
      expect([200, 409]).toContain(res.statusCode);
      return;
    }
  }
}

async function checkInvariants(w: World): Promise<void> {
  const db = ctx.database.db;
  const liveByStudent = new Map<string, number>();
  const rows = await db
    .select({ studentId: receiptLines.studentId, total: sql<string>`sum(${receiptLines.amountPaise})::text` })
    .from(receiptLines)
    .innerJoin(receipts, eq(receipts.id, receiptLines.receiptId))
    .where(and(eq(receiptLines.schoolId, w.schoolId), eq(receipts.status, 'live')))
    .groupBy(receiptLines.studentId);
  for (const r of rows) liveByStudent.set(r.studentId, Number(r.total));

  const balances = (await w.api.get('/api/student-previous-balances?includeSettled=true')).json() as Array<{
    studentId: string; academicYear: string; balance: string; recordedBalance: string; paid: string; monthlyOutstanding: string; yearlyOutstanding: string;
  }>;
  const passouts = (await w.api.get('/api/passouts')).json() as Array<{ studentId: string; totalOutstanding: string }>;

  for (const s of w.students) {
    const mine = balances.filter((b) => b.studentId === s.id);
    let accounted = 0;
    for (const b of mine) {
      expect(paise(b.recordedBalance) - paise(b.paid)).toBe(paise(b.balance));
      expect(paise(b.balance)).toBeGreaterThanOrEqual(0);
      expect(paise(b.monthlyOutstanding) + paise(b.yearlyOutstanding)).toBe(paise(b.balance));
      accounted += paise(b.paid);
    }
    for (const year of ['2025-2026', '2026-2027']) {
      const res = await w.api.get(`/api/students/${s.id}/fee-status?academicYear=${year}`);
      if (res.statusCode === 400) continue; // never enrolled in that session
      expect(res.statusCode).toBe(200);
      const status = res.json();
      accounted += paise(status.account.totalPaid);
      const t = status.account.tillDate;
      expect(paise(t.expected) - paise(t.received) - paise(t.concessions)).toBe(paise(t.outstanding));
      const carried = mine.find((b) => b.academicYear === year);
      // a closed session's balance, as carried, is exactly what that session's own account says
      if (carried) expect(paise(carried.recordedBalance)).toBe(paise(t.outstanding));
      else expect(status.closed).toBe(false);
    }
    expect(accounted, `student ${s.name}`).toBe(liveByStudent.get(s.id) ?? 0);

    const owed = (await w.api.get(`/api/students/${s.id}/outstanding-fees`)).json();
    const carriedOwed = mine.reduce((sum, b) => sum + paise(b.balance), 0);
    const current = owed.currentSession ? paise(owed.currentSession.total) : 0;
    expect(paise(owed.total)).toBe(current + carriedOwed);
    const passout = passouts.find((p) => p.studentId === s.id);
    if (passout) {
      expect(owed.currentSession).toBeNull();
      expect(paise(passout.totalOutstanding)).toBe(carriedOwed);
    }
  }

  const numbers = await db
    .select({ prefix: receipts.prefix, year: receipts.academicYear, sequence: receipts.sequence, number: receipts.receiptNumber })
    .from(receipts)
    .where(eq(receipts.schoolId, w.schoolId));
  expect(new Set(numbers.map((n) => n.number)).size).toBe(numbers.length);
  const groups = new Map<string, number[]>();
  for (const n of numbers) groups.set(`${n.prefix}|${n.year}`, [...(groups.get(`${n.prefix}|${n.year}`) ?? []), n.sequence]);
  for (const seq of groups.values()) {
    expect(seq.sort((a, b) => a - b)).toEqual(Array.from({ length: seq.length }, (_, i) => i + 1));
  }
}

describe('ledger invariants (property, real database)', () => {
  it('holds for any sequence of receipts, cancellations, promotions and discharges', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), async (ops) => {
        const world = await newSchool();
        for (const o of ops) await apply(world, o);
        await checkInvariants(world);
      }),
      { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 8), endOnFailure: true },
    );
  }, 240_000);
});
