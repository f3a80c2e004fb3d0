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

/**
 * The days of a period in `income_days` (decision 0089), as `d`: each day's income per head (lines
 * that `isIncome` counts) and the part paid from credit, kept by the database with the ledger. Sum
 * `d.amount_paise` (or `d.credit_paise`) for a period's income: a year of a 60,000-student school is
 * some 10,000 rows where its lines are 1.3 million. `to` may be an expression (a month's last day).
 */
export const incomeDaysIn = (schoolId: string, from: string, to: string | SQL): SQL =>
  sql`income_days d where d.school_id = ${schoolId} and d.paid_on between ${from}::date and ${typeof to === 'string' ? sql`${to}::date` : to}`;

/** Live lines of opening receipts: the months paid before go-live, shown apart from income. */
export const isOpeningEntry = (schoolId: string, alias = 'l'): SQL =>
  sql`exists (select 1 from receipts rc where rc.school_id = ${schoolId} and rc.status = 'live' and rc.source = 'opening' and rc.id = ${sql.raw(alias)}.receipt_id)`;

/** The class's place in the one class order (ruling 7), for ORDER BY; unknown names last. */
export const classRank = (column: SQL) =>
  sql`coalesce(array_position(${`{${CLASSES.map((c) => `"${c}"`).join(',')}}`}::text[], ${column}), 99)`;
