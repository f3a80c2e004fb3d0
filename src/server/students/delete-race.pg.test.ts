import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/harness';
import { lockWaiters, schoolWithOneStudent, until } from '../test/races';
import { DELETED_MESSAGE, HAS_MONEY_MESSAGE } from './routes';

/**
 * A student deleted while a receipt or an edit for them is being saved. The save read the student
 * before the delete began; the delete waits for the save's hold on the student (the student's ledger
 * lock), so the save finishes and the delete then sees what it wrote: a receipt refuses the delete,
 * an edit is deleted with the student. Neither save meets a student deleted under it (a 500). The
 * test holds each save at its write with a lock on the table it writes. PostgreSQL only: the
 * embedded database runs one statement at a time.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
});
afterAll(() => ctx.close());

const waiting = (event: string) => lockWaiters(ctx.database.db, [event]);

type Answer = { statusCode: number; body: string; json: () => Record<string, unknown> };

/**
 * Holds `table` in SHARE mode while `save` runs into it, then sends the delete and lets both go once
 * the delete waits for the save (or, without that wait, has answered).
 */
async function deleteDuringSave(table: 'receipts' | 'roll_counters', save: () => Promise<Answer>, remove: () => Promise<Answer>) {
  let saved: Answer | undefined;
  let deleted: Answer | undefined;
  await ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${sql.identifier(table)} in share mode`);
    void save().then((r) => (saved = r));
    await until(async () => (await waiting('relation')) === 1);
    expect(saved).toBeUndefined();
    void remove().then((r) => (deleted = r));
    await until(async () => deleted !== undefined || (await waiting('advisory')) === 1);
  });
  await until(() => saved !== undefined && deleted !== undefined);
  return { saved: saved!, deleted: deleted! };
}

describe('a student deleted while a save for them is running', () => {
  it('a receipt being saved is kept and the delete is refused with the fee-records message', async () => {
    const { school, studentId } = await schoolWithOneStudent(ctx);
    const { saved, deleted } = await deleteDuringSave(
      'receipts',
      () => school.api.post('/api/fees', { studentId, fees: [{ type: 'monthly', amount: '1500' }], paymentMode: 'cash' }),
      () => school.api.delete(`/api/students/${studentId}`),
    );
    expect(saved.statusCode, saved.body).toBe(201);
    expect(deleted.statusCode, deleted.body).toBe(409);
    expect(deleted.json()).toEqual({ error: HAS_MONEY_MESSAGE });
    const list = (await school.api.get('/api/students')).json() as Array<{ id: string }>;
    expect(list.map((s) => s.id)).toEqual([studentId]);
    const status = (await school.api.get(`/api/students/${studentId}/fee-status`)).json() as { receipts: unknown[] };
    expect(status.receipts).toHaveLength(1);
  });

  it('an edit being saved is kept until the delete, which then removes the student', async () => {
    const { school, studentId } = await schoolWithOneStudent(ctx, { name: 'Kabir Lone' });
    const { saved, deleted } = await deleteDuringSave(
      'roll_counters',
      () => school.api.put(`/api/students/${studentId}`, { name: 'Kabir Ahmad Lone', class: 'Class 5', section: 'A', rollNumber: 1 }),
      () => school.api.delete(`/api/students/${studentId}`),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ id: studentId, name: 'Kabir Ahmad Lone' });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ message: DELETED_MESSAGE });
    expect((await school.api.get(`/api/students/${studentId}`)).statusCode).toBe(404);
  });
});
