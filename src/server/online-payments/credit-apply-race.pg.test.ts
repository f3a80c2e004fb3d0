import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receipts, students } from '../db/schema';
import { lockStudentLedger } from '../fees/locks';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';
import { studentWithCredit } from './test-credit';

/**
 * Credit applied while the student's record is being corrected: the receipt names the student as
 * the correction left them. The test's transaction plays the edit: it holds the student's ledger
 * lock (as every student edit does), renames the student and commits while the apply waits.
 * PostgreSQL only: the embedded database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  ({ school, studentId } = await studentWithCredit(ctx, 'Ishan Mir'));
});
afterAll(() => ctx.close());

describe('credit applied while the student is renamed', () => {
  it('prints the name the edit committed on the receipt', async () => {
    let answer: { statusCode: number; json: () => { receiptId: string } } | undefined;
    await ctx.database.db.transaction(async (tx) => {
      await lockStudentLedger(tx, { schoolId: school.schoolId, studentId });
      void school.api.post(`/api/students/${studentId}/credit/apply`, { feeType: 'bus', feeMonth: '2025-08', amount: '600' }).then((r) => (answer = r));
      await until(async () => (await lockWaiters(ctx.database.db, ['advisory'])) === 1);
      await tx.update(students).set({ name: 'Ishaan Mir' }).where(and(eq(students.schoolId, school.schoolId), eq(students.id, studentId)));
    });
    await until(() => answer !== undefined);
    expect(answer!.statusCode).toBe(201);
    const [receipt] = await ctx.database.db
      .select({ name: receipts.studentName, total: receipts.totalPaise })
      .from(receipts)
      .where(and(eq(receipts.schoolId, school.schoolId), eq(receipts.id, answer!.json().receiptId)));
    expect(receipt).toEqual({ name: 'Ishaan Mir', total: 60000 });
    const credit = rowsOf<{ left: number }>(await ctx.database.db.execute(sql`select sum(amount_paise)::int as left from student_credit_entries where student_id = ${studentId}`));
    expect(credit[0]!.left).toBe(90000);
  });
});
