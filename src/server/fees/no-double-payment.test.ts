import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptLines, receipts } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { activatePlan, CLASS5_2025, seedSession, seedStructure, seedStudent } from './test-fixtures';

/**
 * Ruling 26: per fee head and period, what is received never exceeds what is due, whichever save
 * route writes it, and two clerks at once cannot both succeed. Class 5 pays ₹1,500 tuition a
 * month, books ₹2,500 and the yearly (admission) fee ₹5,000 once per session.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let sessionId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  await activatePlan(ctx.database.db, { schoolId: school.schoolId });
  sessionId = (await seedSession(ctx.database.db, { schoolId: school.schoolId })).id;
  await seedStructure(ctx.database.db, { schoolId: school.schoolId, ...CLASS5_2025 });
});
afterAll(() => ctx.close());

let n = 0;
const newStudent = async (busFee = 0) =>
  (await seedStudent(ctx.database.db, { schoolId: school.schoolId, sessionId, name: `Student ${++n}`, className: 'Class 5', busFee })).id;

const grid = (studentId: string, month: string, tuitionFee: string, extra: Record<string, unknown> = {}) =>
  school.api.post('/api/monthly-fee-entries/bulk', {
    studentId,
    academicYear: '2025-2026',
    entries: [{ month, year: 2025, tuitionFee, tuitionDate: '2025-11-10', ...extra }],
  });
const recordPayment = (studentId: string, fees: Array<{ type: string; amount: string; month?: string }>) =>
  school.api.post('/api/fees', { studentId, fees });
const yearly = (studentId: string, fields: Record<string, string>) =>
  school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', ...fields });

/** Live receipt money of a student per head and period, from the ledger itself. */
async function received(studentId: string): Promise<Record<string, string>> {
  const rows = await ctx.database.db
    .select({ head: receiptLines.head, period: receiptLines.period, total: sql<string>`sum(${receiptLines.amountPaise})::text` })
    .from(receiptLines)
    .innerJoin(receipts, eq(receipts.id, receiptLines.receiptId))
    .where(and(eq(receiptLines.studentId, studentId), eq(receipts.status, 'live')))
    .groupBy(receiptLines.head, receiptLines.period);
  return Object.fromEntries(rows.map((r) => [`${r.head}${r.period ? `:${r.period}` : ''}`, (Number(r.total) / 100).toFixed(2)]));
}

describe('a fee cannot be paid twice (ruling 26)', () => {
  it('a month paid at the counter cannot be paid again through Record Fee Payment', async () => {
    const id = await newStudent();
    expect((await grid(id, 'April', '1500')).statusCode).toBe(201);
    const again = await recordPayment(id, [{ type: 'monthly', amount: '1500', month: 'April 2025' }]);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(
      'Tuition Fee for April 2025 is already paid: ₹1,500.00 received of ₹1,500.00 due. A fee cannot be paid twice.',
    );
    expect(again.json()).toMatchObject({ head: 'tuition', month: '2025-04', due: '1500.00', received: '1500.00', remaining: '0.00' });
    expect(await received(id)).toEqual({ 'tuition:2025-04': '1500.00' });

    const status = (await school.api.get(`/api/students/${id}/fee-status`)).json();
    const april = status.account.months.find((m: { key: string }) => m.key === '2025-04');
    expect(april.tuition).toMatchObject({ expected: '1500.00', paid: '1500.00', outstanding: '0.00' });
  });

  it('two clerks paying the same month at the same moment: exactly one of each pair succeeds', async () => {
    for (let pair = 0; pair < 20; pair++) {
      const id = await newStudent();
      // half the pairs race the grid against Record Fee Payment, half Record Fee Payment against itself
      const first = pair % 2 === 0 ? grid(id, 'May', '1500') : recordPayment(id, [{ type: 'monthly', amount: '1500', month: '2025-05' }]);
      const second = recordPayment(id, [{ type: 'monthly', amount: '1500', month: 'May 2025' }]);
      const codes = (await Promise.all([first, second])).map((r) => r.statusCode).sort();
      expect(codes, `pair ${pair}`).toEqual([201, 409]);
      expect(await received(id)).toEqual({ 'tuition:2025-05': '1500.00' });
    }
  });

  it('Record Fee Payment refuses ₹50,000 for books against ₹2,500 due, and the admission fee twice', async () => {
    const id = await newStudent();
    const books = await recordPayment(id, [{ type: 'books', amount: '50000' }]);
    expect(books.statusCode).toBe(409);
    expect(books.json().error).toBe(
      'Books Fee for 2025-2026: only ₹2,500.00 is still due (₹0.00 received of ₹2,500.00); ₹50,000.00 is more than that.',
    );
    const twice = await recordPayment(id, [
      { type: 'admission', amount: '5000' },
      { type: 'admission', amount: '5000' },
    ]);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toContain('Yearly (Admission) Fee for 2025-2026');
    expect(await received(id)).toEqual({});

    expect((await yearly(id, { admissionFee: '5000' })).statusCode).toBe(201);
    const afterCard = await recordPayment(id, [{ type: 'admission', amount: '5000' }]);
    expect(afterCard.statusCode).toBe(409);
    expect(afterCard.json().error).toBe(
      'Yearly (Admission) Fee for 2025-2026 is already paid: ₹5,000.00 received of ₹5,000.00 due. A fee cannot be paid twice.',
    );
    expect(await received(id)).toEqual({ admission: '5000.00' });
  });

  it('a yearly head takes partial payments up to its due and not a paisa more', async () => {
    const id = await newStudent();
    expect((await recordPayment(id, [{ type: 'books', amount: '1000' }])).statusCode).toBe(201);
    expect((await recordPayment(id, [{ type: 'books', amount: '1500' }])).statusCode).toBe(201);
    const more = await recordPayment(id, [{ type: 'books', amount: '0.01' }]);
    expect(more.statusCode).toBe(409);
    expect(more.json().remaining).toBe('0.00');
    expect(await received(id)).toEqual({ books: '2500.00' });
  });

  it('the monthly grid refuses more than the month\'s tuition and a bus fee for a student without one', async () => {
    const id = await newStudent();
    const much = await grid(id, 'June', '50000');
    expect(much.statusCode).toBe(409);
    expect(much.json().error).toBe(
      'Tuition Fee for June 2025: only ₹1,500.00 is still due (₹0.00 received of ₹1,500.00); ₹50,000.00 is more than that.',
    );
    const bus = await grid(id, 'June', '1500', { busFee: '300', busDate: '2025-11-10' });
    expect(bus.statusCode).toBe(409);
    expect(bus.json().error).toBe('Bus Fee for June 2025: nothing is due, so nothing can be received for it.');
    expect(await received(id)).toEqual({});
  });

  it('the yearly cards refuse more than a head is due', async () => {
    const id = await newStudent();
    const res = await yearly(id, { booksFee: '2600' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain('Books Fee for 2025-2026: only ₹2,500.00 is still due');
    expect(await received(id)).toEqual({});
  });

  it('a monthly payment with no month settles months oldest first, each up to its due', async () => {
    const id = await newStudent(400);
    expect((await grid(id, 'April', '1500')).statusCode).toBe(201);
    const res = await recordPayment(id, [{ type: 'monthly', amount: '3500' }, { type: 'transport', amount: '400' }]);
    expect(res.statusCode).toBe(201);
    expect(res.json().receipt.fees).toEqual([
      { type: 'monthly', amount: '1500.00', month: '2025-05' },
      { type: 'monthly', amount: '1500.00', month: '2025-06' },
      { type: 'monthly', amount: '500.00', month: '2025-07' },
      { type: 'transport', amount: '400.00', month: '2025-04' },
    ]);
    // July has ₹1,000 left; of the session's ₹18,000 tuition (Apr–Mar) ₹13,000 is still due
    const full = await recordPayment(id, [{ type: 'monthly', amount: '13000.01' }]);
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toBe(
      'Tuition Fee for the 2025-2026 session: only ₹13,000.00 is still due over all its months; ₹13,000.01 is more than that.',
    );
  });

  it('a cancelled receipt opens its month again', async () => {
    const id = await newStudent();
    const first = await recordPayment(id, [{ type: 'monthly', amount: '1500', month: '2025-08' }]);
    expect(first.statusCode).toBe(201);
    const cancel = await school.api.post(`/api/receipts/${first.json().receipt.id}/cancel`, { reason: 'wrong student' });
    expect(cancel.statusCode).toBe(200);
    expect((await recordPayment(id, [{ type: 'monthly', amount: '1500', month: '2025-08' }])).statusCode).toBe(201);
    expect(await received(id)).toEqual({ 'tuition:2025-08': '1500.00' });
  });
});
