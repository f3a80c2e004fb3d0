import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type signUpSchool, type TestContext } from '../test/harness';
import { class5School } from '../test/statement-log';
import { busyAfterStatement, watchDatabase } from '../test/watcher';

/**
 * Decision 0053: fee status is one statement with generic plans, and its BEGIN, setting and COMMIT
 * go to PostgreSQL with it in one round trip. Before, the app waited for each of the four in turn,
 * and between the statement and its COMMIT the connection sat idle in a transaction for as long as
 * the app's busy event loop took to come back to it (under 50 connections, most of the request).
 *
 * The test holds the app's event loop busy for 1.5 s right after the statement is sent, while a
 * process of its own samples the database's sessions: none may be idle in a transaction during the
 * spell. PostgreSQL only (vitest.config.ts).
 */
const BUSY_MS = 1_500;
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;
const busy = busyAfterStatement(BUSY_MS);

beforeAll(async () => {
  let ids: string[];
  ({ ctx, school, ids } = await class5School(await openTestDatabase({ logger: busy.logger }), ['Aamir Dar']));
  studentId = ids[0]!;
  // the session check of the token is cached after its first use
  await school.api.get(`/api/students/${studentId}/fee-status`);
});
afterAll(() => ctx.close());

describe('fee status in one round trip', () => {
  it('holds no transaction open while the app is busy after sending the read', async () => {
    const watcher = await watchDatabase(ctx.database.db, {
      query: `select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state like 'idle in transaction%'`,
      forMs: BUSY_MS + 1_500,
    });
    busy.arm('fee_session');
    const answer = await school.api.get(`/api/students/${studentId}/fee-status`);
    expect(answer.statusCode).toBe(200);
    // April to November of ₹1,500 tuition and ₹500 bus, and ₹10,500 of yearly heads
    expect(answer.json().account.tillDate.outstanding).toBe('26500.00');
    expect(busy.spell.to).toBeGreaterThan(0);
    // what the other process saw well inside the busy spell (the read itself takes a few ms)
    const during = (await watcher.samples()).filter((s) => s.at > busy.spell.from + 300 && s.at < busy.spell.to - 50);
    expect(during.length).toBeGreaterThan(10);
    expect(during.filter((s) => s.n > 0)).toEqual([]);
  });
});
