import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';

/**
 * The named statements on the connection `db` runs on whose text is `like` every pattern and
 * `notLike` none, and the generic and custom plans PostgreSQL made for them (the tests of which
 * statements run their generic plans: decisions 0079, 0081, 0084, 0087, 0088). PostgreSQL only, and
 * meaningful on a pool of ONE connection, where the app's statements and this read meet.
 */
export async function plansOf(db: Db, { like, notLike = [] }: { like: string[]; notLike?: string[] }): Promise<{ generic: number; custom: number; statements: number }> {
  const conditions = [...like.map((p) => sql`statement like ${p}`), ...notLike.map((p) => sql`statement not like ${p}`)];
  const [plans] = rowsOf<{ generic: number; custom: number; statements: number }>(
    await db.execute(sql`
      select coalesce(sum(generic_plans), 0)::int as generic, coalesce(sum(custom_plans), 0)::int as custom, count(*)::int as statements
      from pg_prepared_statements where ${sql.join(conditions, sql` and `)}`),
  );
  return plans!;
}
