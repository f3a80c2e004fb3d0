import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';

/**
 * Two people editing one expense at once: the audit log's "before" of each edit is what that edit
 * replaced, so the trail reads 4,100 → 4,150 → 4,200 (or the other way), never two edits both "from
 * 4,100". The edits are held by a lock the test takes on the expense's row. PostgreSQL only: the
 * embedded database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T05:30:00.000Z') });
  school = await signUpSchool(ctx);
});
afterAll(() => ctx.close());

describe('an expense edited by two people at once', () => {
  it("records each edit's before as the figures it replaced", async () => {
    const electricity = { category: 'Utilities', description: 'Electricity October', date: '2026-10-31' };
    const created = (await school.api.post('/api/expenses', { ...electricity, amount: '4100' })).json() as { id: string };
    const answers: Array<{ statusCode: number }> = [];
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from expenses where id = ${created.id} for update`);
      void school.api.put(`/api/expenses/${created.id}`, { ...electricity, amount: '4150' }).then((r) => answers.push(r));
      // the first waits for the holder's transaction, the second behind it for the row
      await until(async () => (await lockWaiters(ctx.database.db, ['transactionid', 'tuple'])) === 1);
      void school.api.put(`/api/expenses/${created.id}`, { ...electricity, amount: '4200' }).then((r) => answers.push(r));
      await until(async () => (await lockWaiters(ctx.database.db, ['transactionid', 'tuple'])) === 2);
    });
    await until(() => answers.length === 2);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);

    const edits = await ctx.database.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'expense'), eq(auditLog.entityId, created.id), eq(auditLog.action, 'expense.update')))
      .orderBy(auditLog.id);
    const amounts = edits.map((e) => [(e.before as { amount: string }).amount, (e.after as { amount: string }).amount]);
    expect(amounts).toHaveLength(2);
    // one chain from the first figure to the last the list shows
    const last = (await school.api.get(`/api/expenses/${created.id}`)).json().amount as string;
    expect(amounts[0]![0]).toBe('4100.00');
    expect(amounts[1]![0]).toBe(amounts[0]![1]);
    expect(amounts[1]![1]).toBe(last);
  });
});
