import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsCopy, openTestDatabase } from '../test/harness';
import { migrateDatabase, type Db } from './client';

const scratch = mkdtempSync(path.join(tmpdir(), 'ledger-migrate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const visibility = async (db: Db) =>
  (await db.execute<{ pages: number; visible: number }>(sql`select relpages as pages, relallvisible as visible from pg_class where oid = 'students'::regclass`)).rows[0]!;

describe('an upgrade whose migration rewrites a table (decision 0091)', () => {
  it('leaves the table vacuumed: its pages all-visible again, so index-only scans read no rows of it', { timeout: 120_000 }, async () => {
    const database = await openTestDatabase();
    try {
      // a school of 3,000 students, vacuumed, as a live database is
      await database.db.execute(sql`insert into schools (id, name, email) values ('00000000-0000-4000-8000-000000000001', 'Upgrade School', 'u@example.com')`);
      await database.db.execute(sql`
        insert into students (school_id, name, class_name, section, roll_number)
        select '00000000-0000-4000-8000-000000000001', 'Student ' || g, 'Class ' || (g % 12 + 1), 'A', g from generate_series(1, 3000) g`);
      await database.db.execute(sql`vacuum (analyze) students`);
      const before = await visibility(database.db);
      expect(before.pages).toBeGreaterThan(10);
      expect(before.visible).toBe(before.pages);

      // the next release adds a stored generated column: PostgreSQL writes the table anew, with no visibility map
      const next = migrationsCopy(path.join(scratch, 'next-release'), {
        add: [{ tag: '9000_students_upper_name', sql: 'ALTER TABLE "students" ADD COLUMN "upper_name" text GENERATED ALWAYS AS (upper("name")) STORED;' }],
      });
      const vacuumed = await migrateDatabase(database, next);
      expect(vacuumed).toContain('students');
      const after = await visibility(database.db);
      expect(after.pages).toBeGreaterThan(before.pages);
      // the rewrite's pages are all-visible again (without the vacuum: none of them; the embedded
      // database leaves a page or two of the newest rows out)
      expect(after.visible).toBeGreaterThan(after.pages * 0.9);
      const upper = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from students where upper_name like 'STUDENT %'`);
      expect(upper.rows[0]!.n).toBe(3000);

      // nothing pending: nothing vacuumed
      expect(await migrateDatabase(database, next)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
