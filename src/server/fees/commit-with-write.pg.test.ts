import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../lib/sql-rows';
import { openTestDatabase, type signUpSchool, type TestContext } from '../test/harness';
import { class5School } from '../test/statement-log';
import { busyAfterStatement, watchDatabase } from '../test/watcher';

/**
 * Decision 0052: a fee save commits its transaction in the same round trip as its write, so the
 * school's receipt counter row, which every other save of the school waits on, is released when
 * PostgreSQL has written the receipt, not when the app's event loop gets round to sending COMMIT.
 * Under 50 connections that wait was most of the counter's hold, and saves queued behind it.
 *
 * The test holds the app's event loop busy for 1.5 s right after the write has been sent, and a
 * process of its own watches for the receipt on another connection: it must see it committed while
 * the app is still busy. Before, the receipt appeared only after the busy spell. PostgreSQL only
 * (vitest.config.ts): the embedded database runs in the app's own thread.
 */
const BUSY_MS = 1_500;
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let ids: string[];
const busy = busyAfterStatement(BUSY_MS);

beforeAll(async () => {
  ({ ctx, school, ids } = await class5School(await openTestDatabase({ logger: busy.logger }), ['Aamir Dar', 'Bilal Shah', 'Chetna Rao']));
});
afterAll(() => ctx.close());

/** When a connection of another process first sees the receipt with `clientId` committed. */
async function watchFor(clientId: string): Promise<{ seenAt: () => Promise<number> }> {
  const watcher = await watchDatabase(ctx.database.db, { query: 'select count(*) as n from receipts where client_id = $1', params: [clientId], stopWhenAbove: true });
  return {
    async seenAt() {
      const seen = (await watcher.samples()).find((sample) => sample.n > 0);
      if (!seen) throw new Error('the watcher never saw the receipt');
      return seen.at;
    },
  };
}

describe('a save commits with its write', () => {
  const saves = [
    {
      what: 'Record Fee Payment',
      number: 'FEE/2025-26/000001',
      send: (clientId: string) =>
        school.api.post('/api/fees', { studentId: ids[0], fees: [{ type: 'monthly', amount: 1500 }], paymentMode: 'cash', paidOn: '2025-11-14', clientId }),
    },
    {
      what: 'the monthly grid',
      number: 'MON/2025-26/000001',
      send: (clientId: string) =>
        school.api.post('/api/monthly-fee-entries/bulk', {
          studentId: ids[1],
          academicYear: '2025-2026',
          clientId,
          entries: [{ month: 'April', year: 2025, tuitionFee: 1500, tuitionDate: '2025-04-10' }],
        }),
    },
    {
      what: 'the yearly cards',
      number: 'YRL/2025-26/000001',
      send: (clientId: string) =>
        school.api.post('/api/yearly-fee-entries', { studentId: ids[2], academicYear: '2025-2026', examFee: 800, examDate: '2025-09-20', clientId }),
    },
  ];

  for (const save of saves) {
    it(`${save.what}: the receipt is committed while the app is still busy after sending the write`, async () => {
      const clientId = `commit-with-write-${save.number}`;
      const watcher = await watchFor(clientId);
      busy.arm('insert into "receipts"');
      const answer = await save.send(clientId);
      expect(answer.statusCode, answer.body).toBe(201);
      expect(answer.json().receipt.receiptNumber).toBe(save.number);
      expect(busy.spell.to).toBeGreaterThan(0);
      const seenAt = await watcher.seenAt();
      // committed by PostgreSQL within the busy spell, not after the app sent a COMMIT of its own
      expect(seenAt).toBeLessThan(busy.spell.to);
    });
  }

  it('raises the school data version in the same transaction, once per save', async () => {
    const [row] = rowsOf<{ version: string }>(
      await ctx.database.db.execute(sql`select version::text as version from school_data_versions where school_id = ${school.schoolId}`),
    );
    const before = Number(row?.version ?? 0);
    const answer = await school.api.post('/api/fees', { studentId: ids[0], fees: [{ type: 'monthly', amount: 1500 }], paymentMode: 'cash', paidOn: '2025-11-14', clientId: 'version-once' });
    expect(answer.statusCode).toBe(201);
    const [after] = rowsOf<{ version: string }>(
      await ctx.database.db.execute(sql`select version::text as version from school_data_versions where school_id = ${school.schoolId}`),
    );
    expect(Number(after!.version)).toBe(before + 1);
  });
});
