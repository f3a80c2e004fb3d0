import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { openTestDatabase } from '../test/harness';
import { inIds, notInIds, rowsTable } from './sql-sets';
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

describe('rowsTable', () => {
  it('reads back every value as it was given: quotes, commas, braces, backslashes, "NULL", Hindi, nulls, big numbers and arrays', async () => {
    const columns = [
      ['id', 'uuid'],
      ['label', 'text'],
      ['paise', 'bigint'],
      ['roll', 'integer'],
      ['on_date', 'date'],
      ['at', 'timestamp with time zone'],
      ['done', 'boolean'],
      ['months', 'bigint[]'],
      ['keys', 'text[]'],
      ['extra', 'jsonb'],
    ] as const;
    const rows = [
      [uuidOf(1), 'He said "hi", {ok}\\ back\\slash', 9_007_199_254_740_991, 7, '2026-04-01', new Date('2026-11-27T10:15:00.000Z'), true, [0, 170_000, null, -5], ['a,b', '"q"', 'NULL'], { note: 'x "y"' }],
      [uuidOf(2), 'NULL', 0, null, null, null, false, [], [], null],
      [uuidOf(3), '', -123, 2_147_483_647, '2027-03-31', new Date('2027-01-01T00:00:00.000Z'), null, null, ['अनन्या शर्मा'], [1, 'two']],
    ];
    const read = rowsOf<Record<string, unknown>>(
      await database.db.execute(sql`
        select x.id, x.label, x.paise::text as paise, x.roll, x.on_date::text as on_date, to_char(x.at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as at,
               x.done, x.months::text as months, x.keys, x.extra
        from ${rowsTable(columns, rows)} order by x.id`),
    );
    expect(read).toEqual([
      { id: uuidOf(1), label: 'He said "hi", {ok}\\ back\\slash', paise: '9007199254740991', roll: 7, on_date: '2026-04-01', at: '2026-11-27 10:15', done: true, months: '{0,170000,NULL,-5}', keys: ['a,b', '"q"', 'NULL'], extra: { note: 'x "y"' } },
      { id: uuidOf(2), label: 'NULL', paise: '0', roll: null, on_date: null, at: null, done: false, months: '{}', keys: [], extra: null },
      { id: uuidOf(3), label: '', paise: '-123', roll: 2_147_483_647, on_date: '2027-03-31', at: '2027-01-01 00:00', done: null, months: null, keys: ['अनन्या शर्मा'], extra: [1, 'two'] },
    ].sort((a, b) => a.id.localeCompare(b.id)));
  });

  it('is an empty table for no rows', async () => {
    const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from ${rowsTable([['id', 'uuid'], ['months', 'bigint[]']], [])}`));
    expect(row!.n).toBe(0);
  });
});
