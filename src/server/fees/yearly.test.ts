import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptLines } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from './test-fixtures';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Meera Iyer', className: 'Class 5' })).id;
});
afterAll(() => ctx.close());

const lines = async () => Number((await ctx.database.db.select({ n: count() }).from(receiptLines))[0]!.n);

describe('yearly fee entries', () => {
  it('reads an empty entry with the class structure before anything is paid', async () => {
    const res = await school.api.get(`/api/yearly-fee-entries?studentId=${studentId}&year=2025-2026`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ studentId, academicYear: '2025-2026', exists: false, admissionFee: null, examFee: null, lockedFees: [], version: 0 });
    expect(body.structure).toMatchObject({ yearlyFee: '5000.00', examFee: '800.00', booksFee: '2500.00', uniformFee: '1800.00', miscFee: '400.00' });
  });

  it('asks for at least one amount', async () => {
    const res = await school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', admissionFee: '', examFee: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Please enter at least one fee amount before saving.');
  });

  it('saves the entered cards as one YRL receipt and locks only those', async () => {
    const res = await school.api.post('/api/yearly-fee-entries', {
      studentId,
      academicYear: '2025-2026',
      admissionFee: '5000',
      admissionDate: '2025-04-05',
      examFee: 800,
      examDate: '2025-09-01',
      booksFee: null,
      booksDate: null,
      uniformFee: '',
      miscFee: null,
      submittedAt: '2025-11-15T06:00:00.000Z',
      clientId: 'yearly-1',
      version: 1,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Yearly fee data saved successfully!');
    expect(body.receipt.receiptNumber).toBe('YRL/2025-26/000001');
    expect(body.receipt.total).toBe('5800.00');
    expect(body.entry).toMatchObject({ exists: true, admissionFee: '5000.00', admissionDate: '2025-04-05', examFee: '800.00', booksFee: null, lockedFees: ['admission', 'exam'] });

    const again = await school.api.post('/api/yearly-fee-entries', {
      studentId,
      academicYear: '2025-2026',
      admissionFee: '5000',
      admissionDate: '2025-04-05',
      examFee: 800,
      examDate: '2025-09-01',
      clientId: 'yearly-1',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().replayed).toBe(true);
    expect(again.json().receipt.receiptNumber).toBe('YRL/2025-26/000001');
  });

  it('refuses to change a saved card with the spec message, and saves empty cards alongside the saved ones', async () => {
    const before = await lines();
    const changed = await school.api.post('/api/yearly-fee-entries', {
      studentId,
      academicYear: '2025-2026',
      admissionFee: '4500',
      booksFee: 2500,
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error).toBe('This yearly fee cannot be modified once entered for the current academic year.');
    const exam = await school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', examFee: 900 });
    expect(exam.json().error).toBe('This exam fee cannot be modified once entered for the current academic year.');
    expect(await lines()).toBe(before);

    const books = await school.api.post('/api/yearly-fee-entries', {
      studentId,
      academicYear: '2025-2026',
      admissionFee: '5000.00',
      admissionDate: '2025-04-05',
      examFee: '800',
      booksFee: '2500',
      booksDate: '2025-06-15',
    });
    expect(books.statusCode).toBe(201);
    expect(books.json().receipt.receiptNumber).toBe('YRL/2025-26/000002');
    expect(books.json().receipt.lines).toHaveLength(1);
    expect(books.json().entry.lockedFees).toEqual(['admission', 'exam', 'books']);

    const read = await school.api.get(`/api/yearly-fee-entries?studentId=${studentId}&year=2025-26`);
    expect(read.json()).toMatchObject({ admissionFee: '5000.00', examFee: '800.00', booksFee: '2500.00', booksDate: '2025-06-15', uniformFee: null, version: 3 });
  });

  it('refuses bad amounts and dates, and another school\'s student, writing nothing', async () => {
    const before = await lines();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ uniformFee: '-1800' }, 400, 'Uniform fee cannot be negative'],
      [{ uniformFee: '1800.001' }, 400, 'Uniform fee can have at most two decimals (whole paise)'],
      [{ miscFee: '99999999' }, 400, 'Misc fee cannot be more than ₹1,00,00,000.00 on one fee line'],
      [{ miscFee: 'NaN' }, 400, 'Misc fee has letters in it; type the amount in digits, e.g. 1500 or 1,500.50'],
      [{ uniformFee: 1800, uniformDate: '2026-04-02' }, 400, 'The date for the uniform fee (2026-04-02) cannot be in the future'],
      [{ uniformFee: 1800, uniformDate: '2024-12-31' }, 400, 'The date for the uniform fee (2024-12-31) is outside the 2025-2026 session (2025-04-01 to 2026-03-31)'],
    ];
    for (const [change, status, message] of cases) {
      const res = await school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(status);
      expect(res.json().error).toBe(message);
    }
    const foreign = await other.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', uniformFee: 1800 });
    expect(foreign.statusCode).toBe(404);
    const foreignRead = await other.api.get(`/api/yearly-fee-entries?studentId=${studentId}&year=2025-2026`);
    expect(foreignRead.statusCode).toBe(404);
    expect(await lines()).toBe(before);
  });

  it('₹12 paid against ₹1,800 uniform shows Partial ₹12 of ₹1,800 and keeps the rest collectable on the same card', async () => {
    const first = await school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', uniformFee: '12' });
    expect(first.statusCode).toBe(201);
    expect(first.json().entry.lockedFees).not.toContain('uniform');
    expect(first.json().entry.partialFees).toEqual([{ head: 'uniform', received: '12.00', due: '1800.00', remaining: '1788.00' }]);
    // more than is left is refused (ruling 26); the rest is taken and the card locks
    const over = await school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', uniformFee: '1788.01' });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toBe('Uniform Fee for 2025-2026: only ₹1,788.00 is still due (₹12.00 received of ₹1,800.00); ₹1,788.01 is more than that.');
    const rest = await school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', uniformFee: '1788' });
    expect(rest.statusCode).toBe(201);
    expect(rest.json().entry).toMatchObject({ uniformFee: '1800.00', partialFees: [] });
    expect(rest.json().entry.lockedFees).toContain('uniform');
    const again = await school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', uniformFee: '5' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This uniform fee cannot be modified once entered for the current academic year.');
  });
});
