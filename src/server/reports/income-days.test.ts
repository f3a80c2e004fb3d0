import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { rowsOf } from '../lib/sql-rows';
import { openTestDatabase, signUpSchool, type TestContext } from '../test/harness';
import { class5School } from '../test/statement-log';

/**
 * Each day's income per head (decision 0089), kept by the database as receipts are written and
 * cancelled. The clock is 15 Nov 2025; Class 5 pays ₹1,500 tuition a month and ₹800 for exams.
 * On that day: an opening entry of three months paid before go-live (₹4,500, not income), six
 * students paying ₹1,500 of tuition at the same moment, one paying ₹800 for exams by UPI, and one
 * ₹1,500 receipt cancelled. Income of the day: tuition ₹9,000, exam ₹800.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let ids: string[];
const DAY = '2025-11-15';

beforeAll(async () => {
  const people = ['Kabir Lone', 'Zoya Mir', 'Meher Dar', 'Ishaan Rao', 'Tara Sen', 'Vivaan Das', 'Anaya Roy', 'Reyansh Jha', 'Saanvi Kaul'];
  ({ ctx, school, ids } = await class5School(await openTestDatabase(), people, { busFee: 0 }));
  other = await signUpSchool(ctx);
});
afterAll(() => ctx.close());

/** The school's income of the day per head, in paise, summed over the slots. */
async function incomeOfDay(schoolId: string): Promise<Record<string, number>> {
  const rows = rowsOf<{ head: string; amount: string }>(
    await ctx.database.db.execute(sql`
      select head, sum(amount_paise)::text as amount from income_days
      where school_id = ${schoolId} and paid_on = ${DAY}::date group by head having sum(amount_paise) <> 0 order by head`),
  );
  return Object.fromEntries(rows.map((r) => [r.head, Number(r.amount)]));
}

describe('income of each day per head', () => {
  it('counts live receipts, leaves out opening entries and takes a cancelled receipt back out', async () => {
    const opening = await school.api.post('/api/opening-balances', { studentId: ids[0], paidMonths: ['2025-04', '2025-05', '2025-06'] });
    expect(opening.statusCode, opening.body).toBe(201);
    expect(opening.json().receipt.total).toBe('4500.00');
    expect(await incomeOfDay(school.schoolId)).toEqual({});

    // six clerks' payments at once: each a different student, all the same day and head
    const paid = await Promise.all(
      ids.slice(3, 9).map((studentId) => school.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cash' })),
    );
    expect(paid.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    const exam = await school.api.post('/api/fees', { studentId: ids[1], fees: [{ type: 'exam', amount: '800' }], paymentMode: 'upi', upiReference: 'UPI-77' });
    expect(exam.statusCode, exam.body).toBe(201);
    const wrong = await school.api.post('/api/fees', { studentId: ids[2], fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cash' });
    expect(wrong.statusCode, wrong.body).toBe(201);
    expect(await incomeOfDay(school.schoolId)).toEqual({ tuition: 10_500_00, exam: 800_00 });

    const cancel = await school.api.post(`/api/receipts/${wrong.json().receipt.id}/cancel`, { reason: 'Entered for the wrong student' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await incomeOfDay(school.schoolId)).toEqual({ tuition: 9_000_00, exam: 800_00 });
    expect(await incomeOfDay(other.schoolId)).toEqual({});

    const report = (await school.api.get(`/api/reports/financial?fromDate=${DAY}&toDate=${DAY}`)).json();
    expect(report.summary).toMatchObject({ totalMonthlyIncome: '9000.00', totalYearlyIncome: '800.00', totalOtherIncome: '0.00', totalIncome: '9800.00' });
    expect(report.totals.monthlyFees).toEqual({ tuitionFee: '9000.00', busFee: '0.00', total: '9000.00' });
    expect(report.counts.monthlyFees).toBe(6);
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
  });

  it('verify-ledger names the day and head whose stored income differs from the lines', async () => {
    const db = ctx.database.db;
    const [row] = rowsOf<{ slot: number }>(
      await db.execute(sql`select slot from income_days where school_id = ${school.schoolId} and paid_on = ${DAY}::date and head = 'exam' and amount_paise <> 0`),
    );
    await db.execute(sql`update income_days set amount_paise = amount_paise + 1 where school_id = ${school.schoolId} and paid_on = ${DAY}::date and head = 'exam' and slot = ${row!.slot}`);
    try {
      const { differences } = await verifySchoolBalances(db, school.schoolId);
      expect(differences).toEqual([{ schoolId: school.schoolId, studentId: '(school)', sessionId: null, field: `income.${DAY}.exam`, stored: '80001', recomputed: '80000' }]);
    } finally {
      await db.execute(sql`update income_days set amount_paise = amount_paise - 1 where school_id = ${school.schoolId} and paid_on = ${DAY}::date and head = 'exam' and slot = ${row!.slot}`);
    }
    expect((await verifySchoolBalances(db, school.schoolId)).differences).toEqual([]);
  });
});
