import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, previousBalances, students } from '../db/schema';
import { seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx, { schoolName: 'Green Valley School' });
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 10', tuition: 1000, exam: 600 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 12', tuition: 2000 });
  const rows = await seedStudents(db, {
    schoolId: school.schoolId,
    sessionId: session.id,
    people: [
      { name: 'Ravi Verma', className: 'Class 10' },
      { name: 'Zara Ali', className: 'Class 12' },
      { name: 'Omar Dar', className: 'Class 12', section: 'B' },
      { name: 'Nina Paul', className: 'Class 5' },
    ],
  });
  for (const r of rows) ids[r.name] = r.id;
  await school.api.post('/api/monthly-fee-entries/bulk', {
    studentId: ids['Ravi Verma'],
    academicYear: '2025-2026',
    entries: ['April', 'May', 'June'].map((month) => ({ month, year: 2025, tuitionFee: 1000, tuitionDate: '2025-07-01' })),
  });
});
afterAll(() => ctx.close());

describe('Discharge', () => {
  it('moves the student to passouts with the outstanding till date', async () => {
    expect((await other.api.post(`/api/students/${ids['Ravi Verma']}/discharge`, { reason: 'x' })).statusCode).toBe(404);
    const res = await school.api.post(`/api/students/${ids['Ravi Verma']}/discharge`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Student has been successfully discharged and moved to passouts.');
    // April–November: 8 × ₹1,000 − ₹3,000 received, plus the ₹600 exam fee
    expect(res.json().passout).toMatchObject({
      name: 'Ravi Verma',
      lastClass: 'Class 10',
      rollNumber: 1,
      kind: 'discharged',
      graduationYear: 2025,
      passoutDate: '2025-11-15',
      reason: 'Discharged from Class 10 class',
      outstandingMonthlyFees: '5000.00',
      outstandingYearlyFees: '600.00',
      totalOutstanding: '5600.00',
    });
    const [row] = await ctx.database.db.select().from(students).where(eq(students.id, ids['Ravi Verma']!));
    expect(row!.status).toBe('passout');
    const again = await school.api.post(`/api/students/${ids['Ravi Verma']}/discharge`, { reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Ravi Verma has already been moved to passouts');
    const [logged] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'student.discharge'));
    expect(logged!.after).toMatchObject({ status: 'passout', carriedBalance: { monthlyOutstandingPaise: 500_000, yearlyOutstandingPaise: 60_000, academicYear: '2025-2026' } });
  });
});

describe('Create Passouts from Class', () => {
  it('lists classes with their active students', async () => {
    const res = await school.api.get('/api/passouts/classes');
    expect(res.json()).toEqual([
      { className: 'Class 5', count: 1 },
      { className: 'Class 12', count: 2 },
    ]);
  });

  it('checks the class and the year', async () => {
    const year = await school.api.post('/api/passouts/from-class', { className: 'Class 12', graduationYear: 'next year' });
    expect(year.statusCode).toBe(400);
    expect(year.json().error).toBe('Please enter a graduation year (e.g. 2025)');
    const empty = await school.api.post('/api/passouts/from-class', { className: '11th', graduationYear: 2026 });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('There are no active students in Class 11');
  });

  it('moves every student of the class with their dues', async () => {
    const res = await school.api.post('/api/passouts/from-class', { className: '12th', graduationYear: '2026' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Passouts Created Successfully', className: 'Class 12', graduationYear: 2026, count: 2, totalOutstanding: '32000.00' });
    const list = (await school.api.get('/api/passouts')).json();
    expect(list.map((p: { graduationYear: number; name: string; totalOutstanding: string }) => [p.graduationYear, p.name, p.totalOutstanding])).toEqual([
      [2026, 'Omar Dar', '16000.00'],
      [2026, 'Zara Ali', '16000.00'],
      [2025, 'Ravi Verma', '5600.00'],
    ]);
    expect((await school.api.get('/api/passouts?graduationYear=2025')).json()).toHaveLength(1);
    expect((await other.api.get('/api/passouts')).json()).toEqual([]);
  });

  it('reduces a passout\'s balance when their dues are paid', async () => {
    const pay = await school.api.post('/api/fees', { studentId: ids['Ravi Verma'], fees: [{ type: 'previous_balance', amount: '600' }] });
    expect(pay.statusCode).toBe(201);
    const ravi = (await school.api.get('/api/passouts?graduationYear=2025')).json()[0];
    expect(ravi).toMatchObject({ outstandingMonthlyFees: '4400.00', outstandingYearlyFees: '600.00', totalOutstanding: '5000.00' });
  });
});

describe('Download Balance Report', () => {
  it('downloads the balances as CSV', async () => {
    const res = await school.api.get('/api/passouts/balance-report.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="passout-balance-report.csv"');
    expect(res.body.split('\r\n')).toEqual([
      '\uFEFFGraduation Year,Name,Roll Number,Last Class,Section,Monthly Outstanding,Yearly Outstanding,Total Outstanding,Passout Date,Kind,Reason',
      '2026,Omar Dar,1,Class 12,B,16000.00,0.00,16000.00,2025-11-15,graduated,Graduated from Class 12',
      '2026,Zara Ali,1,Class 12,A,16000.00,0.00,16000.00,2025-11-15,graduated,Graduated from Class 12',
      '2025,Ravi Verma,1,Class 10,A,4400.00,600.00,5000.00,2025-11-15,discharged,Discharged from Class 10 class',
      'Total,,,,,36400.00,600.00,37000.00,,,',
      '',
    ]);
    const one = await school.api.get('/api/passouts/balance-report.csv?graduationYear=2025');
    expect(one.headers['content-disposition']).toBe('attachment; filename="passout-balance-report-2025.csv"');
    expect(one.body.split('\r\n')).toHaveLength(4);
  });

  it('downloads the balances as a PDF grouped by graduation year', async () => {
    const res = await school.api.get('/api/passouts/balance-report.pdf');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const doc = await getDocumentProxy(new Uint8Array(res.rawPayload));
    const { text } = await extractText(doc, { mergePages: true });
    for (const expected of ['Green Valley School', 'Passout Balance Report', 'Graduation Year 2026 (2)', 'Graduation Year 2025 (1)', 'Omar Dar', 'Ravi Verma', '₹16,000.00', 'Total 2026', '₹32,000.00', 'Total Outstanding Balance: ₹37,000.00']) {
      expect(text).toContain(expected);
    }
  });
});

describe('the passouts toast', () => {
  it('shows the real outstanding: what the Passouts list shows, balances carried from earlier years included', async () => {
    const db = ctx.database.db;
    const s = await signUpSchool(ctx);
    const old = await seedSession(db, { schoolId: s.schoolId, name: '2024-2025', startDate: '2024-04-01', endDate: '2025-03-31', isActive: false });
    const session = await seedSession(db, { schoolId: s.schoolId });
    await seedStructure(db, { schoolId: s.schoolId, className: 'Class 12', tuition: 2000 });
    const [kiran] = await seedStudents(db, { schoolId: s.schoolId, sessionId: session.id, people: [{ name: 'Kiran Bhat', className: 'Class 12' }] });
    // ₹3,000 left unpaid from 2024-2025, carried into this year
    await db.insert(previousBalances).values({
      schoolId: s.schoolId, studentId: kiran!.id, sessionId: old.id, academicYear: '2024-2025', className: 'Class 11',
      monthlyOutstandingPaise: 300_000, yearlyOutstandingPaise: 0, throughMonth: '2025-03', reason: 'rollover',
    });
    const res = await s.api.post('/api/passouts/from-class', { className: 'Class 12', graduationYear: 2026 });
    // April–November of Class 12 (8 × ₹2,000) and the ₹3,000 from last year
    expect(res.json().totalOutstanding).toBe('19000.00');
    const list = (await s.api.get('/api/passouts')).json();
    expect(list[0].totalOutstanding).toBe('19000.00');
  });
});
