import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type ExtractTablesWithRelations, type Logger } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { startDailyBackups, writeBackup } from './backups';
import { lockDataDir } from './data-dir-lock';
import { ROOT } from '../lib/root';
import { dataDirTexts } from './messages';
import * as schema from './schema';

export type Schema = typeof schema;

/** What `db.execute(sql)` returns on both drivers (PGlite's Results and node-postgres' QueryResult). */
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this['row']>;
}
interface RowsResult<TRow> {
  rows: (TRow extends Record<string, unknown> ? TRow : Record<string, unknown>)[];
  affectedRows?: number;
  rowCount?: number | null;
}

/** Either database, or a transaction on it: query functions take this so a route can compose them. */
export type Db = PgDatabase<RowsResultHKT, Schema>;
export type Tx = PgTransaction<RowsResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** from the project's folder, so the server's bundle in dist/server finds them too (decision 0051) */
export const migrationsFolder = path.join(ROOT, 'src/server/db/migrations');

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** the embedded database opened from DATA_DIR by openAppDatabase: what backups dump */
  embedded?: { client: PGlite; dataDir: string };
}

export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob; logger?: Logger } = {},
): Promise<Database & { client: PGlite }> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  const db = drizzlePglite(client, { schema, ...(options.logger ? { logger: options.logger } : {}) }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    client,
  };
}

/**
 * Every connection of the app runs without PostgreSQL's JIT compiler. The whole-school reads (school
 * stats, defaulters, reports over 60,000 balance rows) are one statement with many expressions per
 * row; their estimated cost passes `jit_optimize_above_cost`, and LLVM then spent 94 s optimising
 * and 120 s emitting code for a statement that runs in under a second without it (EXPLAIN ANALYZE
 * in the issue 14 bench, decision 0042). The app's statements are short or set-based; none gains
 * from JIT what it costs to compile.
 */
export const SESSION_SETTINGS = '-c jit=off';

/**
 * What every pool of the app keeps: its connections, once opened, for as long as the process runs.
 * node-postgres closes a connection idle for 10 s by default, and with it every statement PostgreSQL
 * had parsed and planned on it (decision 0042): at a quiet counter, the requests after each pause
 * that found no warm connection opened one and planned their statements again (five at once after
 * 12 s of quiet: 63–107 ms, against 22–51 ms on kept connections, decision 0090). TCP keepalive from a
 * minute of quiet keeps a firewall or NAT between the app and PostgreSQL from forgetting the
 * connection, and finds one that has died; an idle connection the server closes is replaced on the
 * next query. Idle connections do not hold a script (or a test) open once its work is done.
 */
const POOL_SETTINGS = {
  options: SESSION_SETTINGS,
  idleTimeoutMillis: 0,
  keepAlive: true,
  keepAliveInitialDelayMillis: 60_000,
  allowExitOnIdle: true,
} satisfies pg.PoolConfig;

/**
 * `max`: the pool's connections (`openAppDatabase` gives DATABASE_POOL_SIZE, decision 0076; 20 when not given).
 * `logger`: sees every statement the handle sends (tests count round trips with it).
 */
export async function openPostgres(url: string, options: { max?: number | undefined; logger?: Logger } = {}): Promise<Database> {
  const pool = new pg.Pool({ ...POOL_SETTINGS, connectionString: url, max: options.max ?? 20 });
  // an idle connection the server closes (a restart, a dropped database) is replaced on the next
  // query; without a listener node-postgres would raise it as an uncaught error and stop the app
  pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
  // bigint columns (counts, sums) come back as strings from node-postgres; amounts are parsed
  // explicitly where read, so the default is kept.
  const db = drizzlePg(pool, { schema, ...(options.logger ? { logger: options.logger } : {}) }) as unknown as Db;
  pooledUrls.set(db, url);
  return { db, kind: 'postgres', close: () => pool.end() };
}

/** Where each PostgreSQL database handle made by openPostgres connects, for the pools beside it. */
const pooledUrls = new WeakMap<Db, string>();

export interface BoundedReads {
  db: Db;
  close(): Promise<void>;
}

/**
 * Long whole-school reads (report builds) on a small pool of their own beside `db`'s, whose every
 * statement PostgreSQL ends after `statementTimeoutMs` (error 57014): they can neither take the
 * connections the counter's routes need nor hold one without bound (decision 0042). A
 * `statement_timeout` in the connection's settings, not `SET LOCAL` in a transaction, so that a
 * builder's independent reads still run at once, each on its own connection. On PGlite (one
 * connection, this process alone, no statement timeout) and for any other handle: `db` itself.
 */
export function boundedReadsBeside(db: Db, { max, statementTimeoutMs }: { max: number; statementTimeoutMs: number }): BoundedReads {
  const url = pooledUrls.get(db);
  if (!url) return { db, close: async () => {} };
  const pool = new pg.Pool({ ...POOL_SETTINGS, connectionString: url, max, statement_timeout: statementTimeoutMs });
  pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection of the report pool: ${error.message}`));
  return { db: drizzlePg(pool, { schema }) as unknown as Db, close: () => pool.end() };
}

/**
 * Applies the migrations not yet applied; when any was, vacuums the tables they left without a
 * visibility map. A migration that rewrites a table (a stored generated column, a column's new
 * type) writes it anew with an empty map, so until a vacuum every index-only scan of it reads the
 * table as well (the students page of a 60,000-student school went from under 1 ms of PostgreSQL
 * to 7 ms after such a rewrite), and autovacuum counts no write in a rewrite to wake it (decision
 * 0091). A migration cannot vacuum itself: drizzle applies them in one transaction. Returns the
 * tables vacuumed. `known.pending`: whether any migration is pending, when the caller has asked already.
 */
export async function migrateDatabase(database: Database, folder = migrationsFolder, known?: { pending: boolean }): Promise<string[]> {
  const pending = known ? known.pending : await hasPendingMigrations(database.db, folder);
  if (database.kind === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder: folder });
  } else {
    await migratePg(database.db as never, { migrationsFolder: folder });
  }
  if (!pending) return [];
  const { rows } = await database.db.execute<{ name: string }>(sql`
    select c.relname as name from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and c.relpages > 0 and c.relallvisible = 0
    order by c.relname`);
  const tables = rows.map((r) => r.name);
  // one statement each, outside any transaction, as VACUUM requires
  for (const table of tables) await database.db.execute(sql`vacuum (analyze) ${sql.identifier(table)}`);
  return tables;
}

/** Drizzle's own rule: a migration is pending when it is newer than the last one applied. */
export async function hasPendingMigrations(db: Db, folder: string): Promise<boolean> {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const table = await db.execute<{ exists: boolean }>(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`);
  if (!table.rows[0]?.exists) return migrations.length > 0;
  const last = await db.execute<{ created_at: string | null }>(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`);
  const lastApplied = last.rows[0]?.created_at;
  if (lastApplied == null) return migrations.length > 0;
  return migrations.some((m) => Number(lastApplied) < m.folderMillis);
}

export interface OpenAppDatabaseOptions {
  /** who opens DATA_DIR's embedded database, named in the refusal a second opener gets */
  holder?: string;
  /** added to that refusal, e.g. what to do instead */
  refusalHint?: string;
  /** false for a command that must see the database as it is (npm run backup) */
  migrate?: boolean;
  /** the server: a backup a day while it runs */
  dailyBackups?: boolean;
  migrationsFolder?: string;
  now?: () => Date;
  log?: (line: string) => void;
}

/**
 * The database the app runs on: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR/db.
 * Every program that opens the embedded database comes through here, so every one of them takes
 * DATA_DIR's lock first (decision 0023) and an existing database is backed up before it is
 * migrated (decision 0024).
 */
export async function openAppDatabase(
  config: { databaseUrl?: string | undefined; databasePoolSize?: number; dataDir: string },
  options: OpenAppDatabaseOptions = {},
): Promise<Database> {
  const folder = options.migrationsFolder ?? migrationsFolder;
  if (config.databaseUrl) {
    const database = await openPostgres(config.databaseUrl, { max: config.databasePoolSize });
    if (options.migrate !== false) await migrateDatabase(database, folder);
    return database;
  }
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(line));
  const lock = lockDataDir(config.dataDir, options.holder ?? 'another School Ledger command', { hint: options.refusalHint });
  let database: (Database & { client: PGlite }) | undefined;
  try {
    const dbDir = path.join(config.dataDir, 'db');
    const existed = existsSync(path.join(dbDir, 'PG_VERSION'));
    database = await openPglite({ dataDir: dbDir });
    if (options.migrate !== false) {
      // asked once: whether to back up first and whether to vacuum after
      const pending = await hasPendingMigrations(database.db, folder);
      if (existed && pending) {
        const file = await writeBackup(database.client, config.dataDir, { now: now(), label: 'before-migration' });
        log(dataDirTexts.backupBeforeMigration(file));
      }
      await migrateDatabase(database, folder, { pending });
    }
    const opened = database;
    const schedule = options.dailyBackups ? startDailyBackups(opened.client, config.dataDir, { now, log }) : undefined;
    return {
      db: opened.db,
      kind: 'pglite',
      embedded: { client: opened.client, dataDir: config.dataDir },
      async close() {
        try {
          await schedule?.stop();
          await opened.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    await database?.close().catch(() => {});
    lock.release();
    throw error;
  }
}
