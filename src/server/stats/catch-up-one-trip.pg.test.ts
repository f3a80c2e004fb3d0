import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRupees } from '../../domain/money';
import { openTestDatabase, type signUpSchool, type TestContext } from '../test/harness';
import { class5School } from '../test/statement-log';
import { busyAfterStatement, watchDatabase } from '../test/watcher';

/**
 * Decision 0072: the stats read after a write brings the marked students' rows up to date in ONE
 * round trip. The school's lock, the marks taken, the rows recomputed and the COMMIT go to PostgreSQL
 * in one write, so the lock (which the school's other readers queue on) is held for PostgreSQL's work
 * only. Before, the app read the first trip's answers and sent the recompute in a second trip, and
 * the lock was held through that trip across the app's event loop: under the mixed load, most of a
 * stats read's 1.5 s median.
 *
 * The test holds the app's event loop busy for 1.5 s right after the catch-up's first statement has
 * been handed to the socket, and a process of its own watches the school's totals on another
 * connection: the payment must be in them, committed, while the app is still busy. On the old code it
 * appeared only after the busy spell. PostgreSQL only (vitest.config.ts): the embedded database runs
 * in the app's own thread.
 */
const BUSY_MS = 1_500;
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let ids: string[];
const busy = busyAfterStatement(BUSY_MS);

beforeAll(async () => {
  ({ ctx, school, ids } = await class5School(await openTestDatabase({ logger: busy.logger }), ['Aamir Dar', 'Bilal Shah']));
});
afterAll(() => ctx.close());

const revenueOf = async () => {
  const answer = await school.api.get('/api/stats/school');
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ totalRevenue: string; pendingFees: string }>();
};

describe('the stats after a write', () => {
  it('commits the recomputed rows while the app is still busy after sending the catch-up', async () => {
    // the school's rows built by a first read: ₹0 received, April to November owed by both
    const before = await revenueOf();
    expect(before.totalRevenue).toBe('0.00');
    const pay = await school.api.post('/api/fees', {
      studentId: ids[0],
      fees: [{ type: 'monthly', amount: 1500 }],
      paymentMode: 'cash',
      paidOn: '2025-11-14',
      clientId: 'one-trip-1',
    });
    expect(pay.statusCode, pay.body).toBe(201);

    const watcher = await watchDatabase(ctx.database.db, {
      query: 'select count(*) as n from school_positions where school_id = $1 and revenue = 150000',
      params: [school.schoolId],
      stopWhenAbove: true,
    });
    // the catch-up's clearing of the marks is in its first write
    busy.arm('for update skip locked');
    const after = await revenueOf();
    expect(busy.spell.to).toBeGreaterThan(0);
    // never stale: the answer has the payment, ₹1,500 less owed
    expect(after.totalRevenue).toBe('1500.00');
    expect(parseRupees(before.pendingFees)! - parseRupees(after.pendingFees)!).toBe(150_000);
    const seen = (await watcher.samples()).find((sample) => sample.n > 0);
    expect(seen, 'the watcher never saw the totals with the payment').toBeDefined();
    // committed by PostgreSQL within the busy spell, not after the app read a first answer
    expect(seen!.at).toBeLessThan(busy.spell.to);
  });
});
