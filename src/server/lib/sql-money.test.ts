import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paise, toRupeeString } from '../../domain/money';
import type { Database } from '../db/client';
import { openTestDatabase } from '../test/harness';
import { rupeeStringSql } from './sql-money';
import { rowsOf } from './sql-rows';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('rupeeStringSql', () => {
  it('writes every amount as toRupeeString does', async () => {
    const amounts = [0, 1, 5, 10, 99, 100, 105, 150000, 1234567, 1000000000, -1, -5, -100, -123405, 900719925474099];
    const rows = rowsOf<{ text: string }>(
      await database.db.execute(sql`
        select ${rupeeStringSql(sql`a.amount`)} as text
        from unnest(${`{${amounts.join(',')}}`}::bigint[]) with ordinality as a(amount, i) order by a.i`),
    );
    expect(rows.map((r) => r.text)).toEqual(amounts.map((a) => toRupeeString(paise(a))));
    expect(rows.map((r) => r.text).slice(0, 8)).toEqual(['0.00', '0.01', '0.05', '0.10', '0.99', '1.00', '1.05', '1500.00']);
  });
});
