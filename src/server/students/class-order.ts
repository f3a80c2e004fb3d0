import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { CLASSES } from '../../domain/classes';

// the class names are constants of the product, so they can be written into the statement
const CLASS_ARRAY = sql.raw(`ARRAY[${CLASSES.map((c) => `'${c}'`).join(', ')}]::text[]`);

/** Sorts rows by the one class order of ruling 7 (Nursery … Class 12), unknown names last. */
export function classOrderSql(column: AnyColumn | SQL): SQL<number> {
  return sql<number>`coalesce(array_position(${CLASS_ARRAY}, ${column}), 99)`;
}
