import { sql, type SQL } from 'drizzle-orm';
import { CLASSES } from '../../domain/classes';

/**
 * A receipt line counts unless its receipt was cancelled (ruling 2). Written as an anti-join against
 * the school's few cancelled receipts (a small partial index), so a report over millions of lines
 * never looks up each line's receipt. `alias` is the receipt_lines alias of the query.
 */
export const isLive = (schoolId: string, alias = 'l'): SQL =>
  sql`not exists (select 1 from receipts rc where rc.school_id = ${schoolId} and rc.status = 'cancelled' and rc.id = ${sql.raw(alias)}.receipt_id)`;


/** The class's place in the one class order (ruling 7), for ORDER BY; unknown names last. */
export const classRank = (column: SQL) =>
  sql`coalesce(array_position(${`{${CLASSES.map((c) => `"${c}"`).join(',')}}`}::text[], ${column}), 99)`;
