import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, students } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { activatePlan, seedSession, seedStructure, seedStudents } from './test-fixtures';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
const ids: Record<string, string> = {};
let oldReceiptA: string;

const months = (list: Array<[string, number]>, amount: number) =>
  list.map(([month, year]) => ({ month, year, tuitionFee: amount, tuitionDate: '2026-03-10' }));
const APRIL_TO_JAN: Array<[string, number]> = [
  ['April', 2025], ['May', 2025], ['June', 2025], ['July', 2025], ['August', 2025], ['September', 2025],
  ['October', 2025], ['November', 2025], ['December', 2025], ['January', 2026],
];
const WHOLE_YEAR: Array<[string, number]> = [...APRIL_TO_JAN, ['February', 2026], ['March', 2026]];

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-03-20T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  await activatePlan(db, { schoolId: school.schoolId });
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', tuition: 1000, exam: 500 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 12', tuition: 2000 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 6', academicYear: '2026-2027', tuition: 1600 });
  const rows = await seedStudents(db, {
    schoolId: school.schoolId,
    sessionId: session.id,
    people: [
      { name: 'Asha', className: 'Class 5' },
      { name: 'Bilal', className: 'Class 5' },
      { name: 'Chetan', className: 'Class 12' },
      { name: 'Divya', className: 'Class 5', section: 'B' },
    ],
  });
  for (const r of rows) ids[r.name] = r.id;

  const a = await school.api.post('/api/monthly-fee-entries/bulk', { studentId: ids.Asha, academicYear: '2025-2026', entries: months(APRIL_TO_JAN, 1000) });
  oldReceiptA = a.json().receipt.id;
  await school.api.post('/api/monthly-fee-entries/bulk', { studentId: ids.Bilal, academicYear: '2025-2026', entries: months(WHOLE_YEAR, 1000) });
  await school.api.post('/api/yearly-fee-entries', { studentId: ids.Bilal, academicYear: '2025-2026', examFee: 500 });
  await school.api.post('/api/monthly-fee-entries/bulk', { studentId: ids.Divya, academicYear: '2025-2026', entries: months(WHOLE_YEAR, 1000) });
  await school.api.post('/api/yearly-fee-entries', { studentId: ids.Divya, academicYear: '2025-2026', examFee: 500 });
});
afterAll(() => ctx.close());

const balanceOf = async (studentId: string | undefined) => (await school.api.get(`/api/students/${studentId}/outstanding-fees`)).json();

describe('rolling the school into a new session (ruling 9)', () => {
  it('promotes every active student one class up in one go, carrying each balance, Class 12 to passouts', async () => {
    const created = await school.api.post('/api/academic-sessions', { sessionName: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: false });
    expect(created.statusCode).toBe(201);
    const res = await school.api.post(`/api/academic-sessions/${created.json().id}/start`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('2026-2027 has started: 3 students moved up, 1 passed out.');
    expect(res.json().session).toMatchObject({ sessionName: '2026-2027', isActive: true, isPromotionCompleted: true });

    const db = ctx.database.db;
    const placed = await db.select().from(students).where(eq(students.schoolId, school.schoolId));
    const where = (name: string) => placed.find((s) => s.name === name)!;
    expect(where('Asha')).toMatchObject({ className: 'Class 6', section: 'A', rollNumber: 1, status: 'active' });
    expect(where('Bilal')).toMatchObject({ className: 'Class 6', section: 'A', rollNumber: 2, status: 'active' });
    expect(where('Divya')).toMatchObject({ className: 'Class 6', section: 'B', rollNumber: 1, status: 'active' });
    expect(where('Chetan')).toMatchObject({ className: 'Class 12', status: 'passout' });

    const balances = (await school.api.get('/api/student-previous-balances')).json();
    expect(balances.map((b: { studentName: string; academicYear: string; balance: string; monthlyOutstanding: string; yearlyOutstanding: string }) =>
      [b.studentName, b.academicYear, b.monthlyOutstanding, b.yearlyOutstanding, b.balance]).sort()).toEqual([
      ['Asha', '2025-2026', '2000.00', '500.00', '2500.00'],
      ['Chetan', '2025-2026', '24000.00', '0.00', '24000.00'],
    ]);
    expect((await school.api.get('/api/student-previous-balances?includeSettled=true')).json()).toHaveLength(4);

    const passouts = (await school.api.get('/api/passouts')).json();
    expect(passouts).toHaveLength(1);
    expect(passouts[0]).toMatchObject({ name: 'Chetan', lastClass: 'Class 12', graduationYear: 2026, kind: 'graduated', outstandingMonthlyFees: '24000.00', outstandingYearlyFees: '0.00', totalOutstanding: '24000.00' });

    const moves = await db.select({ n: count() }).from(auditLog).where(and(eq(auditLog.schoolId, school.schoolId), like(auditLog.action, 'student.%')));
    expect(Number(moves[0]!.n)).toBe(4);
    const [summary] = await db.select().from(auditLog).where(eq(auditLog.action, 'academic_session.rollover'));
    expect(summary!.after).toMatchObject({ promoted: 3, graduated: 1, balancesCarried: 2, totalCarriedPaise: 2_650_000 });
  });

  it('lists an earlier session\'s roster where the students sat in it, for the fee screens of that year', async () => {
    type Row = { name: string; class: string; section: string; rollNumber: number; monthlyFee: string; status: string };
    const list = async (query: string) => ((await school.api.get(`/api/students?${query}`)).json() as Row[]).map((s) => [s.name, s.class, s.section, s.rollNumber, s.monthlyFee]);
    expect(await list('academicYear=2025-2026&class=Class%205&section=A')).toEqual([
      ['Asha', 'Class 5', 'A', 1, '1000.00'],
      ['Bilal', 'Class 5', 'A', 2, '1000.00'],
    ]);
    expect(await list('academicYear=2025-26&status=all')).toEqual([
      ['Asha', 'Class 5', 'A', 1, '1000.00'],
      ['Bilal', 'Class 5', 'A', 2, '1000.00'],
      ['Divya', 'Class 5', 'B', 1, '1000.00'],
      ['Chetan', 'Class 12', 'A', 1, '2000.00'],
    ]);
    expect(await list('class=Class%206&section=A')).toEqual([
      ['Asha', 'Class 6', 'A', 1, '1600.00'],
      ['Bilal', 'Class 6', 'A', 2, '1600.00'],
    ]);
    expect(await list('academicYear=2026-2027&class=Class%205')).toEqual([]);
    // the fee screens' picker of that year, and the picked student as they were then and are now
    const roster = (await school.api.get('/api/students/roster?academicYear=2025-2026&class=Class%205&section=A')).json() as Array<{ id: string; name: string; rollNumber: number }>;
    expect(roster.map((s) => [s.name, s.rollNumber])).toEqual([['Asha', 1], ['Bilal', 2]]);
    const picked = async (query: string) => {
      const res = await school.api.get(`/api/students/roster/${ids.Asha}${query}`);
      return res.statusCode === 200 ? (res.json() as Row) : res.statusCode;
    };
    expect(await picked('?academicYear=2025-2026')).toMatchObject({ class: 'Class 5', section: 'A', rollNumber: 1, monthlyFee: '1000.00' });
    expect(await picked('')).toMatchObject({ class: 'Class 6', section: 'A', rollNumber: 1, monthlyFee: '1600.00' });
    expect(await picked('?academicYear=2026-2027')).toMatchObject({ class: 'Class 6', monthlyFee: '1600.00' });
    // Chetan passed out of Class 12 and sat in no class of the new session
    expect((await school.api.get(`/api/students/roster/${ids.Chetan}?academicYear=2026-2027`)).statusCode).toBe(404);
    expect((await school.api.get(`/api/students/roster/${ids.Chetan}?academicYear=2025-2026`)).json()).toMatchObject({ class: 'Class 12', status: 'passout' });
    expect((await school.api.get('/api/students/class-summary?academicYear=2025-2026')).json()).toEqual([
      { class: 'Class 5', section: 'A', count: 2 },
      { class: 'Class 5', section: 'B', count: 1 },
    ]);
    expect((await school.api.get('/api/students/class-summary')).json()).toEqual([
      { class: 'Class 6', section: 'A', count: 2 },
      { class: 'Class 6', section: 'B', count: 1 },
    ]);
    const unknown = await school.api.get('/api/students?academicYear=2019-2020');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('Academic session 2019-2020 was not found. Create it under Session Management first.');
    // another school cannot read this school's session through its own list
    const other = await signUpSchool(ctx);
    const sessionId = (await school.api.get('/api/academic-sessions')).json().find((s: { sessionName: string }) => s.sessionName === '2025-2026').id;
    expect((await other.api.get(`/api/students?academicYear=${sessionId}`)).statusCode).toBe(400);
    expect((await other.api.get(`/api/students/class-summary?academicYear=${sessionId}`)).statusCode).toBe(400);
  });

  it('shows the carried balance on the new session\'s screens and closes the old session for the student', async () => {
    ctx.clock.set(new Date('2026-04-15T06:00:00.000Z'));
    // sign in again: the session token of March has expired
    const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
    school = { ...school, api: client(ctx.app, login.json().token) };
    const grid = (await school.api.get(`/api/monthly-fee-entries?studentId=${ids.Asha}&academicYear=2026-2027&withContinuity=true`)).json();
    expect(grid.entries).toEqual([]);
    expect(grid.previousBalance).toMatchObject({ monthlyOutstanding: '2000.00', yearlyOutstanding: '500.00', balance: '2500.00' });
    const status = (await school.api.get(`/api/students/${ids.Asha}/fee-status`)).json();
    expect(status.session.name).toBe('2026-2027');
    expect(status.student.className).toBe('Class 6');
    expect(status.previousBalance.balance).toBe('2500.00');
    // April 2026 tuition of Class 6 is due, plus the carried ₹2,500
    expect(await balanceOf(ids.Asha)).toMatchObject({ monthlyFees: '3600.00', yearlyFees: '500.00', total: '4100.00' });

    const old = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId: ids.Asha,
      academicYear: '2025-2026',
      entries: [{ month: 'March', year: 2026, tuitionFee: 1000, tuitionDate: '2026-03-20' }],
    });
    expect(old.statusCode).toBe(409);
    expect(old.json().error).toBe('The 2025-2026 session is closed for Asha: its balance was carried forward. Collect it as previous balance.');
    const oldStatus = (await school.api.get(`/api/students/${ids.Asha}/fee-status?academicYear=2025-2026`)).json();
    expect(oldStatus).toMatchObject({ closed: true, asOfMonth: '2026-03' });
    expect(oldStatus.student.className).toBe('Class 5');
  });

  it('collects the carried balance through the same receipts, and it reduces as it is paid', async () => {
    const pay = await school.api.post('/api/fees', { studentId: ids.Asha, fees: [{ type: 'previous_balance', amount: 1000 }] });
    expect(pay.statusCode).toBe(201);
    expect(pay.json().receipt.receiptNumber).toBe('FEE/2026-27/000001');
    expect(pay.json().receipt.lines[0]).toMatchObject({ head: 'previous_balance', academicYear: '2025-2026', amount: '1000.00' });
    const [row] = (await school.api.get(`/api/student-previous-balances?studentId=${ids.Asha}`)).json();
    expect(row).toMatchObject({ balance: '1500.00', monthlyOutstanding: '1000.00', yearlyOutstanding: '500.00', paid: '1000.00', recordedBalance: '2500.00' });

    const tooMuch = await school.api.post('/api/fees', { studentId: ids.Asha, fees: [{ type: 'previous_balance', amount: 2000 }] });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toBe('The previous balance payment (₹2,000.00) is more than the balance pending (₹1,500.00)');

    const grid = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId: ids.Asha,
      academicYear: '2026-2027',
      entries: [{ month: 'April', year: 2026, tuitionFee: 1600, tuitionDate: '2026-04-15' }],
      previousBalancePaid: '1500',
      // a carried balance may be dated before the new session began, as through Record Fee Payment
      previousBalanceDate: '2026-03-31',
    });
    expect(grid.statusCode).toBe(201);
    expect(grid.json().receipt.total).toBe('3100.00');
    expect((await school.api.get(`/api/student-previous-balances?studentId=${ids.Asha}`)).json()).toEqual([]);
    expect(await balanceOf(ids.Asha)).toMatchObject({ total: '0.00' });

    // cancelling the first payment brings its ₹1,000 back (payments settle the monthly part first)
    const cancel = await school.api.post(`/api/receipts/${pay.json().receipt.id}/cancel`, { reason: 'Entered against the wrong student' });
    expect(cancel.statusCode).toBe(200);
    expect(await balanceOf(ids.Asha)).toMatchObject({ monthlyFees: '500.00', yearlyFees: '500.00', total: '1000.00' });
  });

  it('puts dues back on the carried balance when an old-session receipt is cancelled after the rollover', async () => {
    const res = await school.api.post(`/api/receipts/${oldReceiptA}/cancel`, { reason: 'Duplicate entry' });
    expect(res.statusCode).toBe(200);
    const [row] = (await school.api.get(`/api/student-previous-balances?studentId=${ids.Asha}`)).json();
    // ten months of ₹1,000 come back onto the 2025-2026 balance
    expect(row).toMatchObject({ recordedBalance: '12500.00', recordedMonthlyOutstanding: '12000.00', balance: '11000.00' });
    expect(await balanceOf(ids.Asha)).toMatchObject({ total: '11000.00' });
  });

  it('keeps a passout\'s dues collectable', async () => {
    const monthly = await school.api.post('/api/fees', { studentId: ids.Chetan, fees: [{ type: 'monthly', amount: 2000 }] });
    expect(monthly.statusCode).toBe(409);
    const pay = await school.api.post('/api/fees', { studentId: ids.Chetan, fees: [{ type: 'previous_balance', amount: '4000' }], paymentMode: 'cheque', chequeNumber: '11', bankName: 'SBI' });
    expect(pay.statusCode).toBe(201);
    expect(pay.json().receipt.className).toBe('Class 12');
    const [passout] = (await school.api.get('/api/passouts')).json();
    expect(passout).toMatchObject({ name: 'Chetan', outstandingMonthlyFees: '20000.00', totalOutstanding: '20000.00' });
    expect(await balanceOf(ids.Chetan)).toMatchObject({ monthlyFees: '20000.00', total: '20000.00', currentSession: null });
  });
});

describe('Promote Student', () => {
  let other: Awaited<ReturnType<typeof signUpSchool>>;
  let kid: string;

  beforeAll(async () => {
    other = await signUpSchool(ctx);
    const db = ctx.database.db;
    await activatePlan(db, { schoolId: other.schoolId });
    const s1 = await seedSession(db, { schoolId: other.schoolId, name: '2025-2026', startDate: '2025-04-01', endDate: '2026-03-31', isActive: false });
    await seedSession(db, { schoolId: other.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: true });
    await seedStructure(db, { schoolId: other.schoolId, className: 'Nursery', tuition: 800 });
    const [row] = await seedStudents(db, { schoolId: other.schoolId, sessionId: s1.id, people: [{ name: 'Ela', className: 'Nursery', busFee: 200 }] });
    kid = row!.id;
  });

  it('asks for the required fields with the spec message', async () => {
    const res = await other.api.post(`/api/students/${kid}/promote`, { toClass: 'LKG', fromClass: 'Nursery', fromSession: '2025-2026' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Please fill in all required fields before promoting the student');
  });

  it('moves the student and records the old session\'s outstanding as a previous balance', async () => {
    expect((await school.api.post(`/api/students/${kid}/promote`, { toClass: 'LKG', toSession: '2026-2027', fromClass: 'Nursery', fromSession: '2025-2026' })).statusCode).toBe(404);
    const res = await other.api.post(`/api/students/${kid}/promote`, { toClass: 'lkg', toSession: '2026-27', fromClass: 'Nursery', fromSession: '2025-2026' });
    expect(res.statusCode).toBe(200);
    // twelve months of ₹800 tuition and ₹200 bus, nothing paid
    expect(res.json()).toMatchObject({
      message: 'Ela has been promoted to LKG (2026-2027).',
      student: { className: 'LKG', section: 'A', rollNumber: 1, academicYear: '2026-2027' },
      previousBalance: { academicYear: '2025-2026', monthlyOutstanding: '12000.00', yearlyOutstanding: '0.00', balance: '12000.00' },
    });
    const again = await other.api.post(`/api/students/${kid}/promote`, { toClass: 'LKG', toSession: '2026-2027', fromSession: '2025-2026' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Ela is already in the 2026-2027 session');
    const [logged] = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'student.promote'), eq(auditLog.entityId, kid)));
    expect(logged!.before).toMatchObject({ className: 'Nursery', academicYear: '2025-2026' });
    expect(logged!.after).toMatchObject({ className: 'LKG', academicYear: '2026-2027' });
  });
});
