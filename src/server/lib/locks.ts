import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * A transaction-scoped lock on a name (released at commit or rollback). Used where a rule spans
 * rows that a unique index alone cannot guard, e.g. a plan's student limit: two simultaneous adds
 * must not both see room for one more student.
 */
export async function lockFor(tx: Db, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}
