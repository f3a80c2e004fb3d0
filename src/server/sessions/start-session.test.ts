import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, passouts, previousBalances, students } from '../db/schema';
import { activatePlan, seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * Issue 11, "a rollover that promotes everyone in November": creating next year's session moves
 * nobody; promotion is its own step from the running session's last month (or explicitly early),
 * with a preview, and can be undone until the first receipt after it.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let running: { id: string };
let nextId: string;
const ids: Record<string, string> = {};

const months = (list: string[], amount: number, year = 2026) => list.map((month) => ({ month, year, tuitionFee: amount, tuitionDate: '2026-11-20' }));

async function signInAgain() {
  const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
  school = { ...school, api: client(ctx.app, login.json().token) };
}

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-23T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  await activatePlan(db, { schoolId: school.schoolId });
  running = await seedSession(db, { schoolId: school.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', academicYear: '2026-2027', tuition: 1000, exam: 500 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 12', academicYear: '2026-2027', tuition: 2000 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 6', academicYear: '2027-2028', tuition: 1200 });
  const rows = await seedStudents(db, {
    schoolId: school.schoolId,
    sessionId: running.id,
    people: [
      { name: 'Asha', className: 'Class 5' },
      { name: 'Chetan', className: 'Class 12' },
      { name: 'Divya', className: 'Class 5', section: 'B' },
    ],
  });
  for (const r of rows) ids[r.name] = r.id;
  expect((await school.api.post('/api/monthly-fee-entries/bulk', { studentId: ids.Asha, academicYear: '2026-2027', entries: months(['April', 'May', 'June'], 1000) })).statusCode).toBe(201);
});
afterAll(() => ctx.close());

const placement = async (name: string) => {
  const [row] = await ctx.database.db.select().from(students).where(and(eq(students.schoolId, school.schoolId), eq(students.id, ids[name]!)));
  return { className: row!.className, section: row!.section, rollNumber: row!.rollNumber, status: row!.status, sessionId: row!.sessionId };
};

describe('starting the next session (issue 11)', () => {
  it('creating next year\'s session in November moves nobody and leaves the running year open at the counter', async () => {
    const res = await school.api.post('/api/academic-sessions', { sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2028-03-31', isActive: false });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ isActive: false, isPromotionCompleted: false });
    nextId = res.json().id;
    expect(await placement('Asha')).toMatchObject({ className: 'Class 5', status: 'active', sessionId: running.id });
    expect(await placement('Chetan')).toMatchObject({ className: 'Class 12', status: 'active' });
    expect((await school.api.get('/api/student-previous-balances?includeSettled=true')).json()).toEqual([]);

    // December can still be paid in the grid, and the receipt is numbered in the running year
    const december = await school.api.post('/api/monthly-fee-entries/bulk', { studentId: ids.Asha, academicYear: '2026-2027', entries: months(['December'], 1000) });
    expect(december.statusCode).toBe(201);
    const payment = await school.api.post('/api/fees', { studentId: ids.Divya, fees: [{ type: 'monthly', amount: '1000' }] });
    expect(payment.statusCode).toBe(201);
    expect(payment.json().receipt.receiptNumber).toBe('FEE/2026-27/000001');
    // this month's dues are still expected on the dashboard
    const stats = (await school.api.get('/api/stats/school')).json();
    expect(stats.expectedMonthlyIncome).toBe('4000.00');
  });

  it('a student admitted while next year is prepared lands in the running session', async () => {
    const res = await school.api.post('/api/students', { name: 'Esha', class: 'Class 1', section: 'A' });
    expect(res.statusCode, res.body).toBe(201);
    ids.Esha = res.json().id;
    expect(await placement('Esha')).toMatchObject({ className: 'Class 1', sessionId: running.id });
  });

  it('cannot be made active, and cannot be started before the last month without the early override', async () => {
    const activate = await school.api.put(`/api/academic-sessions/${nextId}/activate`);
    expect(activate.statusCode).toBe(409);
    expect(activate.json().error).toBe(
      '2027-2028 starts after 2026-2027: students move into it when you start it (Start 2027-2028 in Session Management), not by making it active.',
    );
    const start = await school.api.post(`/api/academic-sessions/${nextId}/start`, {});
    expect(start.statusCode).toBe(409);
    expect(start.json().error).toBe(
      '2027-2028 can be started from 1 March 2027, the last month of 2026-2027. To start it earlier, confirm the early start.',
    );
    expect(await placement('Asha')).toMatchObject({ className: 'Class 5', sessionId: running.id });
  });

  it('previews who moves where, who passes out and what each carries of the months already due', async () => {
    const res = await school.api.get(`/api/academic-sessions/${nextId}/start-preview`);
    expect(res.statusCode).toBe(200);
    const preview = res.json();
    expect(preview).toMatchObject({ from: { sessionName: '2026-2027' }, to: { sessionName: '2027-2028' }, opensOn: '2027-03-01', open: false, throughMonth: '2026-11' });
    // April–November: Asha owes July–November and the exam fee; Divya May–November and the exam fee;
    // Chetan eight months of Class 12; Esha's class has no fee structure
    const carried = Object.fromEntries(preview.students.map((s: { name: string; toClass: string | null; carried: string }) => [s.name, [s.toClass, s.carried]]));
    expect(carried).toEqual({
      Asha: ['Class 6', '5500.00'],
      Divya: ['Class 6', '7500.00'],
      Chetan: [null, '16000.00'],
      Esha: ['Class 2', '0.00'],
    });
    expect(preview.totals).toEqual({ students: 4, promoted: 3, graduating: 1, withBalance: 3, carried: '29000.00' });
    expect(preview.classes).toContainEqual({ fromClass: 'Class 5', toClass: 'Class 6', students: 2, carried: '13000.00' });
    // a preview moves nobody
    expect(await placement('Asha')).toMatchObject({ className: 'Class 5', sessionId: running.id });
  });

  it('starts in the last month: everyone moves, the whole year is carried, the new session is active', async () => {
    ctx.clock.set(new Date('2027-03-05T06:00:00.000Z'));
    await signInAgain();
    const res = await school.api.post(`/api/academic-sessions/${nextId}/start`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('2027-2028 has started: 3 students moved up, 1 passed out.');
    expect(res.json().summary).toEqual({ promoted: 3, graduated: 1, balancesCarried: 3, carried: '44000.00' });
    expect(res.json().session).toMatchObject({ sessionName: '2027-2028', isActive: true, isPromotionCompleted: true });
    expect(await placement('Asha')).toMatchObject({ className: 'Class 6', section: 'A', rollNumber: 1, sessionId: nextId });
    expect(await placement('Chetan')).toMatchObject({ status: 'passout' });
    const balances = (await school.api.get('/api/student-previous-balances')).json();
    expect(balances.map((b: { studentName: string; balance: string }) => [b.studentName, b.balance]).sort()).toEqual([
      ['Asha', '8500.00'],
      ['Chetan', '24000.00'],
      ['Divya', '11500.00'],
    ]);
    // every student's move is in the audit log, with what they carried
    const moves = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.schoolId, school.schoolId), eq(auditLog.entity, 'student')));
    const moveOf = (name: string) => moves.find((m) => m.entityId === ids[name] && m.action.startsWith('student.'));
    expect(moveOf('Asha')).toMatchObject({
      action: 'student.rollover',
      before: { className: 'Class 5', section: 'A', rollNumber: 1, sessionId: running.id, status: 'active' },
      after: { className: 'Class 6', section: 'A', rollNumber: 1, sessionId: nextId, status: 'active', previousBalance: { academicYear: '2026-2027', monthlyOutstandingPaise: 800_000, yearlyOutstandingPaise: 50_000 } },
    });
    expect(moveOf('Chetan')).toMatchObject({
      action: 'student.graduate',
      after: { className: 'Class 12', status: 'passout', sessionId: running.id, previousBalance: { academicYear: '2026-2027', monthlyOutstandingPaise: 2_400_000, yearlyOutstandingPaise: 0 } },
    });
    expect(moves.filter((m) => m.action === 'student.rollover' || m.action === 'student.graduate')).toHaveLength(4);
    const list = (await school.api.get('/api/academic-sessions')).json();
    expect(list.find((s: { id: string }) => s.id === nextId).canUndoStart).toBe(true);
    expect((await school.api.post(`/api/academic-sessions/${nextId}/start`, {})).json().error).toBe('2027-2028 has already been started.');
  });

  it('is undone until the first receipt: everyone back where they were, nothing carried', async () => {
    const other = await signUpSchool(ctx);
    expect((await other.api.post(`/api/academic-sessions/${nextId}/undo-start`, {})).statusCode).toBe(404);
    expect((await other.api.get(`/api/academic-sessions/${nextId}/start-preview`)).statusCode).toBe(404);

    const res = await school.api.post(`/api/academic-sessions/${nextId}/undo-start`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'The start was undone: 4 students are back in 2026-2027.', restored: 4, session: { sessionName: '2026-2027', isActive: true } });
    expect(await placement('Asha')).toMatchObject({ className: 'Class 5', section: 'A', rollNumber: 1, status: 'active', sessionId: running.id });
    expect(await placement('Chetan')).toMatchObject({ className: 'Class 12', status: 'active', sessionId: running.id });
    const db = ctx.database.db;
    expect(await db.select().from(passouts).where(eq(passouts.schoolId, school.schoolId))).toEqual([]);
    expect(await db.select().from(previousBalances).where(eq(previousBalances.schoolId, school.schoolId))).toEqual([]);
    const list = (await school.api.get('/api/academic-sessions')).json();
    expect(list.find((s: { id: string }) => s.id === nextId)).toMatchObject({ isActive: false, isPromotionCompleted: false, canUndoStart: false });
  });

  it('once a receipt is taken after the start, the start stays; the receipt is numbered in the year that has begun', async () => {
    expect((await school.api.post(`/api/academic-sessions/${nextId}/start`, {})).statusCode).toBe(200);
    const pay = await school.api.post('/api/fees', { studentId: ids.Asha, fees: [{ type: 'previous_balance', amount: '1000' }] });
    expect(pay.statusCode, pay.body).toBe(201);
    // 2027-2028 begins on 1 April: a payment on 5 March is numbered in 2026-27
    expect(pay.json().receipt.receiptNumber).toBe('FEE/2026-27/000002');
    const undo = await school.api.post(`/api/academic-sessions/${nextId}/undo-start`, {});
    expect(undo.statusCode).toBe(409);
    expect(undo.json().error).toBe('Receipt FEE/2026-27/000002 was saved after 2027-2028 started: the start can no longer be undone.');
    expect(await placement('Asha')).toMatchObject({ className: 'Class 6', sessionId: nextId });
  });
});
