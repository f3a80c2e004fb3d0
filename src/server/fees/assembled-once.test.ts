import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { studentEnrollments } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { findSessionByYear } from './queries';
import { seedSession, seedStructure, seedStudent } from './test-fixtures';

/**
 * Decision 0082: the fee status statement is assembled once for each of its two shapes (the session
 * named, or the student's own) and run with each request's values, and so are the saves' reads; the
 * screen reads only its student's fee structures. Each request used to assemble its whole statement
 * again, a sixth of fee status's CPU under load. On both databases.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let sessionId: string;
let ishaan: string;
let sara: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  sessionId = (await seedSession(db, { schoolId: school.schoolId })).id;
  // structures typed in another case and with spaces around, as an old register import left them
  await seedStructure(db, { schoolId: school.schoolId, className: ' class 5 ', tuition: 1500, exam: 700 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 6', tuition: 1800, exam: 900 });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', academicYear: '2024-2025', tuition: 1200, exam: 500 });
  ishaan = (await seedStudent(db, { schoolId: school.schoolId, sessionId, name: 'Ishaan Mir', className: 'Class 5' })).id;
  sara = (await seedStudent(db, { schoolId: school.schoolId, sessionId, name: 'Sara Khan', className: 'Class 6' })).id;
  const paid = await school.api.post('/api/monthly-fee-entries/bulk', {
    studentId: ishaan,
    academicYear: '2025-2026',
    entries: [{ month: 'April', year: 2025, tuitionFee: 1500, tuitionDate: '2025-04-10' }],
  });
  expect(paid.statusCode).toBe(201);
});
afterAll(() => ctx.close());
afterEach(() => vi.restoreAllMocks());

/**
 * Counts the statements Drizzle assembles that read the fee screen's session (`fee_session`) and
 * the read named `read` (`"waivers"`: fee status; `"receivedByUser"`: a save's reads).
 */
function countAssemblies(read: string) {
  const assembled: string[] = [];
  const original = PgDialect.prototype.sqlToQuery;
  vi.spyOn(PgDialect.prototype, 'sqlToQuery').mockImplementation(function (this: PgDialect, ...args: Parameters<PgDialect['sqlToQuery']>) {
    const query = original.apply(this, args);
    if (query.sql.includes('fee_session') && query.sql.includes(`"${read}"`)) assembled.push(query.sql);
    return query;
  });
  return assembled;
}

const status = async (studentId: string, query = '') => {
  const res = await school.api.get(`/api/students/${studentId}/fee-status${query}`);
  return { code: res.statusCode, body: res.json() };
};

describe('fee status statement', () => {
  it('is assembled once for the student’s own session and once for a named one, whatever the request', async () => {
    const assembled = countAssemblies('waivers');
    const answers = [
      await status(ishaan),
      await status(sara),
      await status(ishaan, '?academicYear=2025-2026'),
      await status(sara, '?academicYear=2025-26'),
      await status(ishaan, '?academicYear=2025'),
      await status(sara),
    ];
    expect(answers.map((a) => a.code)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.map((a) => `${a.body.student.name} ${a.body.session.name} ${a.body.structure?.monthlyTuitionFee}`)).toEqual([
      'Ishaan Mir 2025-2026 1500.00',
      'Sara Khan 2025-2026 1800.00',
      'Ishaan Mir 2025-2026 1500.00',
      'Sara Khan 2025-2026 1800.00',
      'Ishaan Mir 2025-2026 1500.00',
      'Sara Khan 2025-2026 1800.00',
    ]);
    // at most one per shape: an earlier test of this file may already have assembled them
    expect(assembled.length).toBeLessThanOrEqual(2);
    expect(new Set(assembled).size).toBe(assembled.length);
  });

  it('answers the session named in any spelling with the same figures, and refuses one that does not exist', async () => {
    const spellings = ['', '?academicYear=2025-2026', '?academicYear=2025-26', '?academicYear=%202025-2026%20', '?academicYear=2025'];
    const answers = await Promise.all(spellings.map((q) => status(ishaan, q)));
    for (const a of answers) {
      expect(a.code).toBe(200);
      expect(a.body.session).toMatchObject({ id: sessionId, name: '2025-2026' });
      // April paid; May to November (7 months) of ₹1,500 tuition and the ₹700 exam fee still owed
      expect(a.body.ledger).toMatchObject({ totalPaid: '1500.00', outstandingTillDate: '11200.00', monthsPaid: 1 });
      expect(a.body.receipts.map((r: { total: string }) => r.total)).toEqual(['1500.00']);
    }
    const missing = await status(ishaan, '?academicYear=2019-20');
    expect(missing.code).toBe(400);
    expect(missing.body.error).toBe('Academic session 2019-20 was not found. Create it under Session Management first.');
  });

  it('matches a session by its id or by its name in any spelling, in the school asked only', async () => {
    const db = ctx.database.db;
    const other = await signUpSchool(ctx);
    const theirs = await seedSession(db, { schoolId: other.schoolId, name: '2025-2026' });
    const found = async (schoolId: string, year: string) => (await findSessionByYear(db, { schoolId, year }))?.id ?? null;
    expect(await found(school.schoolId, sessionId)).toBe(sessionId);
    expect(await found(school.schoolId, ` ${sessionId} `)).toBe(sessionId);
    expect(await found(school.schoolId, '2025-26')).toBe(sessionId);
    expect(await found(school.schoolId, '2025-2026')).toBe(sessionId);
    expect(await found(other.schoolId, '2025-26')).toBe(theirs.id);
    expect(await found(school.schoolId, theirs.id)).toBeNull();
    expect(await found(school.schoolId, '2019-20')).toBeNull();
    // a name with the characters an array literal would need quoted is one name, never a list
    expect(await found(school.schoolId, '2025-2026","x')).toBeNull();
  });

  it('finds the class’s structure of the session shown among its student’s own, in any case', async () => {
    const earlier = await seedSession(ctx.database.db, { schoolId: school.schoolId, name: '2024-2025', startDate: '2024-04-01', endDate: '2025-03-31', isActive: false });
    // Sara sat in Class 5 the year before: that year's Class 5 structure, not her Class 6 one
    await ctx.database.db.insert(studentEnrollments).values({ schoolId: school.schoolId, studentId: sara, sessionId: earlier.id, className: 'Class 5', section: 'A', rollNumber: 7 });
    const before = await status(sara, '?academicYear=2024-2025');
    expect(before.code).toBe(200);
    expect(before.body.student).toMatchObject({ className: 'Class 5', rollNumber: 7 });
    expect(before.body.structure).toMatchObject({ className: 'Class 5', academicYear: '2024-2025', monthlyTuitionFee: '1200.00', examFee: '500.00' });
    const now = await status(sara);
    expect(now.body.structure).toMatchObject({ className: 'Class 6', monthlyTuitionFee: '1800.00' });
  });
  it('assembles a save’s reads once for each shape, whoever the student and whatever the amounts', async () => {
    const assembled = countAssemblies('receivedByUser');
    const pay = (studentId: string, amount: string, clientId: string) =>
      school.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount }], paymentMode: 'cash', clientId });
    const grid = (studentId: string, month: string, clientId: string) =>
      school.api.post('/api/monthly-fee-entries/bulk', {
        studentId,
        academicYear: '2025-26',
        clientId,
        entries: [{ month, year: 2025, tuitionFee: 100, tuitionDate: '2025-11-10' }],
      });
    const codes = [
      (await pay(ishaan, '10', 'once-pay-1')).statusCode,
      (await pay(sara, '20', 'once-pay-2')).statusCode,
      (await pay(ishaan, '30', 'once-pay-3')).statusCode,
      (await grid(sara, 'December', 'once-grid-1')).statusCode,
      (await grid(ishaan, 'December', 'once-grid-2')).statusCode,
    ];
    expect(codes).toEqual([201, 201, 201, 201, 201]);
    // the same payment sent again is answered from the receipt it made, read by the same statement
    const again = await pay(ishaan, '10', 'once-pay-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ replayed: true, receipt: { total: '10.00' } });
    const paid = (await status(ishaan)).body;
    // ₹1,500 of April, ₹10 and ₹30 at the counter, ₹100 of December's tuition in the grid
    expect(paid.ledger.totalPaid).toBe('1640.00');
    // one for Record Fee Payment, one for the grid (a session named): at most, as an earlier test
    // of this file may already have assembled them
    expect(assembled.length).toBeLessThanOrEqual(2);
    expect(new Set(assembled).size).toBe(assembled.length);
  });

  it('assembles a receipt’s write once for each shape, with each save’s own number, amounts and balances (decision 0086)', async () => {
    const assembled: string[] = [];
    const original = PgDialect.prototype.sqlToQuery;
    vi.spyOn(PgDialect.prototype, 'sqlToQuery').mockImplementation(function (this: PgDialect, ...args: Parameters<PgDialect['sqlToQuery']>) {
      const query = original.apply(this, args);
      if (query.sql.includes("'receipt.create'")) assembled.push(query.sql);
      return query;
    });
    const pay = (studentId: string, amount: string, clientId: string) =>
      school.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount }], paymentMode: 'cash', clientId });
    const saves = [await pay(ishaan, '11', 'write-once-1'), await pay(sara, '22', 'write-once-2'), await pay(ishaan, '33', 'write-once-3'), await pay(sara, '44', 'write-once-4')];
    expect(saves.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const made = saves.map((r) => r.json().receipt as { receiptNumber: string; total: string; studentName: string });
    expect(made.map((r) => `${r.studentName} ${r.total}`)).toEqual(['Ishaan Mir 11.00', 'Sara Khan 22.00', 'Ishaan Mir 33.00', 'Sara Khan 44.00']);
    // consecutive numbers of one series, each its own
    const sequence = made.map((r) => Number(r.receiptNumber.split('/').at(-1)));
    expect(sequence).toEqual([sequence[0], sequence[0]! + 1, sequence[0]! + 2, sequence[0]! + 3]);
    // every save stored its own student's running balance, which fee status reads: Sara's ₹20 and
    // December's ₹100 of the test before, and ₹22 and ₹44 now; Ishaan's ₹1,640 before, ₹11 and ₹33 now
    expect((await status(sara)).body.ledger.totalPaid).toBe('186.00');
    expect((await status(ishaan)).body.ledger.totalPaid).toBe('1684.00');
    // four saves, one shape: a statement assembled per save would be four
    expect(assembled.length).toBeLessThanOrEqual(1);
  });
});

