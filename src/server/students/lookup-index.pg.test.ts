import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS5_2025, seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, openTestDatabase, signUpSchool, type TestContext } from '../test/harness';

/**
 * Decision 0056: the name lookup's trigram index keeps no pending list. With PostgreSQL's default
 * (fastupdate on) every new student's trigrams waited in a list that every search read in full until
 * a vacuum merged it: at 60,000 students, after a bulk import elsewhere, 183 pages of it made a
 * lookup by admission number cost PostgreSQL 3.6 ms instead of 0.17 ms. PostgreSQL only: the
 * embedded database has no trigram index (decision 0042).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z'), database: await openTestDatabase() });
});
afterAll(() => ctx.close());

describe("the name lookup's trigram index", () => {
  it('takes new students into its tree at once, so no search reads a pending list', async () => {
    const school = await signUpSchool(ctx);
    const db = ctx.database.db;
    const session = await seedSession(db, { schoolId: school.schoolId });
    await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
    const people = Array.from({ length: 40 }, (_, i) => ({ name: `Pending Check ${i}`, className: 'Class 5', busFee: 0 }));
    await seedStudents(db, { schoolId: school.schoolId, sessionId: session.id, people });
    // what a vacuum would have to merge: the pages still waiting in the pending list
    const [waiting] = rowsOf<{ pages: number }>(await db.execute(sql`select gin_clean_pending_list('students_school_name_trgm_idx'::regclass)::int as pages`));
    expect(waiting!.pages).toBe(0);
    const [options] = rowsOf<{ options: string[] }>(await db.execute(sql`select reloptions as options from pg_class where relname = 'students_school_name_trgm_idx'`));
    expect(options!.options).toContain('fastupdate=off');
    // and the lookup finds them
    const found = await school.api.get('/api/students?q=check 39');
    expect(found.json().map((s: { name: string }) => s.name)).toEqual(['Pending Check 39']);
  });
});
