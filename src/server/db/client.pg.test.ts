import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { executePrepared } from '../lib/prepared';
import { rowsOf } from '../lib/sql-rows';
import { openTestDatabase } from '../test/harness';
import { boundedReadsBeside, openAppDatabase, type Database } from './client';

/**
 * The app's PostgreSQL connections (decision 0042). Only with DATABASE_URL (vitest.config.ts).
 * PostgreSQL's default is jit = on: the school stats statement at 60,000 students spent 215 s in
 * LLVM, so every pool the app opens turns it off for its connections.
 */
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const setting = async (db: Database['db'], name: 'jit' | 'statement_timeout') =>
  rowsOf<{ value: string }>(await db.execute(sql`select current_setting(${name}) as value`))[0]!.value;

describe('the app’s PostgreSQL connections', () => {
  it('run without JIT, the report builds’ pool too, which also stops a statement after its timeout', async () => {
    expect(await setting(database.db, 'jit')).toBe('off');
    const reports = boundedReadsBeside(database.db, { max: 2, statementTimeoutMs: 60_000 });
    try {
      expect(await setting(reports.db, 'jit')).toBe('off');
      expect(await setting(reports.db, 'statement_timeout')).toBe('1min');
    } finally {
      await reports.close();
    }
  });
});

describe('the app’s pool (decision 0076)', () => {
  it('keeps DATABASE_POOL_SIZE connections: eight statements at once take turns on three', async () => {
    const app = await openAppDatabase({ databaseUrl: process.env.DATABASE_URL!, databasePoolSize: 3, dataDir: 'unused' }, { migrate: false });
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => app.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`).then((r) => rowsOf<{ pid: number }>(r)[0]!.pid)),
      );
      expect(answers).toHaveLength(8);
      expect(new Set(answers).size).toBe(3);
    } finally {
      await app.close();
    }
  });
});

describe('idle connections (decision 0090)', () => {
  it('are kept past node-postgres’ 10 s of idleness, with the statements PostgreSQL planned on them, in both pools', async () => {
    // node-postgres closes an idle connection on a timer: fake the timers, not the sockets
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const app = await openAppDatabase({ databaseUrl: process.env.DATABASE_URL!, databasePoolSize: 1, dataDir: 'unused' }, { migrate: false });
    const reports = boundedReadsBeside(app.db, { max: 1, statementTimeoutMs: 60_000 });
    try {
      for (const db of [app.db, reports.db]) {
        const read = async () =>
          rowsOf<{ pid: number; kept: number }>(
            // the statement counts itself among the connection's named statements ('kept_on_idle' is in its text)
            await executePrepared(db, sql`select pg_backend_pid() as pid, (select count(*)::int from pg_prepared_statements where statement like '%kept_on_idle%') as kept`),
          )[0]!;
        const first = await read();
        // a clerk's pause between two clicks
        vi.advanceTimersByTime(30_000);
        await new Promise((resolve) => setImmediate(resolve));
        const later = await read();
        expect(later.pid).toBe(first.pid);
        // the statement PostgreSQL parsed on the first read is still there for the second
        expect(later.kept).toBe(1);
      }
    } finally {
      vi.useRealTimers();
      await reports.close();
      await app.close();
    }
  });

  it('a kept connection that PostgreSQL ends (a restart, an operator) is replaced on the next query, which answers', async () => {
    const app = await openAppDatabase({ databaseUrl: process.env.DATABASE_URL!, databasePoolSize: 1, dataDir: 'unused' }, { migrate: false });
    try {
      const pid = async () => rowsOf<{ pid: number }>(await app.db.execute(sql`select pg_backend_pid() as pid`))[0]!.pid;
      const first = await pid();
      // ended from another connection while it sits idle in the pool
      await database.db.execute(sql`select pg_terminate_backend(${first})`);
      for (let i = 0; i < 100 && rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pg_stat_activity where pid = ${first}`))[0]!.n > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const second = await pid();
      expect(second).not.toBe(first);
    } finally {
      await app.close();
    }
  });
});
