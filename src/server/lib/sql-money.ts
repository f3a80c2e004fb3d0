import { sql, type SQL } from 'drizzle-orm';

/**
 * An amount in paise (a bigint expression) as the API writes it on the wire, in SQL: exactly what
 * `toRupeeString` gives (`-1234.05`, `0.00`), for answers PostgreSQL builds as JSON text itself.
 * `sql-money.test.ts` holds the two to the same text. An integer times 0.01 is exact with a scale of
 * two, so numeric's own output writes the two decimals (one operation where the digits written out
 * by hand took a dozen).
 */
export const rupeeStringSql = (paise: SQL): SQL => sql`((${paise})::numeric * 0.01)::text`;
