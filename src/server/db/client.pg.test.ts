import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
