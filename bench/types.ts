import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/server/db/client';
import type { MovableClock } from '../src/server/clock';

/** One line of the benchmark table. Either a load test (rps/p50/p99) or a timed operation (ms). */
export interface BenchRow {
  name: string;
  /** what the issue asks for, e.g. "p99 < 100 ms" */
  target?: string;
  /** whether the target was met (undefined when no target) */
  met?: boolean;
  requestsPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  errors?: number;
  /** single timed operation */
  ms?: number;
  note?: string;
  /** the figure the target judges (filled in by the runner from ms, p99 or req/s when left out) */
  measured?: number | string;
  /** unit of `measured`: "ms", "ms p99", "req/s", "MB" … */
  unit?: string;
  /** the verdict written to the results (the runner copies `met`; null when the row cannot be judged yet) */
  pass?: boolean | null;
}

export interface LoadOptions {
  name: string;
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  token: string;
  body?: unknown;
  /** concurrent connections (default 50) */
  connections?: number;
  /** seconds (default 5) */
  duration?: number;
  /** total requests instead of a duration */
  amount?: number;
  target?: { p99Ms?: number; p50Ms?: number; label: string };
}

export interface BenchContext {
  app: FastifyInstance;
  baseUrl: string;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  clock: MovableClock;
  /** the sizes asked for on the command line (default [2000, 60000]) */
  sizes: number[];
  /** --quick: the development run (2,000 students, short load windows); figures are not for the README */
  quick: boolean;
  /** a load window in seconds: `full` normally, shorter with --quick */
  seconds(full: number): number;
  /** PostgreSQL only: the connection string of this run's database, for a server started in a child process */
  databaseUrl?: string;
  /** the settings the in-process app runs with, so a child server accepts the same tokens */
  childEnv: Record<string, string>;
  /** a confirmed school with an administrator on the premium plan; returns its id and a bearer token */
  createSchool(name: string): Promise<{ schoolId: string; token: string; userId: string }>;
  /** BENCH_DB: the run uses a kept database, whose generated schools are used again instead of made anew */
  reusing: boolean;
  /** a new sign-in of the administrator of the school of that name, when there is one */
  signIn(name: string): Promise<{ schoolId: string; token: string; userId: string } | undefined>;
  /** autocannon against the running app over loopback */
  load(options: LoadOptions): Promise<BenchRow>;
  /** times one async operation */
  time<T>(name: string, fn: () => Promise<T>, target?: { ms: number; label: string }): Promise<{ row: BenchRow; value: T }>;
  log(line: string): void;
}

/** A bench file exports `run(ctx)` and returns its rows. */
export type BenchModule = {
  run(ctx: BenchContext): Promise<BenchRow[]>;
  /** a scenario that writes no school's ledger has no verify-ledger row after it */
  writesNoLedger?: boolean;
};
