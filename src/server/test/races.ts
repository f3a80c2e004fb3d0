import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';
import { rowsOf } from '../lib/sql-rows';
import { signUpSchool, type TestContext } from './harness';

/**
 * For tests of two requests at once on PostgreSQL (`*.pg.test.ts`): the test holds a lock of its own
 * (a table's, a row's, an advisory lock) so a request stops at a known step, starts the other, and
 * sees from `pg_stat_activity` where each waits before letting them go.
 */

/** How many connections of the test's database wait for a lock of one of these kinds (`wait_event`: relation, advisory, transactionid, tuple). */
export async function lockWaiters(db: Db, events: readonly string[]): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and wait_event = any(${`{${events.join(',')}}`}::text[])`);
  return rowsOf<{ n: number }>(result)[0]!.n;
}

/** Waits until `done` holds, looking every 10 ms for some `seconds` (five by default); then goes on either way (the test's own checks decide). */
export async function until(done: () => boolean | Promise<boolean>, seconds = 5): Promise<void> {
  for (let i = 0; i < seconds * 100 && !(await done()); i++) await new Promise((r) => setTimeout(r, 10));
}

/** A Premium school in session 2025-2026 with Class 5 at `tuition` rupees a month and one student in it. */
export async function schoolWithOneStudent(ctx: TestContext, { tuition = 1500, name = 'Kabir Lone' }: { tuition?: number; name?: string } = {}) {
  const school = await signUpSchool(ctx, { selectedPlan: 'premium' });
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 5', tuition });
  const [row] = await seedStudents(db, { schoolId: school.schoolId, sessionId: session.id, people: [{ name, className: 'Class 5' }] });
  return { school, studentId: row!.id };
}
