import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { indiaDate } from '../src/domain/sessions';
import { rowsOf } from '../src/server/lib/sql-rows';
import { staleSchoolsSql } from '../src/server/stats/student-positions';
import type { BenchContext } from './types';

/**
 * The app under test in a process of its own, as `npm start` runs it on the run's PostgreSQL database:
 * its event loop serves requests and nothing else. In the bench's own process autocannon built every
 * request and parsed every answer on the same thread that served them, so each latency included the
 * load generator's work and the server's memory included the reader's (decision 0042).
 */
export interface ChildServer {
  baseUrl: string;
  pid: number;
  /**
   * How long after it answered the server's background keeper took to build this month's whole-school
   * rows of every school built for another month (decision 0071), in ms: a live server has done this at
   * midnight, so the scenarios measure the day after it.
   */
  monthBuiltMs: number;
  /** resident memory now and at its peak (VmRSS, VmHWM), in MB */
  memoryMb(): { rss: number; peak: number };
  stop(): Promise<void>;
}

export async function startChildServer(ctx: BenchContext, { port, appName, workers = 1 }: { port: number; appName: string; workers?: number }): Promise<ChildServer> {
  if (!ctx.databaseUrl) throw new Error('a child server needs PostgreSQL (npm run bench:pg)');
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  // `npm start`'s own command (package.json), run by the shell as npm runs it: the compiled server
  // (decision 0051) with the heap limit it sets (decision 0063); its `exec` makes the shell the node
  // process, whose memory is measured. BENCH_CHILD_NODE_ARGS adds node's own options to that command
  // line, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server under a load (node refuses
  // --cpu-prof in NODE_OPTIONS, which the child is still given as it is)
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const command = childCommand(scripts.start, process.env.BENCH_CHILD_NODE_ARGS);
  const child: ChildProcess = spawn('sh', ['-c', command], {
    cwd: root,
    env: {
      ...process.env,
      ...ctx.childEnv,
      // node-postgres names the child's connections with it, so the run can end what they left running
      PGAPPNAME: appName,
      DATABASE_URL: ctx.databaseUrl,
      PORT: String(port),
      SERVE_WEB: 'false',
      WORKERS: String(workers),
      DATA_DIR: path.join(os.tmpdir(), `ledger-bench-${appName}`),
      APP_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the child server stopped with code ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      await res.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error('the child server did not answer within 60 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  // the keeper's first look starts as the server becomes ready
  const monthBuiltMs = await monthBuilt(ctx, () => child.exitCode === null);
  const statusMb = (field: 'VmRSS' | 'VmHWM') => {
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : NaN;
  };
  return {
    baseUrl,
    pid: child.pid!,
    monthBuiltMs,
    memoryMb: () => ({ rss: statusMb('VmRSS'), peak: statusMb('VmHWM') }),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      // a statement whose client is gone runs on until it has rows to send: a whole-school report a
      // load abandoned would otherwise go on loading the machine through the next scenarios
      await ctx.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${appName}`);
    },
  };
}

/**
 * Waits until the server's background keeper (decision 0071) has left no school to build for this
 * month, and says how long that took in ms: a live server builds them at midnight, so a scenario
 * measures the day after it, with the rows autovacuum would have cleaned since vacuumed. `alive`
 * says whether the server is still running.
 */
async function monthBuilt(ctx: BenchContext, alive: () => boolean): Promise<number> {
  const began = performance.now();
  const month = indiaDate(new Date()).slice(0, 7);
  for (;;) {
    if (!alive()) throw new Error('the child server stopped');
    if (rowsOf(await ctx.db.execute(staleSchoolsSql(month))).length === 0) {
      const built = Math.round(performance.now() - began);
      // the day after midnight, as a live server's autovacuum leaves it: building a month replaces
      // every school's rows, and a machine whose autovacuum is off (this workplace's, bench/run.ts)
      // would otherwise give the day's scenarios a table two-thirds dead rows to read
      await ctx.db.execute(sql`vacuum analyze student_positions`);
      return built;
    }
    if (performance.now() - began > 600_000) throw new Error('the child server had not built the month’s whole-school rows within 10 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `npm start`'s command with node's own options `args` (BENCH_CHILD_NODE_ARGS) put before the script. */
export function childCommand(start: string, args: string | undefined): string {
  if (!args?.trim()) return start;
  if (!/(^|\s)exec node /.test(start)) throw new Error(`BENCH_CHILD_NODE_ARGS needs npm start to run "exec node …", not "${start}"`);
  return start.replace(/(^|\s)exec node /, `$1exec node ${args.trim()} `);
}
