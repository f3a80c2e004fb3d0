import { getTableColumns, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { readTogether } from './reads';
import { rowsOf } from './sql-rows';
import { executePrepared, executeWithGenericPlans, memoByShape, statement } from './prepared';

/**
 * Many independent reads in ONE round trip (issue 14, decision 0049).
 *
 * Every statement sent through node-postgres costs Node CPU (the socket write) and PostgreSQL a
 * parse, plan and execute; under load each `await` also queues again for a pool connection. A fee
 * screen that asked a dozen small questions one after another spent most of its time there. Here
 * each read is a subquery turned into a JSON array of its rows, all in one statement:
 *
 *   select (select coalesce(json_agg(read_row.*), '[]'::json) from (<a>) read_row) as "a", (…) as "b"
 *
 * Both drivers parse `json` into objects. What JSON changes, each read's `parse` undoes: bigint and
 * numeric values arrive as JSON numbers (paise stay far below 2^53; a sum cast `::text` stays a
 * string), timestamps as ISO strings with their offset, dates and uuids as strings. `tableRead`
 * maps a table's rows back through Drizzle's own column mappers, so a row reads exactly as
 * `db.select().from(table)` would give it.
 *
 * One statement has one snapshot: the reads see the same moment, also outside a transaction. The
 * order of a read's rows is its own ORDER BY: `json_agg` over a sorted subquery with nothing else
 * in the FROM keeps that order. (`read_row.*`, not `read_row`: a column of that name would win.)
 */
export interface Read<Row> {
  readonly query: SQLWrapper;
  readonly parse: (raw: RawRow) => Row;
}

/**
 * A row as PostgreSQL's `to_json` writes it (JSON values) or as a driver gives it when the same read
 * runs as its own statement (`readEach`: bigint as text, timestamps as text): the subquery's column
 * names either way. A `parse` takes both, e.g. `Number(raw.amount)`, `new Date(raw.at as string)`.
 */
export type RawRow = Record<string, unknown>;

export type ReadRows<R extends Record<string, Read<unknown>>> = { [K in keyof R]: R[K] extends Read<infer Row> ? Row[] : never };

/**
 * A value a read's SQL binds: the request's own, or a placeholder of a statement assembled once
 * (`readsAtOnce`). A builder that takes one only writes it into its SQL, never computes from it.
 */
export type Bound = string | Placeholder;

/** A read whose rows the caller converts (or takes as they are: snake_case keys, JSON values). */
export function read<Row = RawRow>(query: SQLWrapper, parse?: (raw: RawRow) => Row): Read<Row> {
  return { query, parse: parse ?? ((raw) => raw as Row) };
}

/**
 * A read of a table's own columns (`select * from table …` or `select t.* …`): each row as Drizzle
 * types it (camelCase keys, Date for timestamps, numbers for bigint columns in number mode).
 */
export function tableRead<T extends PgTable>(table: T, query: SQLWrapper): Read<T['$inferSelect']> {
  return { query, parse: tableRowParser(table) };
}

const parsers = new WeakMap<PgTable, (raw: RawRow) => unknown>();

/** Maps a raw row (snake_case, as either driver or `to_json` gives it) to the table's typed row. */
export function tableRowParser<T extends PgTable>(table: T): (raw: RawRow) => T['$inferSelect'] {
  const known = parsers.get(table);
  if (known) return known as (raw: RawRow) => T['$inferSelect'];
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
    key,
    name: column.name,
    // a json(b) column is already a value here: mapping it again would JSON.parse a string value
    map: column.columnType === 'PgJson' || column.columnType === 'PgJsonb' ? (v: unknown) => v : (v: unknown) => column.mapFromDriverValue(v),
  }));
  const parse = (raw: RawRow) => {
    const row: Record<string, unknown> = {};
    for (const c of columns) {
      const value = raw[c.name];
      row[c.key] = value === null || value === undefined ? null : c.map(value);
    }
    return row as T['$inferSelect'];
  };
  parsers.set(table, parse);
  return parse;
}

/** Named common table expressions the reads may use (`with "name" as (…)`), e.g. a row they all key on. */
export type CommonTables = Record<string, SQLWrapper>;

/** The statement `readAtOnce` sends; exported for its test and for callers that embed it. */
export function readAtOnceSql(reads: Record<string, Read<unknown>>, commonTables: CommonTables = {}): SQL {
  const names = Object.keys(reads);
  if (names.length === 0) throw new Error('readAtOnce needs at least one read');
  const ctes = Object.entries(commonTables).map(([name, query]) => sql`${sql.identifier(name)} as (${query})`);
  const columns = names.map((name) => sql`(select coalesce(json_agg(read_row.*), '[]'::json) from (${reads[name]!.query}) read_row) as ${sql.identifier(name)}`);
  return sql`${ctes.length > 0 ? sql`with ${sql.join(ctes, sql`, `)} ` : sql``}select ${sql.join(columns, sql`, `)}`;
}

/** Runs every read in one statement and answers each one's parsed rows under its name. */
export async function readAtOnce<R extends Record<string, Read<unknown>>>(
  db: Db,
  reads: R,
  options: { with?: CommonTables; genericPlans?: boolean } = {},
): Promise<ReadRows<R>> {
  // a named prepared statement: the statement is long and the same for every request of a screen,
  // so PostgreSQL parses it once per connection and may keep its plan (lib/prepared.ts);
  // `genericPlans` for reads keyed by equalities only: planned once per connection, in one round trip
  const statement = readAtOnceSql(reads, options.with);
  return rowsOfReads(reads, await (options.genericPlans ? executeWithGenericPlans : executePrepared)(db, statement));
}

/**
 * `readAtOnce` for a screen asked the same reads on every request: the statement is assembled ONCE,
 * with a placeholder per name, and each request fills in its values. Drizzle's assembly of the
 * fee screens' long statement (thirty-odd parameters, a dozen subqueries) was a sixth of a request's
 * CPU under load, with the garbage it left (profiled, decision 0082). `build` gets a placeholder for
 * each of `names` (and nothing for any other key) and must not compute from them (each is a
 * `Bound`); nor may a read's `parse`, which every request shares with that first build. A statement
 * whose shape depends on a value (a filter present or not) is one `readsAtOnce` per shape.
 */
export function readsAtOnce<K extends string, R extends Record<string, Read<unknown>>>(
  names: readonly K[],
  build: (p: Record<K, Placeholder>) => { reads: R; with?: CommonTables },
  options: { genericPlans?: boolean } = {},
): (db: Db, values: Record<K, unknown>) => Promise<ReadRows<R>> {
  let reads: R | undefined;
  const run = statement<K>(() => {
    const built = build(Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as unknown as Record<K, Placeholder>);
    reads = built.reads;
    return readAtOnceSql(built.reads, built.with);
  }, options);
  return async (db, values) => {
    const answer = await run(db, values);
    return rowsOfReads(reads!, answer);
  };
}

/**
 * `readsAtOnce` for reads whose SQL has a few shapes (a read needed or not, a filter given or not,
 * each a flag of `shape`, written with `onlyIf` so every shape answers the same names): one
 * statement per shape, assembled the first time a request asks for it.
 */
export function readsAtOnceByShape<S extends { [F in keyof S]: boolean }, K extends string, R extends Record<string, Read<unknown>>>(
  names: readonly K[],
  build: (p: Record<K, Placeholder>, shape: S) => { reads: R; with?: CommonTables },
  options: { genericPlans?: boolean } = {},
): (shape: S) => (db: Db, values: Record<K, unknown>) => Promise<ReadRows<R>> {
  return memoByShape((shape: S) => readsAtOnce(names, (p) => build(p, shape), options));
}

/** Each read's rows parsed, from the one row of a `readAtOnceSql` statement's answer. */
function rowsOfReads<R extends Record<string, Read<unknown>>>(reads: R, answer: unknown): ReadRows<R> {
  const [row] = rowsOf<Record<string, unknown>>(answer);
  const out: Record<string, unknown[]> = {};
  for (const [name, r] of Object.entries(reads)) {
    const value = row?.[name];
    // node-postgres and PGlite parse json; a driver configured otherwise would hand the text
    const raws = (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as RawRow[];
    out[name] = raws.map((raw) => r.parse(raw));
  }
  return out as ReadRows<R>;
}

/**
 * The same reads, each as its own statement, rows straight from the driver: for reads too large to
 * gather into one JSON value (a whole school's ledger lines), at once on the pool, one after another
 * inside a transaction (`readTogether`).
 */
export async function readEach<R extends Record<string, Read<unknown>>>(db: Db, reads: R): Promise<ReadRows<R>> {
  const names = Object.keys(reads);
  const results = await readTogether(db, ...names.map((name) => () => readRows(db, reads[name]!)));
  return Object.fromEntries(names.map((name, i) => [name, results[i]])) as ReadRows<R>;
}

/** One read as its own statement. */
export async function readRows<Row>(db: Db, r: Read<Row>): Promise<Row[]> {
  return rowsOf<RawRow>(await db.execute(sql`${r.query}`)).map((raw) => r.parse(raw));
}

/**
 * The same reads answering no rows (their statement asks for nothing): for reads a request needs
 * only sometimes, so one batch keeps one shape and its callers one type.
 */
export function onlyIf<R extends Record<string, Read<unknown>>>(needed: boolean, reads: R): R {
  if (needed) return reads;
  return Object.fromEntries(Object.entries(reads).map(([name, r]) => [name, { query: sql`select 1 where false`, parse: r.parse }])) as unknown as R;
}

/**
 * The same reads less some, for a statement that finds those rows in another read of its own and
 * fills them in from there (a save's placement from its balance inputs, decision 0101).
 */
export function withoutReads<R extends Record<string, Read<unknown>>, K extends keyof R>(reads: R, ...names: K[]): Omit<R, K> {
  const kept: Partial<R> = { ...reads };
  for (const name of names) delete kept[name];
  return kept as Omit<R, K>;
}
