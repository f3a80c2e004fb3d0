import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockStudentLedger } from '../fees/locks';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';

/**
 * The same opening-balance file imported twice at once (pressed twice, or two people): the first
 * enters it, the second reports the students as skipped, not as errors. The test holds the first
 * student's ledger lock so both imports wait there. PostgreSQL only: the embedded database runs one
 * statement at a time.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let zoya: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  zoya = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Zoya Mir', className: 'Class 5' })).id;
  await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Meher Dar', className: 'Class 5' });
});
afterAll(() => ctx.close());

describe('one opening-balance file imported twice at once', () => {
  it('enters it once; the other import lists the students as skipped', async () => {
    const csv = ['name,class,tuition,lump_sum', 'Zoya Mir,Class 5,2000,', 'Meher Dar,Class 5,,1250.50'].join('\n');
    const answers: Array<{ message: string; imported: number; skipped: Array<{ name: string }>; errors: unknown[] }> = [];
    await ctx.database.db.transaction(async (tx) => {
      await lockStudentLedger(tx, { schoolId: school.schoolId, studentId: zoya });
      for (let i = 0; i < 2; i++) void school.api.post('/api/opening-balances/import', { csv }).then((r) => answers.push(r.json()));
      await until(async () => (await lockWaiters(ctx.database.db, ['advisory'])) === 2);
    });
    await until(() => answers.length === 2);
    const [first, second] = [...answers].sort((a, b) => b.imported - a.imported);
    expect(first).toMatchObject({ message: '2 students imported.', imported: 2, errors: [] });
    expect(second).toMatchObject({ message: '0 students imported, 2 skipped (already had opening entries).', imported: 0, errors: [] });
    expect(second!.skipped.map((s) => s.name)).toEqual(['Zoya Mir', 'Meher Dar']);
    expect((await school.api.get(`/api/students/${zoya}/opening`)).json().arrears).toHaveLength(1);
  });
});
