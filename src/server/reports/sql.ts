import { sql, type SQL } from 'drizzle-orm';
import { CLASSES } from '../../domain/classes';

/** Live receipt lines only (ruling 2): cancelled receipts never count. */
export const liveLines = (schoolId: string) => sql`
  receipt_lines l join receipts r on r.id = l.receipt_id and r.status = 'live' and r.school_id = ${schoolId}`;

/** The class's place in the one class order (ruling 7), for ORDER BY; unknown names last. */
export const classRank = (column: SQL) =>
  sql`coalesce(array_position(${`{${CLASSES.map((c) => `"${c}"`).join(',')}}`}::text[], ${column}), 99)`;

export const MONTHLY_HEADS_SQL = sql`('tuition', 'bus')`;
