import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import type { signUpSchool, TestContext } from '../test/harness';
import { schoolWithStatementLog } from '../test/statement-log';
import { openPostgres } from '../db/client';
import { rowsOf } from '../lib/sql-rows';
import { schoolStats } from './queries';

/**
 * Decision 0060: the dashboard's cards read the whole-school rows' state, their totals, the session
 * and its expenses in one statement. Before, the cards read the state, then the totals after the
 * catch-up, and the session and then its expenses beside them: four statements one after another
 * where one does. Decision 0080: that statement is the last of the catch-up's pipelined transaction,
 * so a read after a write is one round trip on one pooled connection, not a read and then a catch-up
 * on a second (each checkout a wait in the pool's queue under a load); with nothing marked the
 * transaction takes no lock and writes nothing. Runs on both databases; the checkouts are counted on
 * PostgreSQL, where there is a pool.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let ids: string[];
let statementsOf: Awaited<ReturnType<typeof schoolWithStatementLog>>['statementsOf'];

beforeAll(async () => {
  ({ ctx, school, ids, statementsOf } = await schoolWithStatementLog(['Aamir Dar', 'Bilal Shah', 'Chetna Rao']));
  expect((await school.api.post('/api/expenses', { date: '2025-11-10', description: 'Chalk and dusters', category: 'Supplies', amount: '350.00' })).statusCode).toBe(201);
});
afterAll(() => ctx.close());

/** The statements one stats computation sends, the school's data version (read once a second) left out too. */
async function statsStatements() {
  // past the cached figures' minute: the next request computes them again
  ctx.clock.advance(61_000);
  const { answer, statements } = await statementsOf(() => school.api.get('/api/stats/school'), /school_data_versions/);
  expect(answer.statusCode).toBe(200);
  return { stats: answer.json(), statements };
}

/** The version of the school's totals row: it changes only when a statement writes it. */
const totalsRowVersion = async () =>
  rowsOf<{ v: string }>(await ctx.database.db.execute(sql`select xmin::text as v from school_positions where school_id = ${school.schoolId}`))[0]?.v;

describe('the dashboard cards in as few statements as they can be', () => {
  it('reads the rows state, totals, session and expenses in one statement, after the catch-up of a write and in its transaction', async () => {
    // the first read builds the rows of the month
    const built = await statsStatements();
    expect(built.stats.totalStudents).toBe(3);
    expect(built.stats.totalExpenses).toBe('350.00');

    const version = await totalsRowVersion();
    const fresh = await statsStatements();
    const read = fresh.statements.at(-1)!;
    expect(read).toMatch(/school_positions/);
    expect(read).toMatch(/academic_sessions/);
    expect(read).toMatch(/from expenses/);
    expect(fresh.statements.filter((q) => /from expenses/.test(q))).toHaveLength(1);
    // nothing marked: no student moved, no total rewritten, no build
    expect(await totalsRowVersion()).toBe(version);
    expect(fresh.statements.some((q) => /^insert into school_positions/.test(q))).toBe(false);
    expect(fresh.stats.pendingFees).toBe(built.stats.pendingFees);
    expect(fresh.stats.session.name).toBe('2025-2026');
    expect(fresh.stats.expensesByCategory).toEqual({ Supplies: '350.00' });

    const paid = await school.api.post('/api/fees', { studentId: ids[1], fees: [{ type: 'monthly', amount: 2000 }], paymentMode: 'cash', paidOn: '2025-11-14', clientId: 'stats-st-1' });
    expect(paid.statusCode).toBe(201);
    const after = await statsStatements();
    // the totals the catch-up left are those of the rows recomputed from the receipts
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
    const again = await statsStatements();
    expect(after.stats).toEqual({ ...again.stats, generatedAt: after.stats.generatedAt });
    expect(Number(after.stats.pendingFees)).toBeLessThan(Number(fresh.stats.pendingFees));
    expect(Number(after.stats.totalRevenue) - Number(fresh.stats.totalRevenue)).toBe(2000);
    const { statements } = after;
    // the lock (taken: a student is marked), the marks taken, the student's row out and in, then the cards' read
    expect(statements).toHaveLength(5);
    expect(statements[0]).toContain('pg_advisory_xact_lock');
    expect(statements[3]).toMatch(/^with new as \( ?insert into student_positions/);
    expect(statements[4]).toBe(read);
    expect(statements.filter((q) => /from academic_sessions where school_id = \$\d+ and is_active limit 1\)/.test(q))).toHaveLength(1);
    expect(statements.some((q) => /^insert into school_positions/.test(q))).toBe(false);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))('checks out one pooled connection for the cards after a write, and one with nothing marked', async () => {
    // a handle of its own on the test's database, so the app's background senders are not counted
    const { name } = rowsOf<{ name: string }>(await ctx.database.db.execute(sql`select current_database() as name`))[0]!;
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const own = await openPostgres(url.toString(), { max: 5 });
    try {
      const pool = (own.db._.session as unknown as { client: pg.Pool }).client;
      expect(pool).toBeInstanceOf(pg.Pool);
      const checkouts = vi.spyOn(pool, 'connect');
      const today = '2025-11-15';
      const before = await schoolStats(own.db, { schoolId: school.schoolId, today });
      checkouts.mockClear();

      const paid = await school.api.post('/api/fees', { studentId: ids[2], fees: [{ type: 'monthly', amount: 1500 }], paymentMode: 'cash', paidOn: '2025-11-15', clientId: 'stats-st-2' });
      expect(paid.statusCode).toBe(201);
      const after = await schoolStats(own.db, { schoolId: school.schoolId, today });
      expect(checkouts).toHaveBeenCalledTimes(1);
      expect(Number(after.totalRevenue) - Number(before.totalRevenue)).toBe(1500_00);
      expect(Number(before.pendingFees) - Number(after.pendingFees)).toBe(1500_00);

      checkouts.mockClear();
      const quiet = await schoolStats(own.db, { schoolId: school.schoolId, today });
      expect(checkouts).toHaveBeenCalledTimes(1);
      expect(quiet.totalRevenue).toBe(after.totalRevenue);
      expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
