import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataExports, users } from '../db/schema';
import { buildFixtureSchool, NOW, type FixtureSchool } from '../reports/test-school';
import { createTestApp, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';
import { readZip } from '../test/zip';
import { createExport } from './queries';
import { ExportWorker } from './worker';

/**
 * Whole-school exports with several requests and several app processes at once (issue 14: jobs run
 * once). A build is held at its read of the school's receipts by a lock the test takes on that
 * table, the way a large school's count, workbook commit or zip keeps it busy with no progress to
 * report. PostgreSQL only: the embedded database runs one statement at a time.
 */
let ctx: TestContext;
let fixture: FixtureSchool;
let dataDir: string;
let userId: string;
let clockAt = NOW.getTime();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-export-jobs-'));
  ctx = await createTestApp({ now: NOW, env: { DATA_DIR: dataDir } });
  fixture = await buildFixtureSchool(ctx);
  const [user] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.schoolId, fixture.schoolId)).limit(1);
  userId = user!.id;
}, 120_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const waiting = (event: string) => lockWaiters(ctx.database.db, [event]);


const jobOf = async (id: string) => (await ctx.database.db.select().from(dataExports).where(eq(dataExports.id, id)))[0]!;
const moveClock = (seconds: number) => ctx.clock.set(new Date((clockAt += seconds * 1000)));
/** What the exports folder holds: only finished zips, nothing a run left behind. */
const exportFiles = () => readdirSync(path.join(dataDir, 'exports')).sort();

async function downloaded(id: string) {
  const res = await fixture.school.api.get(`/api/exports/${id}/download`);
  expect(res.statusCode, res.body).toBe(200);
  return readZip(res.rawPayload);
}

describe('exports asked and built at once', () => {
  it('two presses of Export at once queue one export and answer its id to both', async () => {
    const answers: Array<{ statusCode: number; json: () => { id: string } }> = [];
    await ctx.database.db.transaction(async (tx) => {
      // both requests reach the insert (the code before) or one waits for the other's look
      await tx.execute(sql`lock table data_exports in share mode`);
      for (let i = 0; i < 2; i++) void fixture.school.api.post('/api/exports').then((r) => answers.push(r));
      await until(async () => (await waiting('relation')) + (await waiting('advisory')) === 2);
    });
    await until(async () => answers.length === 2);
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202]);
    expect(answers[0]!.json().id).toBe(answers[1]!.json().id);
    const rows = await ctx.database.db.select().from(dataExports).where(eq(dataExports.schoolId, fixture.schoolId));
    expect(rows).toHaveLength(1);
    // the app's worker builds it: given longer than a lock wait, for a slow machine
    await until(async () => (await jobOf(rows[0]!.id)).status === 'done', 20);
    expect((await jobOf(rows[0]!.id)).status).toBe('done');
  });

  it('a build busy past its lease keeps its job: another process finds nothing to take', async () => {
    const job = await createExport(ctx.database.db, { schoolId: fixture.schoolId, userId, now: ctx.clock.now() });
    const first = new ExportWorker({ db: ctx.database.db, clock: ctx.clock, dataDir, renewEveryMs: 20 });
    const second = new ExportWorker({ db: ctx.database.db, clock: ctx.clock, dataDir, renewEveryMs: 20 });
    let firstRan: Promise<number> | undefined;
    let secondRan: number | undefined;
    let claimedAt: Date | null = null;
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table receipts in access exclusive mode`);
      firstRan = first.runOnce();
      await until(async () => (await waiting('relation')) === 1);
      claimedAt = (await jobOf(job.id)).startedAt;
      // three minutes on the clock with the build still busy: past the two-minute lease it was given
      moveClock(180);
      await until(async () => ((await jobOf(job.id)).leaseUntil?.getTime() ?? 0) > clockAt);
      void second.runOnce().then((n) => (secondRan = n));
      await until(async () => secondRan !== undefined || (await waiting('relation')) === 2);
    });
    await until(async () => secondRan !== undefined);
    expect(secondRan).toBe(0);
    expect(await firstRan).toBe(1);
    const done = await jobOf(job.id);
    expect(done).toMatchObject({ status: 'done', progress: 100, startedAt: claimedAt });
    expect([...(await downloaded(job.id)).keys()]).toContain('README.txt');
    expect(exportFiles()).toEqual(expect.arrayContaining([`${job.id}.zip`]));
    expect(exportFiles().every((name) => /^[0-9a-f-]{36}\.zip$/.test(name))).toBe(true);
  });

  it('a build that lost its job (its process stalled past the lease) leaves the new run and its zip alone', async () => {
    const job = await createExport(ctx.database.db, { schoolId: fixture.schoolId, userId, now: ctx.clock.now() });
    // the first renews only at progress steps, as a process whose timers stalled would
    const stalled = new ExportWorker({ db: ctx.database.db, clock: ctx.clock, dataDir, renewEveryMs: 3_600_000 });
    const next = new ExportWorker({ db: ctx.database.db, clock: ctx.clock, dataDir, renewEveryMs: 20 });
    let stalledRan: Promise<number> | undefined;
    let nextRan: Promise<number> | undefined;
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table receipts in access exclusive mode`);
      stalledRan = stalled.runOnce();
      await until(async () => (await waiting('relation')) === 1);
      moveClock(180);
      nextRan = next.runOnce();
      await until(async () => (await waiting('relation')) === 2);
    });
    expect(await nextRan).toBe(1);
    expect(await stalledRan).toBe(1);
    const done = await jobOf(job.id);
    expect(done).toMatchObject({ status: 'done', progress: 100, error: null });
    const files = await downloaded(job.id);
    expect([...files.keys()]).toEqual(expect.arrayContaining(['README.txt', 'school-data.xlsx']));
    expect(exportFiles().every((name) => /^[0-9a-f-]{36}\.zip$/.test(name))).toBe(true);
  });
});
