import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_KINDS, reportDocumentSchema, type ReportDocument } from '../../domain/report-document';
import { boundedReadsBeside } from '../db/client';
import { pgCode } from '../lib/pg-errors';
import { rowsOf } from '../lib/sql-rows';
import { withDatabase } from '../test/global-setup';
import { createTestApp, type TestContext } from '../test/harness';
import { pendingFeesReport } from './fee-reports';
import { buildFixtureSchool, NOW, type FixtureSchool } from './test-school';
import { BUILD } from './texts';

/**
 * How report documents are built under load (decision 0042): a build whose every requester has
 * gone never starts, and a build's statement that PostgreSQL ends is answered 503, never 500.
 * The cases that need several connections at once run on PostgreSQL only.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
const logLines: string[] = [];
let ctx: TestContext;
let fx: FixtureSchool;
let port: number;
let url: string | undefined;

beforeAll(async () => {
  // two builds at once, whatever this machine's cores give (decision 0094): the cases below hold both turns
  ctx = await createTestApp({ now: NOW, env: { REPORT_BUILDS: '2' }, logger: { level: 'warn', stream: { write: (line: string) => void logLines.push(line) } } });
  fx = await buildFixtureSchool(ctx);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
  if (onPostgres) {
    const [row] = rowsOf<{ name: string }>(await ctx.database.db.execute(sql`select current_database() as name`));
    url = withDatabase(process.env.DATABASE_URL!, row!.name);
  }
});
afterAll(() => ctx.close());

/** A GET over a real connection that the client closes after `closeAfterMs`, before any answer. */
function leaveEarly(path: string, closeAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${fx.school.token}` } });
    request.on('error', () => {});
    request.on('response', () => {
      throw new Error(`${path} was answered before its client left`);
    });
    setTimeout(() => {
      request.destroy();
      resolve();
    }, closeAfterMs);
  });
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection of its own to the test's database, for the locks and cancels the cases below need. */
async function adminClient(): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  return admin;
}

async function waitingOnLock(admin: pg.Client): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid() order by query_start",
  );
  return rows.map((r) => r.pid);
}

describe('report builds whose requesters leave', () => {
  it('a client that closes its request before the report is ready gets no 5xx and leaves nothing behind for the next one', async () => {
    await leaveEarly('/api/reports/session', 0);
    await settle(100);
    const res = await fx.school.api.get('/api/reports/session');
    expect(res.statusCode).toBe(200);
    expect((res.json() as ReportDocument).kind).toBe('session');
    expect(ctx.app.serverErrors.lastHour(ctx.clock.now())).toBe(0);
    expect(logLines.join('')).not.toContain('unhandled error');
  });

  it.skipIf(!onPostgres)('a build waiting for its turn is dropped when its only requester leaves, and the next request builds afresh', async () => {
    const admin = await adminClient();
    const holder = await adminClient();
    try {
      // the Monthly Report and the Day Book read expenses: with the table locked, they hold both turns
      await holder.query('begin');
      await holder.query('lock table expenses in access exclusive mode');
      const monthly = fx.school.api.get('/api/reports/monthly?month=2026-10');
      const dayBook = fx.school.api.get('/api/reports/day-book?date=2026-10-05');
      await expect.poll(() => waitingOnLock(admin), { timeout: 10_000 }).toHaveLength(2);
      // the Class-wise Report (no expenses) waits for a turn; its client gives up meanwhile
      const before = ctx.clock.now().toISOString();
      await leaveEarly('/api/reports/class-wise', 300);
      await settle(100);
      await holder.query('rollback');
      expect((await monthly).statusCode).toBe(200);
      expect((await dayBook).statusCode).toBe(200);
      await settle(200);
      // had the abandoned build run when the turns came free, this would be its document, made before
      ctx.clock.advance(1_000);
      const res = await fx.school.api.get('/api/reports/class-wise');
      expect(res.statusCode).toBe(200);
      const doc = res.json() as ReportDocument;
      expect(doc.generatedAt).not.toBe(before);
      expect(doc.generatedAt).toBe(ctx.clock.now().toISOString());
      // the request that left was answered nothing worth a log line or a 5xx
      expect(ctx.app.serverErrors.lastHour(ctx.clock.now())).toBe(0);
      expect(logLines.join('')).not.toContain('unhandled error');
    } finally {
      await holder.query('rollback').catch(() => {});
      await holder.end();
      await admin.end();
    }
  });
});

describe('report builds that PostgreSQL stops', () => {
  it.skipIf(!onPostgres)('a build whose statement is ended answers 503 with a message to show, and the next request builds again', async () => {
    const admin = await adminClient();
    const holder = await adminClient();
    try {
      await holder.query('begin');
      await holder.query('lock table expenses in access exclusive mode');
      const stopped = fx.school.api.get('/api/reports/income-expense');
      // its two reads of expenses, each on a connection of the report pool
      await expect.poll(() => waitingOnLock(admin), { timeout: 10_000 }).toHaveLength(2);
      // what the report pool's statement timeout does after a minute (error 57014), done at once
      for (const pid of await waitingOnLock(admin)) await admin.query('select pg_cancel_backend($1)', [pid]);
      const res = await stopped;
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: BUILD.tooLong });
      await holder.query('rollback');
      const again = await fx.school.api.get('/api/reports/income-expense');
      expect(again.statusCode).toBe(200);
    } finally {
      await holder.query('rollback').catch(() => {});
      await holder.end();
      await admin.end();
    }
    expect(logLines.join('')).not.toContain('unhandled error');
  });

  it.skipIf(!onPostgres)('the report pool is a pool of its own whose statements PostgreSQL ends after its timeout', async () => {
    const reads = boundedReadsBeside(ctx.database.db, { max: 1, statementTimeoutMs: 200 });
    try {
      expect(reads.db).not.toBe(ctx.database.db);
      const [row] = rowsOf<{ statement_timeout: string }>(await reads.db.execute(sql`show statement_timeout`));
      expect(row!.statement_timeout).toBe('200ms');
      const error = await reads.db.execute(sql`select pg_sleep(2)`).then(
        () => null,
        (e: unknown) => e,
      );
      expect(pgCode(error)).toBe('57014');
      // the app's own pool has no such limit
      const [main] = rowsOf<{ statement_timeout: string }>(await ctx.database.db.execute(sql`show statement_timeout`));
      expect(main!.statement_timeout).toBe('0');
    } finally {
      await reads.close();
    }
  });

  it.skipIf(onPostgres)('on the embedded database report builds read through the one database as before', () => {
    const reads = boundedReadsBeside(ctx.database.db, { max: 1, statementTimeoutMs: 200 });
    expect(reads.db).toBe(ctx.database.db);
  });
});

// last: these answers stay cached, and the cases above need builds that run
describe('report answers', () => {
  it('every kind answers JSON that holds exactly what the document schema declares, the same text again from the cache', async () => {
    for (const kind of REPORT_KINDS) {
      const first = await ctx.app.inject({ method: 'GET', url: `/api/reports/${kind}`, headers: { authorization: `Bearer ${fx.school.token}` } });
      expect(first.statusCode, kind).toBe(200);
      expect(first.headers['content-type'], kind).toMatch(/^application\/json/);
      const body = first.json<ReportDocument>();
      // zod drops keys it does not know: a field the schema does not declare makes these differ
      expect(reportDocumentSchema.parse(body), kind).toEqual(body);
      expect(body.kind).toBe(kind);
      const again = await ctx.app.inject({ method: 'GET', url: `/api/reports/${kind}`, headers: { authorization: `Bearer ${fx.school.token}` } });
      expect(again.body, kind).toBe(first.body);
    }
    const pending = (await ctx.app.inject({ method: 'GET', url: '/api/reports/pending-fees', headers: { authorization: `Bearer ${fx.school.token}` } })).json<ReportDocument>();
    expect(pending.summary.find((f) => f.label === 'Total pending')?.value).toBe('30800.00');
  });

  it.runIf(onPostgres)('the defaulters list is planned once per connection, not for every build (PostgreSQL)', async () => {
    const plans = await ctx.database.db.transaction(async (tx) => {
      const report = { db: tx, schoolId: fx.school.schoolId, schoolName: 'Test', today: '2026-11-22', generatedAt: NOW.toISOString() };
      for (let i = 0; i < 4; i++) {
        const doc = await pendingFeesReport(report, { sort: i % 2 === 0 ? 'class' : 'amount' });
        expect(doc.summary.find((f) => f.label === 'Total pending')?.value).toBe('30800.00');
      }
      const planned = async (like: string) =>
        rowsOf<{ generic: number; custom: number }>(
          await tx.execute(sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like ${like} order by statement`),
        );
      // the runs of months due (any sort; found by skipping, decision 0095), and the list PostgreSQL writes as JSON (decision 0059)
      return { masks: await planned('%with recursive runs as%'), lists: await planned('%string_agg(%') };
    });
    // the months' statement once, run four times; one list statement per sort, each run twice; never planned for a run's values
    expect(plans.masks).toEqual([{ generic: 4, custom: 0 }]);
    expect(plans.lists).toEqual([
      { generic: 2, custom: 0 },
      { generic: 2, custom: 0 },
    ]);
  });

  it('a bad query is answered 400 with its message, not a document', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/reports/monthly?month=2026-13', headers: { authorization: `Bearer ${fx.school.token}` } });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('month must be written as YYYY-MM');
  });
});
