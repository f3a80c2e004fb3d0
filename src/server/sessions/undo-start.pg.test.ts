import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { createTestApp, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';
import { schoolBeforeStart } from './test-start';

/**
 * A start is undone only until the new session's first receipt (issue 11). A receipt being saved
 * while the undo is asked must either be found by the undo's check, which then refuses, or wait for
 * the undo and be saved after it; never be saved in between, against balances the undo removes.
 * The receipt is held at its write of the running balances by a lock the test takes on that table.
 * PostgreSQL only: the embedded database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof schoolBeforeStart>>['school'];
let asha: string;
let nextId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-23T06:00:00.000Z') });
  let ids: Record<string, string>;
  ({ school, ids, nextId } = await schoolBeforeStart(ctx, ['Asha Kaul']));
  asha = ids['Asha Kaul']!;
  const started = await school.api.post(`/api/academic-sessions/${nextId}/start`, {});
  expect(started.statusCode, started.body).toBe(200);
});
afterAll(() => ctx.close());

const waiting = (event: string) => lockWaiters(ctx.database.db, [event]);


describe('undoing a start while a receipt is being saved', () => {
  it('finds the receipt and keeps the start, with the carried balance paid down', async () => {
    type Answer = { statusCode: number; body: string; json: () => { error?: string; receipt?: { receiptNumber: string } } };
    let paid: Answer | undefined;
    let undone: Answer | undefined;
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table student_session_balances in share mode`);
      void school.api.post('/api/fees', { studentId: asha, fees: [{ type: 'previous_balance', amount: '1000' }] }).then((r) => (paid = r));
      // the receipt is written and stands at its running balances
      await until(async () => (await waiting('relation')) === 1);
      expect(paid).toBeUndefined();
      void school.api.post(`/api/academic-sessions/${nextId}/undo-start`, {}).then((r) => (undone = r));
      // the undo waits for the ledger (the code before had checked for receipts already)
      await until(async () => undone !== undefined || (await waiting('advisory')) === 1);
    });
    await until(async () => paid !== undefined && undone !== undefined);
    expect(paid?.statusCode, paid?.body).toBe(201);
    expect(paid?.json().receipt?.receiptNumber).toBe('FEE/2026-27/000001');
    expect(undone?.statusCode, undone?.body).toBe(409);
    expect(undone?.json().error).toBe('Receipt FEE/2026-27/000001 was saved after 2027-2028 started: the start can no longer be undone.');

    // the start stands: Asha is in Class 6 of 2027-2028, and of the ₹12,000 carried ₹11,000 is left
    const student = (await school.api.get(`/api/students/${asha}`)).json();
    expect(student).toMatchObject({ class: 'Class 6' });
    const balances = (await school.api.get('/api/student-previous-balances')).json();
    expect(balances.map((b: { studentName: string; balance: string }) => [b.studentName, b.balance])).toEqual([['Asha Kaul', '11000.00']]);
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
  });
});
