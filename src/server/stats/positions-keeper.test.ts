import { sql } from 'drizzle-orm';
import { parseRupees } from '../../domain/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySchoolBalances } from '../balances/verify';
import { activatePlan, seedSession } from '../fees/test-fixtures';
import { rowsOf } from '../lib/sql-rows';
import { client, createTestApp, type signUpSchool, type TestContext } from '../test/harness';
import { schoolWithStatementLog } from '../test/statement-log';

/**
 * Decision 0071: the month's whole-school rows are built by a background keeper, not by the first
 * clerk of the month. Before it, the first stats read of a month rebuilt every row of the school inside
 * the request (about 2.5 s at 60,000 students, alone), and the saves that marked a student waited for it.
 * Runs on both databases.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let ids: string[];
let statementsOf: Awaited<ReturnType<typeof schoolWithStatementLog>>['statementsOf'];
let api: ReturnType<typeof client>;

beforeAll(async () => {
  ({ ctx, school, ids, statementsOf } = await schoolWithStatementLog(['Aamir Dar', 'Bilal Shah', 'Chetna Rao']));
  // past the trial: the school pays, so it can still take fees in December
  await activatePlan(ctx.database.db, { schoolId: school.schoolId });
  api = school.api;
});
afterAll(() => ctx.close());

const builtMonth = async () =>
  rowsOf<{ month_key: string }>(await ctx.database.db.execute(sql`select month_key from school_positions where school_id = ${school.schoolId}`))[0]?.month_key ?? null;

/** The statements of one stats computation (past the cached figures' minute), the data version left out. */
async function statsStatements() {
  ctx.clock.advance(61_000);
  const { answer, statements } = await statementsOf(() => api.get('/api/stats/school'), /school_data_versions/);
  expect(answer.statusCode).toBe(200);
  return { stats: answer.json(), statements };
}

/**
 * A stats computation that found the rows of its month built and nothing marked: the cards' one
 * statement last, no build, and the totals row not written (decision 0080).
 */
async function quietStats() {
  const version = async () => rowsOf<{ v: string }>(await ctx.database.db.execute(sql`select xmin::text as v from school_positions where school_id = ${school.schoolId}`))[0]?.v;
  const before = await version();
  const read = await statsStatements();
  expect(read.statements.some((q) => /^insert into school_positions/.test(q)), read.statements.join('\n')).toBe(false);
  expect(read.statements.at(-1)).toMatch(/from expenses/);
  expect(await version()).toBe(before);
  return read;
}

/** A rupee string of an answer, in paise. */
const P = (rupees: string) => parseRupees(rupees) as number;

/** What the students' own outstanding-fees pages add up to, in paise. */
async function outstandingOfStudents(): Promise<number> {
  const totals = await Promise.all(ids.map(async (id) => (await api.get(`/api/students/${id}/outstanding-fees`)).json().total as string));
  return totals.reduce((sum, t) => sum + P(t), 0);
}

describe('the month’s whole-school rows built in the background', () => {
  it('leaves a school never built to its first reader, and has nothing to build after it', async () => {
    expect(await builtMonth()).toBeNull();
    // a new school, or one being loaded (an import): not the keeper's
    expect(await ctx.app.positionsKeeper.runOnce()).toEqual({ built: [], busy: [] });
    expect(await builtMonth()).toBeNull();

    const first = await statsStatements();
    expect(first.statements.some((q) => /^insert into school_positions/.test(q))).toBe(true);
    expect(await builtMonth()).toBe('2025-11');
    expect(first.stats.totalStudents).toBe(3);
    expect(P(first.stats.pendingFees)).toBe(await outstandingOfStudents());
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);

    expect(await ctx.app.positionsKeeper.runOnce()).toEqual({ built: [], busy: [] });
    await quietStats();
  });

  it('builds the new month at its first look after midnight, and the clerk’s first read finds it built', async () => {
    const november = (await statsStatements()).stats;
    // 00:05 on 1 December in India
    ctx.clock.set(new Date('2025-11-30T18:35:00.000Z'));
    // a new day's sign-in: the token of 15 November has lapsed
    const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
    api = client(ctx.app, login.json().token as string);
    expect(await ctx.app.positionsKeeper.runOnce()).toEqual({ built: [school.schoolId], busy: [] });
    expect(await builtMonth()).toBe('2025-12');

    const december = await quietStats();
    expect(december.stats.currentMonth).toBe('2025-12');
    // December's tuition (₹1,500) and bus (₹500) fall due for each of the three students
    expect(P(december.stats.pendingFees) - P(november.pendingFees)).toBe(3 * 2_000_00);
    expect(P(december.stats.pendingFees)).toBe(await outstandingOfStudents());
  });

  it('rebuilds a school whose sessions changed, and leaves a school a write only marked to its next reader', async () => {
    const paid = await api.post('/api/fees', { studentId: ids[0], fees: [{ type: 'monthly', amount: 1500 }], paymentMode: 'cash', paidOn: '2025-12-01', clientId: 'keeper-1' });
    expect(paid.statusCode).toBe(201);
    // a payment marks one student: that is a reader's small catch-up, not a build
    expect(await ctx.app.positionsKeeper.runOnce()).toEqual({ built: [], busy: [] });

    await seedSession(ctx.database.db, { schoolId: school.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: false });
    expect(await ctx.app.positionsKeeper.runOnce()).toEqual({ built: [school.schoolId], busy: [] });
    const after = await quietStats();
    expect(P(after.stats.totalRevenue)).toBe(1500_00);
    expect(P(after.stats.pendingFees)).toBe(await outstandingOfStudents());
    expect((await verifySchoolBalances(ctx.database.db, school.schoolId)).differences).toEqual([]);
  });

  it('looks as soon as the app is ready, without a request', async () => {
    // a second app on the same database, started on 2 January: its keeper builds January by itself
    const second = await createTestApp({ database: ctx.database, now: new Date('2026-01-02T04:00:00.000Z'), positionsKeeper: { start: true } });
    try {
      const deadline = Date.now() + 10_000;
      while ((await builtMonth()) !== '2026-01' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await builtMonth()).toBe('2026-01');
    } finally {
      await second.app.close();
      await second.smtp.close();
    }
  });
});
