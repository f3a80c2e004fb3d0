import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMasterAdmin } from '../auth/master-admin';
import { client, createTestApp, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';

/**
 * Two operators each marking a different plan MOST POPULAR at once: one plan is recommended after,
 * the one saved last. Both edits are held by a lock the test takes on every plan's row.
 * PostgreSQL only: the embedded database runs one statement at a time.
 */
let ctx: TestContext;
let master: ReturnType<typeof client>;

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMasterAdmin(ctx.database.db, { email: 'master@ledger.test', password: 'MasterPass123', now: ctx.clock.now() });
  const login = await client(ctx.app).post('/api/auth/admin-login', { email: 'master@ledger.test', password: 'MasterPass123' });
  master = client(ctx.app, login.json().token);
});
afterAll(() => ctx.close());

describe('plans marked recommended by two operators at once', () => {
  it('leaves one plan recommended', async () => {
    const catalogue = (await master.get('/api/admin/plans')).json() as Array<Record<string, unknown> & { id: string; recommended: boolean }>;
    const edit = (id: string) => {
      const { name, monthlyPrice, yearlyPrice, studentLimit, features, firstTimeDiscountPercent } = catalogue.find((p) => p.id === id)!;
      return master.put(`/api/admin/plans/${id}`, { name, monthlyPrice, yearlyPrice, studentLimit, features, firstTimeDiscountPercent, recommended: true, reason: `Promote ${id} this term` });
    };
    const answers: Array<{ statusCode: number; body: string }> = [];
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from plans for update`);
      void edit('basic').then((r) => answers.push(r));
      void edit('premium').then((r) => answers.push(r));
      await until(async () => (await lockWaiters(ctx.database.db, ['transactionid', 'tuple'])) === 2);
    });
    await until(() => answers.length === 2);
    expect(answers.map((a) => a.statusCode), answers.map((a) => a.body).join()).toEqual([200, 200]);
    const after = (await master.get('/api/admin/plans')).json() as Array<{ id: string; recommended: boolean }>;
    expect(after.filter((p) => p.recommended)).toHaveLength(1);
    expect((await client(ctx.app).get('/api/plans')).json().filter((p: { recommended: boolean }) => p.recommended)).toHaveLength(1);
  });
});
