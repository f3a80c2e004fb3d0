import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';

/**
 * Two administrators saving different collection settings at once: each keeps what the other set.
 * Both saves are held by a lock the test takes on the settings row. PostgreSQL only: the embedded
 * database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;

beforeAll(async () => {
  ctx = await createTestApp();
  school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  // the row exists, as after the settings page was first opened
  expect((await school.api.get('/api/settings/payments')).statusCode).toBe(200);
});
afterAll(() => ctx.close());

/** saves waiting for the row: the first for the holder's transaction, the next behind it for the row itself */
const waiting = () => lockWaiters(ctx.database.db, ['transactionid', 'tuple']);

describe('payment settings saved by two people at once', () => {
  it('keeps the webhook secret one set and the UPI id the other set', async () => {
    const answers: Array<{ statusCode: number; body: string }> = [];
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from school_payment_settings where school_id = ${school.schoolId} for update`);
      void school.api.put('/api/settings/payments', { razorpayWebhookSecret: 'whsec-green-valley-2026' }).then((r) => answers.push(r));
      void school.api.put('/api/settings/payments', { upiVpa: 'greenvalley@sbi', upiPayeeName: 'Green Valley School' }).then((r) => answers.push(r));
      await until(async () => (await waiting()) >= 2);
    });
    await until(() => answers.length === 2);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const settings = (await school.api.get('/api/settings/payments')).json();
    expect(settings).toMatchObject({ webhookSecretSet: true, upiVpa: 'greenvalley@sbi', upiPayeeName: 'Green Valley School' });
  });
});
