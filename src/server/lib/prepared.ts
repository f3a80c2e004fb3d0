import { createHash } from 'node:crypto';
import { fillPlaceholders, sql, type Placeholder, type Query, type SQL } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { PgDialect } from 'drizzle-orm/pg-core';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../db/client';

/**
 * Runs a statement as a NAMED prepared statement: PostgreSQL parses it once per connection and,
 * after its first few runs, keeps one generic plan for it, instead of parsing and planning the same
 * text on every request. Profiled under load, planning took more of PostgreSQL's CPU than executing
 * the app's hot reads (decision 0042).
 *
 * For statements whose TEXT is fixed and only their parameters vary: the name is a hash of the text,
 * so each shape of a query (which filters it has) is its own statement. A text that embeds values
 * would make a new statement per value; past `MAX_SHAPES` texts the rest run unnamed, with a warning
 * once, so a mistake costs speed, never memory. Answers exactly like `db.execute` (the same driver
 * path, rows as objects); on the embedded database the name is ignored.
 */
const dialect = new PgDialect();
const names = new Map<string, string>();
const MAX_SHAPES = 500;
let warned = false;

function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known) return known;
  if (names.size >= MAX_SHAPES) {
    if (!warned) {
      warned = true;
      console.warn(`prepared statements: more than ${MAX_SHAPES} statement texts; the rest run unnamed (a value written into a text?)`);
    }
    return undefined;
  }
  const name = `sl_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
  names.set(text, name);
  return name;
}

/**
 * `set_config(...)` for a SELECT list: from here to the end of the transaction, every statement is
 * planned once per connection, without its parameters' values (a generic plan), instead of planned
 * again for each request's values (a custom plan). PostgreSQL's own choice ('auto') kept custom plans
 * for the fee screens' long statements because their estimated cost is a little lower, and planning
 * them took 2-5 ms of its CPU per request, more than running them (decision 0050). Use it only for
 * statements whose every condition is an equality on a key (a school, a student), where the values
 * cannot change which plan is best; a LIMIT, a pattern or a date range can.
 */
export const GENERIC_PLANS = sql`set_config('plan_cache_mode', 'force_generic_plan', true)`;

/**
 * The statement that sets GENERIC_PLANS, with `settings` beside it: more `set_config(…, true)` calls
 * of the transaction's own (`withGenericPlans` and `executeWithGenericPlans` take them).
 */
const genericPlansWith = (settings?: SQL) => sql`select ${GENERIC_PLANS}${settings ? sql`, ${settings}` : sql``}`;

/** `genericPlansWith()` without settings, as sent: the same for every request, assembled once. */
let genericPlansAlone: Query | undefined;

/**
 * Whether statements on `db` may run at once, each on a connection of its own: a PostgreSQL pool.
 * The embedded database is one connection, where a transaction left open waits for the others.
 */
export function readsRunAtOnce(db: Db): boolean {
  return poolOf(db) !== undefined;
}

/** The PostgreSQL pool `db` runs on; undefined on a transaction's handle or the embedded database. */
function poolOf(db: Db): pg.Pool | undefined {
  const client = (db._.session as unknown as { client?: unknown }).client;
  return client instanceof pg.Pool ? client : undefined;
}

/** Whether statements on `db` go to PostgreSQL through node-postgres (a pool, or a transaction's client). */
function onPostgres(db: Db): boolean {
  const client = (db._.session as unknown as { client?: { query?: unknown; exec?: unknown } }).client;
  // node-postgres' Pool and PoolClient have query() and no exec(); PGlite has both
  return Boolean(client && typeof client.query === 'function' && typeof client.exec !== 'function');
}

/**
 * Runs `work` outside a transaction with generic plans (see GENERIC_PLANS): on PostgreSQL in a
 * short transaction of its own (BEGIN, the setting, the work, COMMIT: three short round trips, each
 * far cheaper than the planning it saves). Inside a transaction, select GENERIC_PLANS in its first
 * statement instead (as `lockStudentLedger` does). On the embedded database (one connection, no
 * named statements) it just runs.
 */
export async function withGenericPlans<T>(db: Db, work: (db: Db) => Promise<T>, settings?: SQL): Promise<T> {
  if (!onPostgres(db)) return work(db);
  return db.transaction(async (tx) => {
    await tx.execute(genericPlansWith(settings));
    return work(tx as unknown as Db);
  });
}

/**
 * ONE statement with generic plans (see GENERIC_PLANS), in one round trip: on PostgreSQL, BEGIN,
 * the setting, the statement (named, as `executePrepared` runs it) and COMMIT go to a connection of
 * the pool in one write (node-postgres' pipeline mode, each with its own Sync), and the app waits
 * once for the four answers, instead of four times with the connection idle in a transaction
 * between them (decision 0053). When the statement fails, PostgreSQL answers the COMMIT by rolling
 * back and its error is thrown. On a transaction's handle or the embedded database: `withGenericPlans`.
 */
export async function executeWithGenericPlans(db: Db, query: SQL, settings?: SQL): Promise<{ rows: unknown[] }> {
  const pool = poolOf(db);
  if (!pool) return withGenericPlans(db, (conn) => executePrepared(conn, query), settings);
  const built = dialect.sqlToQuery(query);
  return runWithGenericPlans(pool, db, built, built.params, settings);
}

/**
 * `executeWithGenericPlans` for a statement already built (`built`, named by its text), run with
 * `params`: its own, or a `statement`'s placeholders filled with a call's values.
 */
async function runWithGenericPlans(pool: pg.Pool, db: Db, built: Query, params: unknown[], settings?: SQL): Promise<{ rows: unknown[] }> {
  const session = db._.session as unknown as { logger?: { logQuery(text: string, params: unknown[]): void } };
  const setting = settings ? dialect.sqlToQuery(genericPlansWith(settings)) : (genericPlansAlone ??= dialect.sqlToQuery(genericPlansWith()));
  const client = (await pool.connect()) as unknown as PipelinedClient & { release(error?: Error): void };
  let broken: Error | undefined;
  try {
    const answers = await pipelined(client, () => {
      const sent = [
        client.query('begin'),
        client.query({ text: setting.sql, values: setting.params }),
        client.query(driverConfig(db, built), params),
        client.query('commit'),
      ];
      for (const [text, values] of [['begin', []], [setting.sql, setting.params], [built.sql, params], ['commit', []]] as const) session.logger?.logQuery(text, [...values]);
      return sent;
    });
    const [begin, , read, commit] = answers as [Settled, Settled, Settled, Settled];
    // a failed BEGIN or COMMIT leaves the connection in a state nobody should inherit
    for (const answer of [begin, commit]) if (answer.status === 'rejected') broken = answer.reason as Error;
    if (read.status === 'rejected') throw new DrizzleQueryError(built.sql, params, read.reason as Error);
    if (broken) throw broken;
    return read.value as { rows: unknown[] };
  } finally {
    client.release(broken);
  }
}

/**
 * The node-postgres query config Drizzle itself would send for `built` as a named statement (its
 * name, and its type parsers: timestamps and dates stay text), for a query sent on a client directly.
 */
function driverConfig(db: Db, built: Query): { name?: string; text: string } {
  const prepared = db._.session.prepareQuery(built, undefined, nameOf(built.sql), false) as unknown as { rawQueryConfig: { name?: string; text: string } };
  return prepared.rawQueryConfig;
}

type Settled = PromiseSettledResult<unknown>;

/** The queries `send` makes in one write, on a client already in pipeline mode; every answer awaited. */
async function sendTogether(client: PipelinedClient, send: () => Array<Promise<unknown>>): Promise<Settled[]> {
  const stream = client.connection.stream;
  stream.cork();
  let sent: Array<Promise<unknown>>;
  try {
    sent = send();
  } finally {
    stream.uncork();
  }
  return Promise.allSettled(sent);
}

/**
 * Sends the queries `send` makes as one write in pipeline mode and waits for every answer; the
 * client leaves pipeline mode only once all are in (a query still on the wire would otherwise take
 * an answer meant for nobody).
 */
async function pipelined(client: PipelinedClient, send: () => Array<Promise<unknown>>): Promise<Settled[]> {
  client.pipeline = true;
  try {
    return await sendTogether(client, send);
  } finally {
    client.pipeline = false;
  }
}

export async function executePrepared(db: Db, query: SQL): Promise<{ rows: unknown[] }> {
  const built = dialect.sqlToQuery(query);
  return runBuilt(db, built, built.params);
}

/** A node-postgres client, as far as sending queries in pipeline mode needs it. */
interface PipelinedClient {
  pipeline: boolean;
  connection: { stream: { cork(): void; uncork(): void } };
  query(config: { name?: string; text: string; values?: unknown[] }, values?: unknown[]): Promise<{ rows: unknown[] }>;
  query(text: string): Promise<unknown>;
}

/**
 * Runs the LAST statement of an `inPipelinedTransaction` and commits the transaction with it, in one
 * round trip, so PostgreSQL commits as soon as the statement is done, not when the app's event loop
 * gets round to reading its answer and sending COMMIT. A save's write takes the school's receipt
 * counter row (ruling 4), which every other save of the school waits on until COMMIT; under load the
 * wait for the app to send COMMIT was most of that hold (decisions 0052, 0054). The wrapper then sends
 * no COMMIT of its own, and nothing may be written after this statement: it would not be part of the
 * committed transaction. When the statement fails, PostgreSQL answers the COMMIT of the failed
 * transaction by rolling it back, and the statement's error is thrown as `executePrepared` would
 * throw it. In any other transaction (the embedded database's, Drizzle's own, a savepoint) it runs as
 * `executePrepared` and the caller's wrapper commits.
 */
export async function executeAndCommit(tx: Db, query: SQL): Promise<{ rows: unknown[] }> {
  const built = dialect.sqlToQuery(query);
  return runAndCommit(tx, built, built.params);
}

/** `executeAndCommit` for a statement already built, with its parameters' values (`writeStatement`). */
async function runAndCommit(tx: Db, built: Query, params: unknown[]): Promise<{ rows: unknown[] }> {
  const session = tx._.session as unknown as { client?: PipelinedClient; logger?: { logQuery(text: string, params: unknown[]): void } };
  const nested = (tx as unknown as { nestedIndex?: number }).nestedIndex;
  const client = session.client;
  if (!pipelinedSessions.has(session) || nested !== 0 || !client) return runBuilt(tx, built, params);
  session.logger?.logQuery(built.sql, params);
  committedSessions.add(session);
  const [write, commit] = (await sendTogether(client, () => [client.query(driverConfig(tx, built), params), client.query('commit')])) as [Settled, Settled];
  if (write.status === 'rejected') throw new DrizzleQueryError(built.sql, params, write.reason as Error);
  if (commit.status === 'rejected') throw commit.reason;
  return write.value as { rows: unknown[] };
}

/** A statement already built, run with `params` as `executePrepared` runs its own: named by its text. */
async function runBuilt(db: Db, built: Query, params: unknown[]): Promise<{ rows: unknown[] }> {
  return (await db._.session.prepareQuery({ sql: built.sql, params }, undefined, nameOf(built.sql), false).execute()) as { rows: unknown[] };
}

/** Sessions of `inPipelinedTransaction`, and those whose transaction `executeAndCommit` has committed. */
const pipelinedSessions = new WeakSet<object>();
const committedSessions = new WeakSet<object>();

/**
 * `db.transaction(fn)` on a connection in pipeline mode: every statement goes to PostgreSQL as soon
 * as it is made, without waiting for the answer to the one before (PostgreSQL still runs them in
 * order). BEGIN goes out with `fn`'s first statements in one write, so a transaction whose first
 * statements are made before it awaits (a student's lock and the read behind it,
 * `readUnderStudentLock`) waits for PostgreSQL once for all of them; a last write made with
 * `executeAndCommit` carries the COMMIT. A save is then two round trips instead of five (decision
 * 0054). Statements that keep a portal open (cursors, streams) cannot run in it. On the embedded
 * database: `db.transaction`.
 */
export async function inPipelinedTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  const outer = db._.session as unknown as { dialect: unknown; schema: unknown; options: { logger?: { logQuery(text: string, params: unknown[]): void } } };
  const pool = poolOf(db);
  if (!pool) return db.transaction((tx) => fn(tx as unknown as Db));
  const client = (await pool.connect()) as unknown as PipelinedClient & { release(error?: Error): void };
  const session = new NodePgSession(client as never, outer.dialect as never, outer.schema as never, outer.options as never);
  const tx = new NodePgTransaction(outer.dialect as never, session, outer.schema as never) as unknown as Db;
  pipelinedSessions.add(session);
  const finish = async (text: 'commit' | 'rollback') => {
    outer.options.logger?.logQuery(text, []);
    await client.query(text);
  };
  let broken: Error | undefined;
  client.pipeline = true;
  try {
    let begun: Promise<unknown>;
    let work: Promise<T>;
    const stream = client.connection.stream;
    stream.cork();
    try {
      outer.options.logger?.logQuery('begin', []);
      begun = client.query('begin');
      // awaited below once the work is done; until then a failure must not go unhandled
      begun.catch(() => undefined);
      try {
        work = fn(tx);
      } catch (error) {
        work = Promise.reject(error as Error);
      }
    } finally {
      stream.uncork();
    }
    let result: T;
    try {
      result = await work;
      await begun;
    } catch (error) {
      // also after a commit made with the last write: then PostgreSQL only warns that no transaction
      // is open, and its answer, the last, says every statement the work made has been answered
      await finish('rollback').catch((failed: unknown) => {
        broken = failed as Error;
      });
      throw error;
    }
    if (!committedSessions.has(session)) {
      await finish('commit').catch((failed: unknown) => {
        broken = failed as Error;
        throw failed;
      });
    }
    return result;
  } finally {
    // every answer is in: PostgreSQL answers in order, and the COMMIT or ROLLBACK was the last
    client.pipeline = false;
    client.release(broken);
  }
}

/**
 * One of `build`'s results per shape of flags, built the first time a shape is asked for: a
 * statement (or a set of reads) whose text differs with which filters a request has is one per
 * combination, each assembled once. `build` gets its own copy of the shape.
 */
export function memoByShape<S extends { [F in keyof S]: boolean }, T>(build: (shape: S) => T): (shape: S) => T {
  const built = new Map<string, T>();
  return (shape) => {
    const flags = shape as Record<string, boolean>;
    const key = Object.keys(flags)
      .sort()
      .map((flag) => `${flag}:${flags[flag] ? 1 : 0}`)
      .join(',');
    let value = built.get(key);
    if (value === undefined) built.set(key, (value = build({ ...shape })));
    return value;
  };
}

/** A placeholder for every name a builder asks for, named as asked (`statement`, `writeStatement`). */
const placeholdersByName = <K extends string>() => new Proxy({} as Record<K, Placeholder>, { get: (_target, key) => sql.placeholder(String(key)) });

/**
 * A statement whose SQL is assembled ONCE, with named placeholders, and run with values: on a hot
 * route the query builder's assembly of a long statement was about a tenth of the request's CPU
 * (profiled). Also a named prepared statement, as above. `build` receives a placeholder per name.
 *
 * `planEachRun`: an unnamed statement, planned for each run's values. For a statement whose best plan
 * depends on a value PostgreSQL can only judge when it sees it (a pattern: a common name fragment is
 * best found walking the page's index, a rare one through the trigram index). A named one gets
 * PostgreSQL's generic plan after five runs, chosen for a guessed pattern (decision 0057).
 *
 * `genericPlans`: always the generic plan (GENERIC_PLANS), sent as `executeWithGenericPlans` sends
 * its statement, in one round trip. For a statement whose every value leaves one plan best, where
 * PostgreSQL's own choice ('auto') kept planning it for each run because a custom plan's estimate
 * came out a little lower (decision 0079).
 */
export function statement<K extends string>(
  build: (p: Record<K, Placeholder>) => SQL,
  { planEachRun = false, genericPlans = false }: { planEachRun?: boolean; genericPlans?: boolean } = {},
): (db: Db, values: Record<K, unknown>) => Promise<{ rows: unknown[] }> {
  let built: { query: Query; name: string | undefined } | undefined;
  const assembled = () => {
    if (!built) {
      const query = dialect.sqlToQuery(build(placeholdersByName<K>()));
      built = { query, name: planEachRun ? undefined : nameOf(query.sql) };
    }
    return built;
  };
  const run = async (db: Db, values: Record<K, unknown>) => {
    const { query, name } = assembled();
    return (await db._.session.prepareQuery(query, undefined, name, false).execute(values)) as { rows: unknown[] };
  };
  if (!genericPlans || planEachRun) return run;
  return async (db, values) => {
    const pool = poolOf(db);
    if (!pool) return withGenericPlans(db, (conn) => run(conn, values));
    const { query } = assembled();
    return runWithGenericPlans(pool, db, query, fillPlaceholders(query.params, values));
  };
}

/**
 * A write assembled ONCE with named placeholders, as `statement` assembles a read: `run` sends it as
 * `executePrepared` would, `runAndCommit` as `executeAndCommit` (the last write of an
 * `inPipelinedTransaction`, which commits with it). For a write made on every save, whose SQL tree
 * (a receipt, its lines, the running balances' upserts and the audit row) the query builder assembled
 * again each time: about half of the app's time spent on a payment's write statement (decision 0086).
 */
export function writeStatement<K extends string>(build: (p: Record<K, Placeholder>) => SQL): {
  run(db: Db, values: Record<K, unknown>): Promise<{ rows: unknown[] }>;
  runAndCommit(tx: Db, values: Record<K, unknown>): Promise<{ rows: unknown[] }>;
} {
  let built: Query | undefined;
  const assembled = () => (built ??= dialect.sqlToQuery(build(placeholdersByName<K>())));
  return {
    run: (db, values) => {
      const query = assembled();
      return runBuilt(db, query, fillPlaceholders(query.params, values));
    },
    runAndCommit: (tx, values) => {
      const query = assembled();
      return runAndCommit(tx, query, fillPlaceholders(query.params, values));
    },
  };
}
