import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONTHLY_LOCKED_MESSAGE, NO_DATA_MESSAGE, NO_NEW_DATA_MESSAGE } from '../../domain/ledger';
import { auditLog, receiptLines, receipts } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from './test-fixtures';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;
let otherStudentId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Aarav Sharma', className: 'Class 5', busFee: 600 })).id;
  const otherSession = await seedSession(db, { schoolId: other.schoolId });
  await seedStructure(db, { schoolId: other.schoolId, ...CLASS5_2025 });
  otherStudentId = (await seedStudent(db, { schoolId: other.schoolId, sessionId: otherSession.id, name: 'Other Kid', className: 'Class 5' })).id;
});
afterAll(() => ctx.close());

const entry = (month: string, year: number, extra: Record<string, unknown> = {}) => ({
  studentId,
  month,
  year,
  tuitionFee: '1500',
  tuitionDate: '2025-11-10',
  busFee: 600,
  busDate: '2025-11-10',
  status: 'pending',
  submittedAt: '2025-11-15T06:00:00.000Z',
  clientId: null,
  ...extra,
});

const counts = async () => {
  const db = ctx.database.db;
  const [r] = await db.select({ n: count() }).from(receipts);
  const [l] = await db.select({ n: count() }).from(receiptLines);
  return { receipts: Number(r!.n), lines: Number(l!.n) };
};

describe('POST /api/monthly-fee-entries/bulk', () => {
  it('saves three months as one MON receipt and reads them back as entries', async () => {
    const res = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId,
      academicYear: '2025-2026',
      clientId: 'grid-1',
      timestamp: Date.now(),
      source: 'monthly-grid',
      version: 1,
      entries: [entry('April', 2025), entry('May', 2025), entry('June', 2025, { busFee: null, busDate: null })],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Monthly fee data saved successfully!');
    expect(body.replayed).toBe(false);
    expect(body.receipt.receiptNumber).toBe('MON/2025-26/000001');
    expect(body.receipt.total).toBe('5700.00');
    expect(body.receipt.totalInWords).toBe('Rupees Five Thousand Seven Hundred Only');
    expect(body.receipt.paymentMode).toBe('cash');
    expect(body.receipt.studentName).toBe('Aarav Sharma');
    expect(body.receipt.className).toBe('Class 5');
    expect(body.receipt.lines.map((l: { head: string; period: string; amount: string }) => `${l.head} ${l.period} ${l.amount}`)).toEqual([
      'tuition 2025-04 1500.00',
      'bus 2025-04 600.00',
      'tuition 2025-05 1500.00',
      'bus 2025-05 600.00',
      'tuition 2025-06 1500.00',
    ]);
    expect(body.entries).toHaveLength(3);

    const list = await school.api.get(`/api/monthly-fee-entries?studentId=${studentId}&academicYear=2025-2026`);
    expect(list.statusCode).toBe(200);
    const entries = list.json();
    expect(entries.map((e: { month: string; tuitionFee: string; busFee: string; status: string }) => [e.month, e.tuitionFee, e.busFee, e.status])).toEqual([
      ['April', '1500.00', '600.00', 'paid'],
      ['May', '1500.00', '600.00', 'paid'],
      ['June', '1500.00', '0.00', 'paid'],
    ]);
    expect(entries[2].locked).toEqual({ tuition: true, bus: false });
    expect(entries[0].tuitionDate).toBe('2025-11-10');
    expect(entries[0].receiptNumbers).toEqual(['MON/2025-26/000001']);

    const [logged] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entityId, body.receipt.id));
    expect(logged!.action).toBe('receipt.create');
    expect(logged!.userId).toBe(school.userId);
    expect((logged!.after as { total: number }).total).toBe(570000);
  });

  it('applies a retried save once (same clientId): same receipt, nothing new written', async () => {
    const before = await counts();
    const res = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId,
      academicYear: '2025-2026',
      clientId: 'grid-1',
      entries: [entry('April', 2025), entry('May', 2025), entry('June', 2025, { busFee: null, busDate: null })],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().replayed).toBe(true);
    expect(res.json().receipt.receiptNumber).toBe('MON/2025-26/000001');
    expect(await counts()).toEqual(before);
  });

  it('takes the entries\' clientIds together as the key when the save has none', async () => {
    const save = () =>
      school.api.post('/api/monthly-fee-entries/bulk', {
        studentId,
        academicYear: '2025',
        entries: [entry('July', 2025, { clientId: 'c-july' }), entry('August', 2025, { clientId: 'c-aug', busFee: '' })],
      });
    const first = await save();
    expect(first.statusCode).toBe(201);
    expect(first.json().receipt.receiptNumber).toBe('MON/2025-26/000002');
    const before = await counts();
    const again = await save();
    expect(again.statusCode).toBe(200);
    expect(again.json().receipt.id).toBe(first.json().receipt.id);
    expect(await counts()).toEqual(before);
  });

  it('refuses the same clientId with other amounts', async () => {
    const res = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId,
      academicYear: '2025-2026',
      clientId: 'grid-1',
      entries: [entry('September', 2025)],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/already recorded with different amounts/);
  });

  it('locks saved months: another amount is refused with the spec message, the same amount is ignored', async () => {
    const before = await counts();
    const changed = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId,
      academicYear: '2025-2026',
      entries: [entry('April', 2025, { tuitionFee: 1200 }), entry('September', 2025)],
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error).toBe(MONTHLY_LOCKED_MESSAGE);
    expect(await counts()).toEqual(before);

    const resent = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId,
      academicYear: '2025-2026',
      entries: [entry('April', 2025), entry('June', 2025, { tuitionFee: 1500, busFee: '600.00' })],
    });
    expect(resent.statusCode).toBe(201);
    // April unchanged and June's tuition already saved: only June's bus fee is new
    expect(resent.json().receipt.lines).toHaveLength(1);
    expect(resent.json().receipt.lines[0]).toMatchObject({ head: 'bus', period: '2025-06', amount: '600.00' });

    const nothingNew = await school.api.post('/api/monthly-fee-entries/bulk', { studentId, academicYear: '2025-2026', entries: [entry('April', 2025)] });
    expect(nothingNew.statusCode).toBe(400);
    expect(nothingNew.json().error).toBe(NO_NEW_DATA_MESSAGE);
  });

  it('asks for data and for a student', async () => {
    const empty = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId,
      academicYear: '2025-2026',
      entries: [entry('October', 2025, { tuitionFee: null, busFee: 0 })],
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(NO_DATA_MESSAGE);
    const noStudent = await school.api.post('/api/monthly-fee-entries/bulk', { studentId: '', academicYear: '2025-2026', entries: [] });
    expect(noStudent.statusCode).toBe(400);
    expect(noStudent.json().error).toBe('Please select a student first');
  });

  it('refuses bad amounts, months and dates with clear messages and writes nothing', async () => {
    const before = await counts();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tuitionFee: '-5' }, 'Tuition fee cannot be negative'],
      [{ tuitionFee: -5 }, 'Tuition fee cannot be negative'],
      [{ tuitionFee: '1500.555' }, 'Tuition fee can have at most two decimals (whole paise)'],
      [{ busFee: 10_000_000.01 }, 'Bus fee cannot be more than ₹1,00,00,000.00 on one fee line'],
      [{ tuitionFee: 'fifteen hundred' }, 'Tuition fee has letters in it; type the amount in digits, e.g. 1500 or 1,500.50'],
      [{ tuitionDate: '2025-02-30' }, 'Tuition date must be a date (YYYY-MM-DD)'],
      [{ year: 2026, month: 'April' }, 'April 2026 is not a month of the 2025-2026 session'],
      [{ month: 'Smarch' }, '"Smarch" is not a month'],
      [{ tuitionDate: '2025-03-20' }, 'The date for the tuition fee of October 2025 (2025-03-20) is outside the 2025-2026 session (2025-04-01 to 2026-03-31)'],
      [{ busDate: '2025-12-01' }, 'The date for the bus fee of October 2025 (2025-12-01) cannot be in the future'],
    ];
    for (const [change, message] of cases) {
      const res = await school.api.post('/api/monthly-fee-entries/bulk', {
        studentId,
        academicYear: '2025-2026',
        entries: [entry('October', 2025, change)],
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().error).toBe(message);
    }
    const twice = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId,
      academicYear: '2025-2026',
      entries: [entry('October', 2025), entry('October', 2025)],
    });
    expect(twice.json().error).toBe('October 2025 appears more than once in this save');
    const cheque = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId,
      academicYear: '2025-2026',
      paymentMode: 'cheque',
      entries: [entry('October', 2025)],
    });
    expect(cheque.json().error).toBe('Enter the cheque number and bank name for a cheque payment');
    expect(await counts()).toEqual(before);
  });

  it('answers 404 for another school\'s student and for an unknown session year a clear 400', async () => {
    const before = await counts();
    const res = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId: otherStudentId,
      academicYear: '2025-2026',
      entries: [entry('October', 2025, { studentId: otherStudentId })],
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Student not found');
    const read = await school.api.get(`/api/monthly-fee-entries?studentId=${otherStudentId}&academicYear=2025-2026`);
    expect(read.statusCode).toBe(404);
    const year = await school.api.post('/api/monthly-fee-entries/bulk', { studentId, academicYear: '2031-2032', entries: [entry('October', 2025)] });
    expect(year.statusCode).toBe(400);
    expect(year.json().error).toBe('Academic session 2031-2032 was not found. Create it under Session Management first.');
    expect(await counts()).toEqual(before);
  });

  it('refuses a class without a fee structure', async () => {
    const db = ctx.database.db;
    const session = await seedSession(db, { schoolId: school.schoolId });
    const lonely = await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Zoya', className: 'Class 9' });
    const res = await school.api.post('/api/monthly-fee-entries/bulk', {
      studentId: lonely.id,
      academicYear: '2025-2026',
      entries: [entry('October', 2025, { studentId: lonely.id })],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Fee Structure Missing for Class 9 (2025-2026). Add it under Fee Structure before saving fees.');
  });

  it('gives entries with the carried balance when asked for continuity', async () => {
    const res = await school.api.get(`/api/monthly-fee-entries?studentId=${studentId}&academicYear=2025-26&withContinuity=true`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.entries.map((e: { month: string }) => e.month)).toEqual(['April', 'May', 'June', 'July', 'August']);
    expect(body.previousBalance).toEqual({ monthlyOutstanding: '0.00', yearlyOutstanding: '0.00', balance: '0.00', balances: [] });
  });

  it('answers 401 without a token', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/monthly-fee-entries?studentId=${studentId}` });
    expect(res.statusCode).toBe(401);
  });
});
