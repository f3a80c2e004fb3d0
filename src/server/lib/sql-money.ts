import { sql, type SQL } from 'drizzle-orm';

/**
 * An amount in paise (a bigint expression) as the API writes it on the wire, in SQL: exactly what
 * `toRupeeString` gives (`-1234.05`, `0.00`), for answers PostgreSQL builds as JSON text itself.
 * `sql-money.test.ts` holds the two to the same text.
 */
export const rupeeStringSql = (paise: SQL): SQL => sql`(
  case when (${paise})::bigint < 0 then '-' else '' end
  || (abs((${paise})::bigint) / 100)::text || '.' || lpad((abs((${paise})::bigint) % 100)::text, 2, '0'))`;
