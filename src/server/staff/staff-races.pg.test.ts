import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';
import { addStaff } from './staff-helpers';

/**
 * Staff changes made twice at once. Two schools inviting the same address at the same moment. Each checks the address under its own
 * school's lock, so both find it free; the unique index lets one in. The other must hear that the
 * address has an account (409), not "Something went wrong" (500). Both inserts are held by a lock
 * the test takes on the users table. PostgreSQL only: the embedded database runs one statement at
 * a time.
 */
let ctx: TestContext;
let first: Awaited<ReturnType<typeof signUpSchool>>;
let second: Awaited<ReturnType<typeof signUpSchool>>;

beforeAll(async () => {
  ctx = await createTestApp();
  first = await signUpSchool(ctx, { selectedPlan: 'premium' });
  second = await signUpSchool(ctx, { selectedPlan: 'premium' });
});
afterAll(() => ctx.close());

/** requests waiting for a lock: a table's, or a row's (its holder's transaction, or the row behind another waiter) */
const waiting = () => lockWaiters(ctx.database.db, ['relation', 'transactionid', 'tuple']);

describe('one address invited by two schools at once', () => {
  it('one invitation is sent; the other school is told the address already has an account', async () => {
    const answers: Array<{ statusCode: number; json: () => { error?: string; email?: string } }> = [];
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table users in share mode`);
      for (const school of [first, second]) {
        void school.api.post('/api/staff', { email: 'meena.shah@example.in', name: 'Meena Shah', role: 'accountant' }).then((r) => answers.push(r));
      }
      await until(async () => (await waiting()) >= 2);
    });
    await until(() => answers.length === 2);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().error).toBe('This email address already has an account');
    const invited = rowsOf<{ n: number }>(await ctx.database.db.execute(sql`select count(*)::int as n from users where lower(email) = 'meena.shah@example.in'`));
    expect(invited[0]!.n).toBe(1);
  });
});

describe("a teacher's classes saved twice at once", () => {
  it('end as one of the two lists, not both merged', async () => {
    const teacher = await addStaff(ctx, first, 'teacher', 'Farooq Dar');
    const lists = [[{ className: 'Class 6', section: 'A', subjects: ['Maths'] }], [{ className: 'Class 8', section: 'B', subjects: ['Science'] }]];
    const answers: Array<{ statusCode: number }> = [];
    await ctx.database.db.transaction(async (tx) => {
      // both saves reach their delete and insert (the code before), or one waits for the other
      await tx.execute(sql`lock table teacher_assignments in share mode`);
      for (const assignments of lists) void first.api.put(`/api/staff/${teacher.id}/assignments`, { assignments }).then((r) => answers.push(r));
      await until(async () => (await waiting()) >= 2);
    });
    await until(() => answers.length === 2);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const members = (await first.api.get('/api/staff')).json().members as Array<{ id: string; assignments: unknown[] }>;
    const kept = members.find((m) => m.id === teacher.id)!.assignments;
    expect(kept).toHaveLength(1);
    expect(lists).toContainEqual(kept);
  });
});

describe('an invitation resent twice at once', () => {
  it('leaves one working link, the later one', async () => {
    const invited = await first.api.post('/api/staff', { email: 'aamir.lone@example.in', name: 'Aamir Lone', role: 'clerk' });
    expect(invited.statusCode, invited.body).toBe(201);
    const userId: string = invited.json().id;
    const answers: Array<{ statusCode: number }> = [];
    await ctx.database.db.transaction(async (tx) => {
      // the first resend has issued its link and stands at queueing the mail; the second waits for it
      // (the code before: for the earlier link's row, which its void then skips as already used)
      await tx.execute(sql`lock table mail_outbox in share mode`);
      void first.api.post(`/api/staff/${userId}/resend-invite`).then((r) => answers.push(r));
      await until(async () => (await lockWaiters(ctx.database.db, ['relation'])) === 1);
      void first.api.post(`/api/staff/${userId}/resend-invite`).then((r) => answers.push(r));
      await until(async () => (await lockWaiters(ctx.database.db, ['advisory', 'transactionid'])) === 1);
    });
    await until(() => answers.length === 2);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const live = rowsOf<{ n: number }>(
      await ctx.database.db.execute(sql`select count(*)::int as n from user_tokens where user_id = ${userId} and purpose = 'invite' and used_at is null`),
    );
    expect(live[0]!.n).toBe(1);
  });
});
