/**
 * npm run bench [-- --only students,fees --sizes 2000,60000] [-- --quick]
 * --quick: 2,000 students only and short load windows, for development (not the figures to publish).
 * Runs every bench/*.bench.ts against the app on a loopback port, on the embedded database (a fresh
 * PGlite in a temporary folder) or on PostgreSQL when DATABASE_URL is set (a fresh database there),
 * prints a table and writes bench/results/<time>-<db>.json with the machine's cores and memory.
 * BENCH_DB=<name> runs on a database an earlier run kept (BENCH_KEEP_DB=1) instead of a fresh one:
 * its generated schools are used as they are (signed in afresh), so a scenario is measured again in a
 * minute instead of after its generation. Such a database has the earlier runs' writes in it; figures
 * for the README come from a fresh one.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { hashPassword } from '../src/server/auth/passwords';
import { createSessionRow } from '../src/server/auth/queries';
import { MovableClock } from '../src/server/clock';
import { loadConfig } from '../src/server/config';
import { verifyAllBalances } from '../src/server/balances/verify';
import { migrateDatabase, openPglite, openPostgres, type Database } from '../src/server/db/client';
import { schools, users } from '../src/server/db/schema';
import { createOutboxMailer } from '../src/server/mail/mailer';
import { seedPlans } from '../src/server/plans/queries';
import { rowsOf } from '../src/server/lib/sql-rows';
import type { BenchContext, BenchModule, BenchRow, LoadOptions } from './types';
import { BROWSER_HEADERS, failedRequests } from './load';

const { values } = parseArgs({
  options: { only: { type: 'string' }, sizes: { type: 'string' }, quick: { type: 'boolean', default: false } },
});
const quick = values.quick === true;
const sizes = (values.sizes ?? (quick ? '2000' : '2000,60000')).split(',').map(Number).filter((n) => n > 0);
const only = values.only?.split(',');

const benchDir = path.dirname(new URL(import.meta.url).pathname);
const files = readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !only || only.includes(f.replace('.bench.ts', '')))
  // the mixed load last: its 200 connections leave PostgreSQL busy (autovacuum of the rows it generated,
  // statements still finishing) and every scenario after it measured that instead of itself (decision 0042)
  .sort((a, b) => Number(a === 'mixed.bench.ts') - Number(b === 'mixed.bench.ts') || a.localeCompare(b));

async function openDatabase(): Promise<{ database: Database; url?: string; cleanup: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  const kept = process.env.BENCH_DB;
  if (url && kept) {
    if (!/^\w+$/.test(kept)) throw new Error(`BENCH_DB must be a database name, got ${kept}`);
    const u = new URL(url);
    u.pathname = `/${kept}`;
    const database = await openPostgres(u.toString(), { max: 60 });
    return { database, url: u.toString(), cleanup: () => database.close() };
  }
  if (url) {
    // BENCH_DB_PREFIX keeps runs of several people on one server apart
    const name = `${process.env.BENCH_DB_PREFIX ?? 'ledger_bench'}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openPostgres(u.toString(), { max: 60 });
    return {
      database,
      url: u.toString(),
      cleanup: async () => {
        await database.close();
        // BENCH_KEEP_DB=1 leaves the generated schools behind for EXPLAIN ANALYZE in psql
        if (process.env.BENCH_KEEP_DB) console.log(`Kept the database ${name}`);
        else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-'));
  const database = await openPglite({ dataDir: dir });
  return {
    database,
    cleanup: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// settings first: a wrong one stops the run before a database is made
const settings = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
  ENCRYPTION_KEY: 'bench-encryption-key-that-is-long-enough-000',
  DATA_DIR: path.join(os.tmpdir(), 'ledger-bench-data'),
  // a production configuration refuses to start without payment keys unless the sandbox is chosen (ruling 29)
  PAYMENTS_PROVIDER: 'sandbox',
};
const config = loadConfig(settings);
const { database, url: databaseUrl, cleanup } = await openDatabase();
/** A step before the scenarios: when it fails, the run's fresh database is dropped as at the end of a run. */
const setUp = <T>(step: Promise<T>): Promise<T> =>
  step.catch(async (error: unknown) => {
    await cleanup().catch(() => undefined);
    throw error;
  });
await setUp(migrateDatabase(database));
await setUp(seedPlans(database.db));
const server = database.kind === 'postgres' ? await setUp(serverSettings(database)) : null;
const clock = new MovableClock();
const app = await setUp(buildApp({
  db: database.db,
  dbKind: database.kind,
  config,
  clock,
  mailer: createOutboxMailer(path.join(os.tmpdir(), 'ledger-bench-outbox'), config.mailFrom, () => {}),
  // the scenarios time their schools' first reads themselves; a keeper rebuilding a school whose
  // sessions one of them changed would run beside what they measure (decision 0071; a child server's
  // keeper finishes its first look before a load, bench/child.ts)
  positionsKeeper: { start: false },
}));
await setUp(app.listen({ port: 0, host: '127.0.0.1' }));
const address = app.server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const passwordHash = await hashPassword('BenchPass123');
const seconds = (full: number) => (quick ? Math.max(3, Math.round(full / 5)) : full);

/**
 * PostgreSQL's version and the settings that move every figure, as the run found them: a machine
 * whose server has autovacuum off (this workplace's CI machines set it in conf.d) keeps every dead
 * row the loads leave, so later scenarios read bloated tables a live server's autovacuum would have
 * cleaned; the heading says so beside the figures.
 */
async function serverSettings(db: Database): Promise<{ version: string; settings: Record<string, string> }> {
  const names = ['autovacuum', 'synchronous_commit', 'shared_buffers', 'max_connections'];
  const found = rowsOf<{ name: string; setting: string }>(
    await db.db.execute(sql`select name, current_setting(name) as setting from pg_settings where name = any(${`{${names.join(',')}}`}::text[])`),
  );
  const [version] = rowsOf<{ v: string }>(await db.db.execute(sql`select current_setting('server_version') as v`));
  return { version: version?.v ?? 'unknown', settings: Object.fromEntries(found.map((r) => [r.name, r.setting])) };
}

/** A new session of a school's administrator, as its bearer token (valid for a week). */
async function signedIn(userId: string, schoolId: string): Promise<string> {
  const now = clock.now();
  const session = await createSessionRow(database.db, { userId, schoolId, kind: 'session', now });
  return app.deps.tokens.sign({ sid: session.id, uid: userId, schoolId, role: 'school_admin', kind: 'session' }, new Date(now.getTime() + 7 * 86_400_000), now);
}

const ctx: BenchContext = {
  app,
  baseUrl,
  db: database.db,
  dbKind: database.kind,
  clock,
  sizes,
  quick,
  seconds,
  ...(databaseUrl ? { databaseUrl } : {}),
  childEnv: settings,
  log: (line) => console.log(line),
  async createSchool(name) {
    const now = clock.now();
    const [school] = await database.db
      .insert(schools)
      .values({ name, email: `${randomUUID()}@bench.test`, subscriptionPlan: 'premium', subscriptionStatus: 'active', planStartDate: now, planEndDate: new Date(now.getTime() + 365 * 86_400_000) })
      .returning();
    const [user] = await database.db
      .insert(users)
      .values({ schoolId: school!.id, email: school!.email, username: name, passwordHash, role: 'school_admin', emailConfirmedAt: now })
      .returning();
    await database.db.update(users).set({ hasSeenOnboarding: true }).where(eq(users.id, user!.id));
    return { schoolId: school!.id, token: await signedIn(user!.id, school!.id), userId: user!.id };
  },
  reusing: Boolean(process.env.BENCH_DB && databaseUrl),
  async signIn(name) {
    const [found] = await database.db
      .select({ schoolId: schools.id, userId: users.id })
      .from(schools)
      .innerJoin(users, eq(users.schoolId, schools.id))
      .where(eq(schools.name, name))
      .limit(1);
    if (!found) return undefined;
    return { ...found, token: await signedIn(found.userId, found.schoolId) };
  },
  async load(options: LoadOptions): Promise<BenchRow> {
    const result = await autocannon({
      url: `${baseUrl}${options.path}`,
      method: options.method ?? 'GET',
      connections: options.connections ?? 50,
      // the load comes from its own thread, as it would from other machines: responses are not
      // parsed and counted on the event loop that serves them
      workers: 1,
      // a fixed number of slow requests is timed to the end (autocannon's default gives up at 10 s)
      ...(options.amount ? { amount: options.amount, timeout: 120 } : { duration: seconds(options.duration ?? 5) }),
      headers: {
        ...BROWSER_HEADERS,
        authorization: `Bearer ${options.token}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const errors = failedRequests(result);
    const row: BenchRow = {
      name: options.name,
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors,
    };
    if (options.target) {
      row.target = options.target.label;
      row.met =
        errors === 0 &&
        (options.target.p99Ms === undefined || result.latency.p99 < options.target.p99Ms) &&
        (options.target.p50Ms === undefined || result.latency.p50 < options.target.p50Ms);
    }
    return row;
  },
  async time(name, fn, target) {
    const start = performance.now();
    const value = await fn();
    const ms = Math.round(performance.now() - start);
    const row: BenchRow = { name, ms, ...(target ? { target: target.label, met: ms < target.ms } : {}) };
    return { row, value };
  },
};

const rows: BenchRow[] = [];
try {
  for (const file of files) {
    console.log(`\n▶ ${file} (${database.kind})`);
    const module = (await import(path.join(benchDir, file))) as BenchModule;
    const produced = [...(await module.run(ctx)), ...(module.writesNoLedger ? [] : [await ledgerVerified(file.replace('.bench.ts', ''))])].map(judged);
    rows.push(...produced);
    for (const r of produced) console.log(`  ${formatRow(r)}`);
  }
} finally {
  await app.close();
  await cleanup();
}

/**
 * Issue 14: verify-ledger passes after every scenario. Every school in the run's database is
 * recomputed from its receipts (verify-ledger's own function) and compared with its stored balances.
 */
async function ledgerVerified(scenario: string): Promise<BenchRow> {
  const started = performance.now();
  const { schools, rows, differences } = await verifyAllBalances(database.db);
  return {
    name: `${scenario}: ledger verified after (verify-ledger)`,
    target: '0 differences',
    measured: differences.length,
    unit: 'differences',
    met: differences.length === 0,
    note: `${rows.toLocaleString('en-IN')} balance, position and income rows of ${schools} schools recomputed in ${Math.round((performance.now() - started) / 1000)} s`,
  };
}

/** Every row with a target says what it measured, in which unit, and whether it passed. */
function judged(r: BenchRow): BenchRow {
  if (r.target === undefined) return r;
  const measured = r.measured ?? r.ms ?? r.p99Ms ?? r.requestsPerSecond;
  const unit = r.unit ?? (r.ms !== undefined ? 'ms' : r.p99Ms !== undefined ? 'ms p99' : 'req/s');
  return { ...r, ...(measured === undefined ? {} : { measured }), unit, pass: r.pass !== undefined ? r.pass : (r.met ?? false) };
}

function verdictOf(r: BenchRow): string {
  return r.target === undefined ? '' : r.pass === null ? 'n/a' : r.pass ? 'pass' : 'FAIL';
}

function markdown(list: BenchRow[], heading: string): string {
  const cell = (v: unknown) => String(v ?? '').replace(/\|/g, '\\|');
  const lines = [heading, '', '| benchmark | measured | target | result | note |', '| --- | --- | --- | --- | --- |'];
  for (const r of list) {
    const measured = r.measured !== undefined ? `${r.measured} ${r.unit ?? ''}`.trim() : r.ms !== undefined ? `${r.ms} ms` : r.p99Ms !== undefined ? `${r.requestsPerSecond} req/s, p99 ${r.p99Ms} ms` : '';
    lines.push(`| ${cell(r.name)} | ${cell(measured)} | ${cell(r.target)} | ${verdictOf(r)} | ${cell(r.note)} |`);
  }
  return `${lines.join('\n')}\n`;
}

function formatRow(r: BenchRow): string {
  const figures =
    r.ms !== undefined
      ? `${r.ms} ms`
      : r.requestsPerSecond !== undefined
        ? `${r.requestsPerSecond} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}`
        : `${r.measured ?? ''} ${r.unit ?? ''}`.trim();
  const verdict = r.target ? ` [${verdictOf(r)}: ${r.target}]` : '';
  return `${r.name}: ${figures}${verdict}${r.note ? ` (${r.note})` : ''}`;
}

console.log(`\nBenchmark on ${database.kind}${server ? ` ${server.version} (autovacuum ${server.settings.autovacuum})` : ''}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`);
console.table(
  rows.map((r) => ({
    benchmark: r.name,
    'req/s': r.requestsPerSecond ?? '',
    'p50 ms': r.p50Ms ?? '',
    'p99 ms': r.p99Ms ?? '',
    errors: r.errors ?? '',
    ms: r.ms ?? '',
    measured: r.measured !== undefined ? `${r.measured} ${r.unit ?? ''}` : '',
    target: r.target ?? '',
    pass: verdictOf(r),
  })),
);
const out = path.join(benchDir, 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}-${database.kind}.json`);
writeFileSync(
  out,
  JSON.stringify({ date: new Date().toISOString(), database: database.kind, server, machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30) }, sizes, rows }, null, 2),
);
const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB`;
const heading = `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${server ? `PostgreSQL ${server.version} (${Object.entries(server.settings).map(([k, v]) => `${k} ${v}`).join(', ')})` : 'the embedded database'}, ${machine}; sizes ${sizes.join(', ')}${quick ? ' (--quick: development figures)' : ''}; file bench/results/${path.basename(out)}.`;
// the README's Performance section shows this table; a partial run (--only) does not replace it
if (!only || process.env.BENCH_WRITE_LATEST) {
  const table = markdown(rows, heading);
  writeFileSync(path.join(benchDir, 'results', 'latest.md'), table);
  // and into the README's Performance section, between its two markers
  const readme = path.join(benchDir, '..', 'README.md');
  const text = readFileSync(readme, 'utf8');
  const [open, close] = ['<!-- bench:latest -->', '<!-- /bench:latest -->'];
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a >= 0 && b > a) writeFileSync(readme, `${text.slice(0, a + open.length)}\n${table}${text.slice(b)}`);
}
console.log(`Figures written to ${path.relative(process.cwd(), out)}${!only || process.env.BENCH_WRITE_LATEST ? ' and bench/results/latest.md' : ''}`);
process.exit(0);
