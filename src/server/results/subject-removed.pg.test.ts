import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';
import { createSession, enrollStudents, type FixtureStudent } from './test-fixtures';

/**
 * A subject removed from a class while marks for it are being saved. The save checked the subject
 * before the removal committed; its write then meets the foreign key. The teacher must hear what
 * happened (409) and nothing of the save is kept, not "Something went wrong" (500). The save is held
 * at its write by a lock the test takes on the results table. PostgreSQL only: the embedded
 * database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let kabir: FixtureStudent;

beforeAll(async () => {
  ctx = await createTestApp();
  school = await signUpSchool(ctx);
  const session = await createSession(ctx.database.db, { schoolId: school.schoolId, name: '2025-2026', isActive: true });
  [kabir] = (await enrollStudents(ctx.database.db, { schoolId: school.schoolId, session, className: 'Class 5', students: [{ name: 'Kabir Lone' }] })) as [FixtureStudent];
});
afterAll(() => ctx.close());

describe('a subject removed while its marks are being saved', () => {
  it('answers 409 saying so, and stores none of the marks', async () => {
    const added = await school.api.post('/api/results/subjects', { class: 'Class 5', name: 'Kashmiri' });
    expect(added.statusCode, added.body).toBe(201);
    const marks = { studentId: kabir.id, academicSession: '2025-2026', subject: 'Kashmiri', f1: '4', f2: '', f3: '', f4: '', f5: '', f6: '', ca: '15', sa: '40', remarks: '' };
    let saved: { statusCode: number; body: string; json: () => { error?: string } } | undefined;
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table results in share mode`);
      void school.api.post('/api/results/bulk', { class: 'Class 5', section: 'A', results: [marks] }).then((r) => (saved = r));
      await until(async () => (await lockWaiters(ctx.database.db, ['relation'])) === 1);
      const removed = await school.api.delete(`/api/results/subjects/${added.json().id}`);
      expect(removed.statusCode, removed.body).toBe(200);
    });
    await until(() => saved !== undefined);
    expect(saved?.statusCode, saved?.body).toBe(409);
    expect(saved?.json().error).toBe('A subject or student of these marks was removed while they were being saved. Reload the page and enter them again.');
    const stored = rowsOf<{ n: number }>(await ctx.database.db.execute(sql`select count(*)::int as n from results where school_id = ${school.schoolId}`));
    expect(stored[0]!.n).toBe(0);
  });
});
