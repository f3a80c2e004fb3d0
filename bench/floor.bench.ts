import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startChildServer } from './child';
import { p99Row, percentile, variedLoad } from './load';
import type { BenchContext, BenchRow } from './types';

/**
 * The machine's floor (decision 0102): what this machine answers at the targets' 50 connections
 * when almost nothing is asked, measured in the same run as the targets, so a row that fails can be
 * read against what the machine itself allows that day. Its speed moved by half within an hour on
 * the shared 2-core machines the table is judged on.
 *
 * - the app's least answer: `GET /api/health` on the app's own `npm start` process (no sign-in, no
 *   database), under the load generator every target row uses;
 * - PostgreSQL's least read and least gapless-numbered write, from `pgbench` (PostgreSQL's own load
 *   tool, in C) on a scratch database: a row by its key; a row read, the counter row taken with a
 *   row inserted (as every receipt takes its school's counter, ruling 4), a row updated. The write
 *   runs on 50 connections, as the targets' load reaches the app, and on 2, as the app's pool reaches
 *   PostgreSQL on two cores (decision 0076): the rate a closed loop of 50 can get at best.
 */
const PORT = Number(process.env.BENCH_FLOOR_PORT ?? 5104);
const CHILD_APP_NAME = 'ledger-bench-floor-child';
const exec = promisify(execFile);

/** nothing here writes a school's ledger: the runner's verify-ledger row after it is left out */
export const writesNoLedger = true;

/** pgbench's scale on the scratch database: 1,000,000 rows in pgbench_accounts */
const SCALE = 10;

/**
 * The least receipt: a row read, the school's counter row taken with the receipt's row inserted, a
 * balance updated. (A custom script's :scale is 1 whatever the database holds: the rows are counted here.)
 */
const GAPLESS_WRITE = `\\set aid random(1, ${SCALE * 100_000})
BEGIN;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
WITH c AS (UPDATE floor_counter SET last_number = last_number + 1 WHERE id = 1 RETURNING last_number)
  INSERT INTO floor_receipts (number, aid, amount) SELECT last_number, :aid, 10 FROM c;
UPDATE pgbench_accounts SET abalance = abalance + 10 WHERE aid = :aid;
END;
`;

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  if (ctx.dbKind !== 'postgres' || !ctx.databaseUrl) return [{ name: "machine's floor", note: 'PostgreSQL only (npm run bench:pg)' }];
  // a minute in all: the runner prints its rows after it, with no progress lines of its own
  const rows: BenchRow[] = [];

  const child = await startChildServer(ctx, { port: PORT, appName: CHILD_APP_NAME });
  try {
    const f = await variedLoad({ name: 'health', baseUrl: child.baseUrl, connections: 50, duration: ctx.seconds(10), warmup: 2, next: () => ({ path: '/api/health' }) });
    rows.push(p99Row("machine's floor: the app's least answer, GET /api/health (50 connections)", f, undefined, 'no sign-in, no database'));
  } finally {
    await child.stop();
  }

  const pgbench = await exec('pgbench', ['--version']).catch(() => null);
  if (!pgbench) {
    rows.push({ name: "machine's floor: PostgreSQL's", note: "pgbench not found (it comes with Debian's postgresql-15): not measured" });
    return rows;
  }
  const url = new URL(ctx.databaseUrl);
  const scratch = `${url.pathname.slice(1)}_floor`;
  const admin = new pg.Client({ connectionString: ctx.databaseUrl });
  await admin.connect();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-floor-'));
  try {
    await admin.query(`CREATE DATABASE ${scratch}`);
    url.pathname = `/${scratch}`;
    const target = url.toString();
    await exec('pgbench', ['-i', '-q', '-s', String(SCALE), target]);
    const setup = new pg.Client({ connectionString: target });
    await setup.connect();
    await setup.query('create table floor_counter (id int primary key, last_number bigint not null); insert into floor_counter values (1, 0)');
    await setup.query('create table floor_receipts (id bigserial primary key, number bigint not null, aid int not null, amount int not null, created_at timestamptz not null default now())');
    await setup.end();
    const script = path.join(dir, 'gapless.sql');
    writeFileSync(script, GAPLESS_WRITE);

    /** pgbench for `seconds` after 2 s untimed, as a row: its p50 and p99 from its log of every transaction */
    const measure = async (name: string, args: string[], clients: number, detail: (rate: number) => string): Promise<BenchRow> => {
      const label = `c${clients}${args[0]}`.replace(/\W/g, '');
      const common = ['-n', '-M', 'prepared', '-c', String(clients), '-j', String(Math.min(clients, 2))];
      await exec('pgbench', [...common, '-T', '2', ...args, target]);
      const { stdout } = await exec('pgbench', [...common, '-T', String(ctx.seconds(10)), '-l', `--log-prefix=${path.join(dir, label)}`, ...args, target]);
      const latencies = readdirSync(dir)
        .filter((f) => f.startsWith(`${label}.`))
        .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').trim().split('\n').map((line) => Number(line.split(' ')[2]) / 1000))
        .sort((a, b) => a - b);
      const rate = Math.round(Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0));
      const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
      return { name, requestsPerSecond: rate, p50Ms: percentile(latencies, 0.5, 1), p99Ms: percentile(latencies, 0.99, 1), errors: failed, note: `${latencies.length} transactions; ${detail(rate)}` };
    };

    rows.push(await measure("machine's floor: PostgreSQL's least read (pgbench, 50 connections)", ['-S'], 50, () => 'one row by its key (--select-only)'));
    const write = 'a row read, a counter row taken with a row inserted, a row updated';
    rows.push(await measure("machine's floor: PostgreSQL's least numbered write (pgbench, 50 connections)", ['-f', script], 50, () => write));
    // a closed loop of 50 connections in front of a pool that serves `rate` a second waits 50 / rate
    rows.push(
      await measure("machine's floor: that write through 2 connections, as the app's pool (pgbench)", ['-f', script], 2, (rate) =>
        rate ? `50 connections queued in front of it would each wait ${Math.round((50_000 / rate) * 10) / 10} ms a write` : 'no transaction',
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
  return rows;
}
