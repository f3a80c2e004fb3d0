import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOARD, defaultSubjects } from '../../domain/boards';
import { rowsOf } from '../lib/sql-rows';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { lockWaiters, until } from '../test/races';
import { ensureSubjectLists } from './subjects';

/**
 * Two first uses of the same two classes at once, asking for them in opposite orders (a marks save
 * of Class 5 and 6 students, and one of Class 6 and 5). Each seeds the classes' subject lists by
 * claiming their seed markers; claimed in the order asked, each would hold one marker and wait for
 * the other's: PostgreSQL ends one with a deadlock (40P01, a 500 to the teacher). A trigger of this
 * test's own database holds each just before it claims the second class it asked for, on a lock the
 * test takes, so both are under way when they go on. PostgreSQL only.
 */
const HOLD = 7_140_001;
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;

beforeAll(async () => {
  ctx = await createTestApp();
  school = await signUpSchool(ctx);
  await ctx.database.db.execute(sql.raw(`
    create function test_hold_seed() returns trigger language plpgsql as $$
    begin
      if new.class_name = current_setting('test.hold_before', true) then
        perform pg_advisory_xact_lock_shared(${HOLD});
      end if;
      return new;
    end $$;
    create trigger test_hold_seed before insert on subject_list_seeds for each row execute function test_hold_seed();`));
});
afterAll(() => ctx.close());

/** First use of `classNames` in one transaction, held before it claims `holdBefore`. */
const firstUse = (classNames: string[], holdBefore: string) =>
  ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('test.hold_before', ${holdBefore}, true)`);
    await ensureSubjectLists(tx, { schoolId: school.schoolId, classNames });
  });

describe('first use of several classes by two requests at once, in different orders', () => {
  it('seeds each class once and neither fails', async () => {
    const outcomes: PromiseSettledResult<void>[] = [];
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${HOLD})`);
      void Promise.allSettled([firstUse(['Class 5', 'Class 6'], 'Class 6'), firstUse(['Class 6', 'Class 5'], 'Class 5')]).then((all) => outcomes.push(...all));
      await until(async () => (await lockWaiters(ctx.database.db, ['advisory'])) === 2);
      expect(await lockWaiters(ctx.database.db, ['advisory'])).toBe(2);
    });
    await until(() => outcomes.length === 2);
    expect(outcomes.map((o) => (o.status === 'rejected' ? String((o.reason as Error).cause ?? o.reason) : 'ok'))).toEqual(['ok', 'ok']);
    const counts = rowsOf<{ class_name: string; n: number }>(
      await ctx.database.db.execute(sql`select class_name, count(*)::int as n from subjects where school_id = ${school.schoolId} group by class_name order by class_name`),
    );
    expect(counts).toEqual([
      { class_name: 'Class 5', n: defaultSubjects(DEFAULT_BOARD, 'Class 5').length },
      { class_name: 'Class 6', n: defaultSubjects(DEFAULT_BOARD, 'Class 6').length },
    ]);
  });
});
