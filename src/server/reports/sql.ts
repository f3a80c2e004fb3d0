import { sql, type SQL } from 'drizzle-orm';
import { CLASSES } from '../../domain/classes';

/**
 * A receipt line counts unless its receipt was cancelled (ruling 2). Written as an anti-join against
 * the school's few cancelled receipts (a small partial index), so a report over millions of lines
 * never looks up each line's receipt. `alias` is the receipt_lines alias of the query.
 */
export const isLive = (schoolId: string, alias = 'l'): SQL =>
  sql`not exists (select 1 from receipts rc where rc.school_id = ${schoolId} and rc.status = 'cancelled' and rc.id = ${sql.raw(alias)}.receipt_id)`;


/**
 * A line is income of its day: live, and not an opening entry (months paid before go-live, recorded
 * on receipts of source `opening`, decision 0027). Day book, collections and the financial report
 * use this; balances and fee status use `isLive`, because opening entries do settle dues.
 */
export const isIncome = (schoolId: string, alias = 'l'): SQL =>
  sql`not exists (select 1 from receipts rc where rc.school_id = ${schoolId} and (rc.status = 'cancelled' or rc.source = 'opening') and rc.id = ${sql.raw(alias)}.receipt_id)`;

/** Live lines of opening receipts: the months paid before go-live, shown apart from income. */
export const isOpeningEntry = (schoolId: string, alias = 'l'): SQL =>
  sql`exists (select 1 from receipts rc where rc.school_id = ${schoolId} and rc.status = 'live' and rc.source = 'opening' and rc.id = ${sql.raw(alias)}.receipt_id)`;

/** The class's place in the one class order (ruling 7), for ORDER BY; unknown names last. */
export const classRank = (column: SQL) =>
  sql`coalesce(array_position(${`{${CLASSES.map((c) => `"${c}"`).join(',')}}`}::text[], ${column}), 99)`;
