import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { openTestDatabase } from '../test/harness';
import { lockStudentLedger } from '../fees/locks';
import { executeAndCommit, executePrepared, executeWithGenericPlans, inPipelinedTransaction, statement, withGenericPlans } from './prepared';
import { rowsOf } from './sql-rows';

let database: Database;
/** what the handle sent, in order (BEGIN and COMMIT of the pipelined transaction included) */
const sent: string[] = [];
beforeAll(async () => {
  database = await openTestDatabase({ logger: { logQuery: (query) => sent.push(query.trim().split(/\s+/).slice(0, 3).join(' ')) } });
});
afterAll(() => database.close());

const square = (n: number) => sql`select ${n}::int * ${n}::int as square, 'text'::text as kind, date '2026-11-27' as day`;

describe('executePrepared', () => {
  it('answers like db.execute, whatever the parameters', async () => {
    for (const n of [3, 12]) {
      const prepared = rowsOf<Record<string, unknown>>(await executePrepared(database.db, square(n)));
      const plain = rowsOf<Record<string, unknown>>(await database.db.execute(square(n)));
      expect(prepared).toEqual(plain);
      expect(prepared[0]!.square).toBe(n * n);
    }
  });

  it('PostgreSQL keeps one named statement per text on the connection, and runs it again with new parameters', async () => {
    if (database.kind !== 'postgres') return; // the embedded database has no named statements to see
    const named = await database.db.transaction(async (tx) => {
      for (const n of [2, 5, 7, 9, 11, 13]) expect(rowsOf<{ square: number }>(await executePrepared(tx, square(n)))[0]!.square).toBe(n * n);
      return rowsOf<{ name: string; statement: string }>(await tx.execute(sql`select name, statement from pg_prepared_statements where statement like '%as square%'`));
    });
    expect(named).toHaveLength(1);
    expect(named[0]!.name).toMatch(/^sl_/);
    expect(named[0]!.statement).toContain('$1::int * $2::int as square');
  });

  it('a statement assembled once with placeholders runs with each call\'s values', async () => {
    let assembled = 0;
    const cube = statement<'n' | 'label'>((p) => {
      assembled += 1;
      return sql`select ${p.n}::int * ${p.n}::int * ${p.n}::int as cube, ${p.label}::text as label`;
    });
    expect(rowsOf(await cube(database.db, { n: 2, label: 'two' }))).toEqual([{ cube: 8, label: 'two' }]);
    expect(rowsOf(await cube(database.db, { n: 5, label: 'five' }))).toEqual([{ cube: 125, label: 'five' }]);
    expect(assembled).toBe(1);
    await expect(cube(database.db, { n: 3 } as never)).rejects.toThrow('No value for placeholder "label"');
  });

  it('a statement planned for each run keeps no named statement, so PostgreSQL never swaps in a generic plan for it', async () => {
    if (database.kind !== 'postgres') return; // the embedded database has no named statements to see
    const kept = statement<'n'>((p) => sql`select ${p.n}::int + 1 as kept_plus_one`);
    const planned = statement<'n'>((p) => sql`select ${p.n}::int + 2 as planned_plus_two`, { planEachRun: true });
    const seen = await database.db.transaction(async (tx) => {
      for (const n of [1, 2, 3, 4, 5, 6, 7]) {
        expect(rowsOf<{ kept_plus_one: number }>(await kept(tx, { n }))[0]!.kept_plus_one).toBe(n + 1);
        expect(rowsOf<{ planned_plus_two: number }>(await planned(tx, { n }))[0]!.planned_plus_two).toBe(n + 2);
      }
      return rowsOf<{ statement: string; generic: number; custom: number }>(
        await tx.execute(sql`select statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like '%_plus_%' and statement not like '%pg_prepared_statements%'`),
      );
    });
    // the kept one is a named statement that PostgreSQL planned generically after five runs; the other is not kept at all
    expect(seen.map((s) => s.statement.includes('kept_plus_one'))).toEqual([true]);
    expect(seen[0]!.generic + seen[0]!.custom).toBe(7);
  });

  it('a statement with generic plans is never planned for a call\'s values, answers each call\'s values, and leaves the pool planning as PostgreSQL chooses', async () => {
    const setting = async () => rowsOf<{ mode: string }>(await database.db.execute(sql`select current_setting('plan_cache_mode') as mode`))[0]!.mode;
    const lookup = statement<'n' | 'word'>(
      (p) => sql`
        select ${p.n}::int * 3 as tripled, ${p.word}::text as word, current_setting('plan_cache_mode') as mode,
               (select coalesce(sum(custom_plans), 0)::int from pg_prepared_statements where statement like '%as tripled%') as custom`,
      { genericPlans: true },
    );
    for (const [n, word] of [[1, 'one'], [2, 'two'], [3, 'three'], [4, 'four'], [5, 'five'], [6, 'six'], [7, 'seven']] as const) {
      const [row] = rowsOf<{ tripled: number; word: string; mode: string; custom: number }>(await lookup(database.db, { n, word }));
      expect([row!.tripled, row!.word]).toEqual([n * 3, word]);
      if (database.kind === 'postgres') {
        expect(row!.mode).toBe('force_generic_plan');
        expect(row!.custom).toBe(0);
      }
    }
    // inside a transaction of the caller's, as on the embedded database, it still answers
    const [inside] = await database.db.transaction(async (tx) => rowsOf<{ tripled: number }>(await lookup(tx, { n: 9, word: 'nine' })));
    expect(inside!.tripled).toBe(27);
    for (let i = 0; i < 3; i++) expect(await setting()).toBe('auto');
  });

  it('withGenericPlans plans a prepared statement once, not for each call\'s values, and leaves the pool as it was', async () => {
    const setting = async (db: typeof database.db) => rowsOf<{ mode: string }>(await db.execute(sql`select current_setting('plan_cache_mode') as mode`))[0]!.mode;
    const stats = await withGenericPlans(database.db, async (db) => {
      for (const n of [2, 3, 4, 5, 6, 7, 8]) expect(rowsOf<{ square: number }>(await executePrepared(db, sql`select ${n}::int * ${n}::int as square, 'generic' as kind`))[0]!.square).toBe(n * n);
      return {
        mode: await setting(db),
        plans: database.kind === 'postgres' ? rowsOf<{ generic: number; custom: number }>(await db.execute(sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like '%''generic'' as kind%'`)) : [],
      };
    });
    if (database.kind === 'postgres') {
      expect(stats.mode).toBe('force_generic_plan');
      // seven runs, no plan made for any run's values
      expect(stats.plans).toEqual([{ generic: 7, custom: 0 }]);
    }
    // the setting ended with the work: the pool's connections plan as PostgreSQL chooses
    for (let i = 0; i < 3; i++) expect(await setting(database.db)).toBe('auto');
  });

  it('executeWithGenericPlans runs one statement with generic plans, answers as Drizzle would, and leaves nothing open, failed or not', async () => {
    const setting = async () => rowsOf<{ mode: string }>(await database.db.execute(sql`select current_setting('plan_cache_mode') as mode`))[0]!.mode;
    // the statement reads its own row of pg_prepared_statements: how often PostgreSQL planned it for its values
    const generic = (n: number) => sql`
      select ${n}::int * ${n}::int as generic_square, current_setting('plan_cache_mode') as mode, date '2026-11-27' as day,
             (select coalesce(sum(custom_plans), 0)::int from pg_prepared_statements where statement like '%as generic_square%') as custom`;
    for (const n of [2, 3, 4, 5, 6, 7, 8]) {
      const [row] = rowsOf<{ generic_square: number; mode: string; day: unknown; custom: number }>(await executeWithGenericPlans(database.db, generic(n)));
      expect(row!.generic_square).toBe(n * n);
      // a date stays the text Drizzle's own path gives
      expect(row!.day).toEqual(rowsOf<{ day: unknown }>(await database.db.execute(sql`select date '2026-11-27' as day`))[0]!.day);
      if (database.kind === 'postgres') {
        expect(row!.mode).toBe('force_generic_plan');
        expect(row!.custom).toBe(0);
      }
    }
    // thrown as Drizzle throws a failed statement: the statement, and PostgreSQL's error as its cause
    await expect(executeWithGenericPlans(database.db, sql`select 1 / ${0}::int as broken`)).rejects.toMatchObject({
      message: expect.stringContaining('Failed query: select 1 / $1::int as broken'),
      cause: { message: 'division by zero' },
    });
    // the pool's connections are as they were: planning as PostgreSQL chooses, none left in a transaction
    for (let i = 0; i < 3; i++) expect(await setting()).toBe('auto');
    if (database.kind === 'postgres') {
      const open = rowsOf<{ n: number }>(
        await database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`),
      );
      expect(open[0]!.n).toBe(0);
    }
  });

  it('a student\'s ledger lock sets generic plans for its transaction only', async () => {
    const inside = await database.db.transaction(async (tx) => {
      await lockStudentLedger(tx, { schoolId: '00000000-0000-4000-8000-000000000001', studentId: '00000000-0000-4000-8000-000000000002' });
      return rowsOf<{ mode: string }>(await tx.execute(sql`select current_setting('plan_cache_mode') as mode`))[0]!.mode;
    });
    expect(inside).toBe('force_generic_plan');
    expect(rowsOf<{ mode: string }>(await database.db.execute(sql`select current_setting('plan_cache_mode') as mode`))[0]!.mode).toBe('auto');
  });
});

describe('inPipelinedTransaction', () => {
  const noteCount = async () =>
    rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pipelined_notes`))[0]!.n;
  const openTransactions = async () =>
    database.kind === 'postgres'
      ? rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`))[0]!.n
      : 0;
  beforeAll(async () => {
    await database.db.execute(sql`create table pipelined_notes (id int primary key, note text not null)`);
  });

  it('runs statements made without waiting in the order they were made, and commits them together', async () => {
    const seen = await inPipelinedTransaction(database.db, async (tx) => {
      // made one right after the other, as a save makes its lock and its read
      const insert = executePrepared(tx, sql`insert into pipelined_notes (id, note) values (${1}, ${'first'})`);
      const read = executePrepared(tx, sql`select count(*)::int as n from pipelined_notes where id = ${1}`);
      await insert;
      return rowsOf<{ n: number }>(await read)[0]!.n;
    });
    expect(seen).toBe(1);
    expect(await noteCount()).toBe(1);
    expect(await openTransactions()).toBe(0);
  });

  it('rolls everything back when the work throws, and the connection serves the next one', async () => {
    await expect(
      inPipelinedTransaction(database.db, async (tx) => {
        await executePrepared(tx, sql`insert into pipelined_notes (id, note) values (${2}, ${'second'})`);
        throw new Error('the clerk\'s save failed its checks');
      }),
    ).rejects.toThrow("the clerk's save failed its checks");
    // a failed statement, and one made after it in the same flight
    await expect(
      inPipelinedTransaction(database.db, async (tx) => {
        const broken = executePrepared(tx, sql`insert into pipelined_notes (id, note) values (${1}, ${'duplicate'})`);
        const after = executePrepared(tx, sql`insert into pipelined_notes (id, note) values (${3}, ${'third'})`);
        await Promise.all([broken, after]);
      }),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
    expect(await noteCount()).toBe(1);
    expect(await openTransactions()).toBe(0);
    for (let i = 0; i < 5; i++) expect(await inPipelinedTransaction(database.db, async (tx) => rowsOf<{ n: number }>(await executePrepared(tx, sql`select ${i}::int as n`))[0]!.n)).toBe(i);
  });

  it('a last write made with executeAndCommit commits the transaction; the wrapper sends no COMMIT of its own', async () => {
    sent.length = 0;
    await inPipelinedTransaction(database.db, async (tx) => {
      await executePrepared(tx, sql`insert into pipelined_notes (id, note) values (${4}, ${'fourth'})`);
      await executeAndCommit(tx, sql`insert into pipelined_notes (id, note) values (${5}, ${'fifth'})`);
    });
    expect(await noteCount()).toBe(3);
    if (database.kind === 'postgres') {
      expect(sent.filter((q) => /^(begin|commit)$/i.test(q))).toEqual(['begin']);
      expect(await openTransactions()).toBe(0);
    }
    // and a failed last write takes the whole transaction with it
    await expect(
      inPipelinedTransaction(database.db, async (tx) => {
        await executePrepared(tx, sql`insert into pipelined_notes (id, note) values (${6}, ${'sixth'})`);
        await executeAndCommit(tx, sql`insert into pipelined_notes (id, note) values (${4}, ${'fourth again'})`);
      }),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
    expect(await noteCount()).toBe(3);
    expect(await openTransactions()).toBe(0);
  });
});
