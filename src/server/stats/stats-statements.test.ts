import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import type { signUpSchool, TestContext } from '../test/harness';
import { schoolWithStatementLog } from '../test/statement-log';

/**
 * Decision 0060: the dashboard's cards read the whole-school rows' state, their totals, the session
 * and its expenses in one statement. With nothing marked that is the whole computation; after a
 * write, the catch-up's statements follow it (decision 0058) and the last of them returns the
 * totals, so nothing is read again after it. Before, the cards read the state, then the totals
 * after the catch-up, and the session and then its expenses beside them: four statements one after
 * another where one does. Under a load each is a wait through the app's busy event loop, and the
 * cards were the slowest of the mixed load's interactive routes. Runs on both databases.
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

describe('the dashboard cards in as few statements as they can be', () => {
  it('reads the rows state, totals, session and expenses in one statement, and takes the totals from the catch-up after a write', async () => {
    // the first read builds the rows of the month
    const built = await statsStatements();
    expect(built.stats.totalStudents).toBe(3);
    expect(built.stats.totalExpenses).toBe('350.00');

    const fresh = await statsStatements();
    expect(fresh.statements, fresh.statements.join('\n')).toHaveLength(1);
    expect(fresh.statements[0]).toMatch(/school_positions/);
    expect(fresh.statements[0]).toMatch(/academic_sessions/);
    expect(fresh.statements[0]).toMatch(/from expenses/);
    expect(fresh.stats.pendingFees).toBe(built.stats.pendingFees);
    expect(fresh.stats.session.name).toBe('2025-2026');
    expect(fresh.stats.expensesByCategory).toEqual({ Supplies: '350.00' });

    const paid = await school.api.post('/api/fees', { studentId: ids[1], fees: [{ type: 'monthly', amount: 2000 }], paymentMode: 'cash', paidOn: '2025-11-14', clientId: 'stats-st-1' });
    expect(paid.statusCode).toBe(201);
    const after = await statsStatements();
    // the totals the catch-up returned are those of the rows recomputed from the receipts
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
    const again = await statsStatements();
    expect(again.statements).toHaveLength(1);
    expect(after.stats).toEqual({ ...again.stats, generatedAt: after.stats.generatedAt });
    expect(Number(after.stats.pendingFees)).toBeLessThan(Number(fresh.stats.pendingFees));
    expect(Number(after.stats.totalRevenue) - Number(fresh.stats.totalRevenue)).toBe(2000);
    const { statements } = after;
    // the state, the catch-up under the school's lock, and no read after the catch-up's last write
    expect(statements[0]).toMatch(/from expenses/);
    expect(statements.filter((q) => /from expenses/.test(q))).toHaveLength(1);
    expect(statements.filter((q) => /from academic_sessions where school_id = \$\d+ and is_active limit 1\)/.test(q))).toHaveLength(1);
    expect(statements[1]).toContain('pg_advisory_xact_lock');
    const last = statements.at(-1)!;
    expect(last).toMatch(/^with new as \( ?insert into student_positions/);
    expect(last).toMatch(/returning t\.total_students/);
  });
});
