import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { aprilToMarchSession, indiaDate } from '../src/domain/sessions';
import { academicSessions } from '../src/server/db/schema';
import { insertRoster } from '../src/server/demo/generate';
import { rowsOf } from '../src/server/lib/sql-rows';
import type { BenchContext, BenchRow } from './types';
import { BROWSER_HEADERS } from './load';
import { freePort } from '../src/server/test/ports';

/**
 * Issue 14 item 4: the same students page served by `npm start` with WORKERS=1 and WORKERS=2 on
 * the bench's PostgreSQL database (decision 0043). The servers are real `npm start` processes
 * (node:cluster with 2), so the figures include the session check, the cluster's hand-off and
 * everything a deployment runs. On the embedded database there is one process only: no rows.
 *
 * On a 2-core machine the load generator, PostgreSQL and the app share the cores, so the second
 * process shows how much the app's own event loop limited the first, not a doubling.
 */

const STUDENTS = 2_000;
const CONNECTIONS = 100;
const SECONDS = 10;
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

async function startServer(ctx: BenchContext, databaseUrl: string, workers: number, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const config = ctx.app.deps.config;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      WORKERS: String(workers),
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      // the bench's tokens are signed with its secret
      SESSION_SECRET: config.sessionSecret,
      ENCRYPTION_KEY: config.encryptionKey,
      SERVE_WEB: 'false',
      PAYMENTS_PROVIDER: 'sandbox',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`WORKERS=${workers} did not start:\n${errors}`);
    if ((await fetch(`${url}/api/health`).then((r) => r.status, () => 0)) === 200) break;
    if (Date.now() > deadline) throw new Error(`WORKERS=${workers} did not answer within 2 minutes:\n${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, child };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  });

async function measure(ctx: BenchContext, databaseUrl: string, workers: number, token: string, dataDir: string): Promise<BenchRow> {
  const { url, child } = await startServer(ctx, databaseUrl, workers, dataDir);
  try {
    const options = { url: `${url}/api/students?limit=50`, connections: CONNECTIONS, workers: 1, headers: { ...BROWSER_HEADERS, authorization: `Bearer ${token}` } };
    // every process checks the session once and warms its code paths before it is timed
    await autocannon({ ...options, duration: 2 });
    const result = await autocannon({ ...options, duration: SECONDS });
    return {
      name: `students page, ${STUDENTS.toLocaleString('en-IN')} students, ${CONNECTIONS} connections, WORKERS=${workers}`,
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      // autocannon's errors include its timeouts
      errors: result.errors + result.non2xx,
      ...(result.errors + result.non2xx > 0
        ? { note: `${result.timeouts} timed out (10 s), ${result.non2xx} not 2xx, ${result.errors - result.timeouts} connection errors` }
        : {}),
    };
  } finally {
    await stop(child);
  }
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  if (ctx.dbKind !== 'postgres' || !process.env.DATABASE_URL) {
    ctx.log('  scale: several app processes need PostgreSQL (npm run bench:pg); skipped on the embedded database');
    return [];
  }
  const [current] = rowsOf<{ name: string }>(await ctx.db.execute(sql`select current_database() as name`));
  const target = new URL(process.env.DATABASE_URL);
  target.pathname = `/${current!.name}`;

  const school = await ctx.createSchool(`Bench Scale School ${STUDENTS}`);
  const session = aprilToMarchSession(indiaDate(ctx.clock.now()));
  const [row] = await ctx.db.insert(academicSessions).values({ schoolId: school.schoolId, ...session, isActive: true }).returning();
  await insertRoster(ctx.db, { schoolId: school.schoolId, sessionId: row!.id, from: 1, to: STUDENTS, count: STUDENTS, enrolledOn: session.startDate });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-scale-'));
  try {
    const one = await measure(ctx, target.toString(), 1, school.token, dataDir);
    const two = await measure(ctx, target.toString(), 2, school.token, dataDir);
    const gain = one.requestsPerSecond ? (two.requestsPerSecond ?? 0) / one.requestsPerSecond : 0;
    two.note = `${two.note ? `${two.note}; ` : ''}${gain.toFixed(2)}× the requests of one process on ${os.cpus().length} cores shared with PostgreSQL and the load generator`;
    return [one, two];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
