import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, type TestContext } from '../test/harness';
import { buildFixtureSchool, NOW, type FixtureSchool } from './test-school';

/**
 * Decision 0094: whole-school report builds run REPORT_BUILDS at a time in a process (half the
 * cores by default, one on the bench's two), the others waiting in the app. Under the mixed load,
 * builds on every core left the counter's lookups, fee status and saves waiting for a core.
 *
 * A build is held at its read of the session's balances by a lock the test takes on that table; a
 * second report asked meanwhile either waits for its turn in the app (its statement not yet sent)
 * or stands in PostgreSQL's lock queue beside the first. PostgreSQL only: the embedded database
 * runs one statement at a time whatever the gate allows.
 */
let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

async function twoBuildsHeld(reportBuilds: string) {
  ctx = await createTestApp({ now: NOW, env: { REPORT_BUILDS: reportBuilds } });
  const fx: FixtureSchool = await buildFixtureSchool(ctx);
  const { db } = ctx.database;
  // statements blocked on the balances' lock (nothing else waits for a lock here), seen from another connection
  const blocked = async () =>
    rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from pg_stat_activity
                           where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'relation'`),
    )[0]!.n;
  let heldWhileLocked = -1;
  let answers: Array<{ statusCode: number; json: () => unknown }> = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`lock table student_session_balances in access exclusive mode`);
    const asked = Promise.all([fx.school.api.get('/api/reports/class-wise?academicYear=2026-27'), fx.school.api.get('/api/reports/yearly?academicYear=2026-27')]);
    // the first build reaches the lock; then give the second every chance to reach it too
    for (let i = 0; i < 200 && (await blocked()) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 400));
    heldWhileLocked = await blocked();
    // the lock goes with this transaction: both builds then finish
    void asked.then((r) => (answers = r));
  });
  for (let i = 0; i < 500 && answers.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  return { heldWhileLocked, answers };
}

describe('whole-school report builds at once', () => {
  it('one at a time with REPORT_BUILDS=1: the second waits in the app, and both answer with their figures', async () => {
    const { heldWhileLocked, answers } = await twoBuildsHeld('1');
    expect(heldWhileLocked).toBe(1);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const classWise = answers[0]!.json() as { tables: Array<{ title: string; totals: Record<string, unknown> }> };
    expect(classWise.tables.find((t) => t.title === 'Classes and sections')!.totals).toMatchObject({ students: 4, due: '82000.00', received: '52400.00', outstanding: '29300.00' });
    const yearly = answers[1]!.json() as { summary: Array<{ label: string; value: unknown }> };
    expect(yearly.summary.find((s) => s.label === 'Outstanding till date')!.value).toBe('29300.00');
  });

  it('two at a time with REPORT_BUILDS=2: both stand at the lock', async () => {
    const { heldWhileLocked, answers } = await twoBuildsHeld('2');
    // the class-wise statement and at least one of the yearly report's reads (it sends three at once)
    expect(heldWhileLocked).toBeGreaterThanOrEqual(2);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
  });
});
