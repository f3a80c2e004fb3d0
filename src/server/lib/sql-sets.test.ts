import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { openTestDatabase } from '../test/harness';
import { inIds, notInIds } from './sql-sets';
import { rowsOf } from './sql-rows';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

// the uuid PostgreSQL's md5(n::text)::uuid gives, computed here
const uuidOf = (n: number) => createHash('md5').update(String(n)).digest('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

describe('inIds / notInIds', () => {
  it('filters by more ids than a statement may have parameters (a whole school of 70,000 students)', async () => {
    // drizzle's inArray binds one parameter per id and PostgreSQL stops at 65,535 of them
    const ids = Array.from({ length: 70_000 }, (_, k) => uuidOf(k + 1));
    const column = sql`md5(g::text)::uuid`;
    const [inside] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from generate_series(1, 70010) g where ${inIds(column, ids)}`));
    const [outside] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from generate_series(1, 70010) g where ${notInIds(column, ids)}`));
    expect(inside!.n).toBe(70_000);
    expect(outside!.n).toBe(10);
  });

  it('matches nothing for no ids, and everything is outside them', async () => {
    const column = sql`md5(g::text)::uuid`;
    const [inside] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from generate_series(1, 5) g where ${inIds(column, [])}`));
    const [outside] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from generate_series(1, 5) g where ${notInIds(column, [])}`));
    expect(inside!.n).toBe(0);
    expect(outside!.n).toBe(5);
  });
});
