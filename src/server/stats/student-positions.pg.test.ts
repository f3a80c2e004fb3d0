import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { buildFixtureSchool, NOW, type FixtureSchool } from '../reports/test-school';
import { createTestApp, type TestContext } from '../test/harness';
import { schoolStats } from './queries';
import { buildStalePositions } from './student-positions';

/**
 * Decision 0058 with writers in flight (PostgreSQL only: the embedded database runs one statement
 * at a time). A reader never waits for a writer's marks, so it cannot deadlock with a writer that
 * marks students one after another; a student whose mark a writer holds is recomputed all the same,
 * so a write committed before the read is never hidden by one still in flight; and the mark stays
 * until the next reader, who sees the write in flight once it has committed.
 */
let ctx: TestContext;
let fx: FixtureSchool;
beforeAll(async () => {
  ctx = await createTestApp({ now: NOW });
  fx = await buildFixtureSchool(ctx);
});
afterAll(() => ctx.close());

const stats = () => schoolStats(ctx.database.db, { schoolId: fx.schoolId, today: '2026-11-22' });
const setStatus = (db: Db, studentId: string, status: 'active' | 'passout') =>
  db.execute(sql`update students set status = ${status} where school_id = ${fx.schoolId} and id = ${studentId}`);

/** A transaction that runs `steps` one at a time, each when the test says so, and commits at the end. */
function openWriter() {
  const queue: Array<{ step: (tx: Db) => Promise<unknown>; done: (v?: unknown) => void; failed: (e: unknown) => void }> = [];
  let wake: (() => void) | undefined;
  let closing = false;
  const finished = ctx.database.db.transaction(async (tx) => {
    for (;;) {
      const next = queue.shift();
      if (next) {
        await next.step(tx as unknown as Db).then(next.done, next.failed);
        continue;
      }
      if (closing) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  });
  return {
    run: (step: (tx: Db) => Promise<unknown>) =>
      new Promise((done, failed) => {
        queue.push({ step, done, failed });
        wake?.();
      }),
    commit: async () => {
      closing = true;
      wake?.();
      await finished;
    },
  };
}

/** Fails when `work` takes longer than `ms`: a reader that waited for the writer would. */
const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))]);

describe('whole-school rows with writers in flight', () => {
  it('a reader neither waits for a writer nor hides a committed write behind one in flight', async () => {
    const start = await stats();
    // committed: Meera passes out
    await setStatus(ctx.database.db, fx.students.meera.id, 'passout');
    // in flight: Meera back, then Kabir out, in two statements of one transaction
    const writer = openWriter();
    await writer.run((tx) => setStatus(tx, fx.students.meera.id, 'active'));

    const during = await within(3_000, stats());
    // the committed passout shows; the writer's change to Meera does not, yet
    expect(during.totalStudents).toBe(start.totalStudents - 1);

    // the writer goes on to mark another student after the reader cleared marks: it does not deadlock
    await within(3_000, writer.run((tx) => setStatus(tx, fx.students.kabir.id, 'passout')));
    await writer.commit();

    const after = await within(3_000, stats());
    expect(after.totalStudents).toBe(start.totalStudents - 1);
    expect(after.pendingStudents).toBe(start.pendingStudents - 1);

    await setStatus(ctx.database.db, fx.students.kabir.id, 'active');
    expect(await stats()).toEqual(start);
  });

  it('the background builder passes over a school a reader holds, and two builders build a school once (decision 0071)', async () => {
    const db = ctx.database.db;
    const start = await stats();
    // a reader of the school holds its lock, its rows built for last month
    await db.execute(sql`update school_positions set month_key = '2026-10' where school_id = ${fx.schoolId}`);
    const reader = openWriter();
    await reader.run((tx) => tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`positions-school:${fx.schoolId}`}, 0))`));
    const passed = await within(3_000, buildStalePositions(db, '2026-11'));
    expect(passed.busy).toEqual([fx.schoolId]);
    expect(passed.built).toEqual([]);
    await reader.commit();

    // two processes' builders at once: one builds the school, the other passes it over or finds it built
    await db.execute(sql`update school_positions set month_key = '2026-10' where school_id = ${fx.schoolId}`);
    const [a, b] = await Promise.all([buildStalePositions(db, '2026-11'), buildStalePositions(db, '2026-11')]);
    expect([...a.built, ...b.built]).toEqual([fx.schoolId]);
    const [row] = (await db.execute(sql`select month_key from school_positions where school_id = ${fx.schoolId}`)).rows as Array<{ month_key: string }>;
    expect(row?.month_key).toBe('2026-11');
    expect(await stats()).toEqual(start);
  });
});
