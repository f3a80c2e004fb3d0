import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';
import { rebuildSchoolBalances } from './refresh';

/**
 * Schools that have students but no running balances yet: those whose data predates the tables
 * (migration 0026), or restored from a backup made before it. Rebuilt once at server start, a
 * school per transaction, before any request is served; afterwards every write keeps them.
 */
export async function backfillBalances(db: Db, log: (line: string) => void = () => {}): Promise<number> {
  const schools = rowsOf<{ id: string }>(
    await db.execute(sql`
      select s.id from schools s
      where exists (select 1 from students st where st.school_id = s.id)
        and not exists (select 1 from student_balances b where b.school_id = s.id)`),
  );
  for (const { id } of schools) {
    await db.transaction((tx) => rebuildSchoolBalances(tx, id));
    log(`running balances built for school ${id}`);
  }
  return schools.length;
}
