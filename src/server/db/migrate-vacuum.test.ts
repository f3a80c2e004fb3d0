import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { seedPlans } from '../plans/queries';
import { olderMigrations, openTestDatabase } from '../test/harness';
import { migrateDatabase } from './client';

const scratch = mkdtempSync(path.join(tmpdir(), 'ledger-migrate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const visibility = async (db: Awaited<ReturnType<typeof openTestDatabase>>['db']) =>
  (
    await db.execute<{ pages: number; visible: number }>(
      sql`select relpages as pages, relallvisible as visible from pg_class where oid = 'students'::regclass`,
    )
  ).rows[0]!;

describe('an upgrade that rewrites a table (decision 0091)', () => {
  it('leaves the table vacuumed, so index-only scans of students read no rows of the table', { timeout: 120_000 }, async () => {
    const database = await openTestDatabase({ empty: true });
    try {
      // a school of 3,000 students on the release before migration 0045 (which adds students.own_json,
      // a stored generated column: PostgreSQL writes the table anew)
      await migrateDatabase(database, olderMigrations(path.join(scratch, 'before-0045'), 1));
      await seedPlans(database.db);
      await database.db.execute(sql`insert into schools (id, name, email) values ('00000000-0000-4000-8000-000000000001', 'Upgrade School', 'u@example.com')`);
      await database.db.execute(sql`
        insert into students (school_id, name, class_name, section, roll_number)
        select '00000000-0000-4000-8000-000000000001', 'Student ' || g, 'Class ' || (g % 12 + 1), 'A', g from generate_series(1, 3000) g`);
      await database.db.execute(sql`vacuum (analyze) students`);
      const before = await visibility(database.db);
      expect(before.pages).toBeGreaterThan(10);
      expect(before.visible).toBe(before.pages);

      const vacuumed = await migrateDatabase(database);
      expect(vacuumed).toContain('students');
      const after = await visibility(database.db);
      // every page written by the rewrite is all-visible again (the last may still be filling)
      expect(after.visible).toBeGreaterThanOrEqual(after.pages - 1);
      expect(after.pages).toBeGreaterThan(10);
      const own = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from students where own_json like '"admissionNumber":null,%'`);
      expect(own.rows[0]!.n).toBe(3000);

      // nothing pending: nothing vacuumed
      expect(await migrateDatabase(database)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
