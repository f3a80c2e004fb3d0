import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';
import { createSession, enrollStudents, type FixtureStudent } from './test-fixtures';

/**
 * Two teachers save the same mark of the same student and subject at the same moment, both from a
 * page that loaded it blank. Each save alone would pass the check "the stored mark is still what
 * my page loaded"; only one may. The test holds the saves at their write with a lock on the results
 * table: a save that reads the stored marks under the class's lock gets there alone (the other waits
 * for that lock), a save without it gets there with the other, both having read "blank". PostgreSQL
 * only: the embedded database runs one statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let asha: FixtureStudent;

beforeAll(async () => {
  ctx = await createTestApp();
  school = await signUpSchool(ctx);
  const session = await createSession(ctx.database.db, { schoolId: school.schoolId, name: '2025-2026', isActive: true });
  [asha] = (await enrollStudents(ctx.database.db, { schoolId: school.schoolId, session, className: 'Class 5', students: [{ name: 'Asha Kaul' }] })) as [FixtureStudent];
  // the class's subjects seeded beforehand, so neither save waits on the other's first-use seeding
  expect((await school.api.get('/api/results/subjects?class=Class%205')).statusCode).toBe(200);
});
afterAll(() => ctx.close());

const blank = { f1: '', f2: '', f3: '', f4: '', f5: '', f6: '', ca: '', sa: '' };
const f1Entry = (f1: string) => ({ studentId: asha.id, academicSession: '2025-2026', subject: 'Mathematics', ...blank, f1, loaded: blank });

describe('two saves of the same mark at once, from pages loaded before either', () => {
  it('stores one and refuses the other with 409; the stored mark is the one that was answered 200', async () => {
    type Answer = { statusCode: number; body: string; json: () => { error?: string } };
    const answers: Array<{ f1: string; res: Answer }> = [];
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table results in share mode`);
      for (const f1 of ['4', '3']) {
        void school.api.post('/api/results/bulk', { class: 'Class 5', section: 'A', results: [f1Entry(f1)] }).then((res) => answers.push({ f1, res }));
      }
      // with the lock: one save waits at its write (relation), the other for the class's lock
      // (advisory); without it both would wait at their write, each having read a blank F1
      await until(async () => (await lockWaiters(ctx.database.db, ['relation', 'advisory'])) === 2);
      expect(await lockWaiters(ctx.database.db, ['relation', 'advisory'])).toBe(2);
    });
    await until(() => answers.length === 2);
    expect(answers.map((a) => a.res.statusCode).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.res.statusCode === 200)!;
    const lost = answers.find((a) => a.res.statusCode === 409)!;
    expect(lost.res.json().error).toBe(
      `Asha Kaul — Mathematics: F1 was changed by someone else after this page was loaded (now ${won.f1}). Reload the marks to see it, then enter yours again.`,
    );
    const stored = rowsOf<{ f1: number | null }>(
      await ctx.database.db.execute(sql`select f1_halves as f1 from results where school_id = ${school.schoolId} and student_id = ${asha.id}`),
    );
    expect(stored).toEqual([{ f1: Number(won.f1) * 2 }]);
    const read = await school.api.get('/api/results?class=Class%205&section=A&academicSession=2025-2026');
    expect(read.json().results).toEqual([expect.objectContaining({ studentId: asha.id, subject: 'Mathematics', f1: won.f1 })]);
  });
});
