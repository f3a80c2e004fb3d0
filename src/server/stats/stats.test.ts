import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools } from '../db/schema';
import { buildFixtureSchool, EXPECTED, NOW, type FixtureSchool } from '../reports/test-school';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { chartData, schoolStats } from './queries';

let ctx: TestContext;
let fx: FixtureSchool;
beforeAll(async () => {
  ctx = await createTestApp({ now: NOW });
  fx = await buildFixtureSchool(ctx);
});
afterAll(() => ctx.close());

describe('GET /api/stats/school', () => {
  it('gives every card of the Students tab, worked out by hand for the fixture school', async () => {
    const res = await fx.school.api.get('/api/stats/school');
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s).toMatchObject({
      totalStudents: EXPECTED.totalStudents,
      monthlyRevenue: EXPECTED.totalRevenue,
      totalRevenue: EXPECTED.totalRevenue,
      paidStudents: EXPECTED.paidStudents,
      lastMonth: '2026-10',
      lastMonthLabel: 'October 2026',
      pendingFees: EXPECTED.pendingFees,
      pendingStudents: EXPECTED.pendingStudents,
      previousBalancePending: EXPECTED.previousBalancePending,
      expectedMonthlyIncome: EXPECTED.expectedMonthlyIncome,
      yearlyFeesPotential: EXPECTED.yearlyFeesPotential,
      currentSessionBusRevenue: EXPECTED.currentSessionBusRevenue,
      currentMonth: '2026-11',
      currentMonthLabel: 'November 2026',
      currentMonthCollected: EXPECTED.currentMonthCollected,
      collectionProgress: EXPECTED.collectionProgress,
      thisMonthIncome: EXPECTED.thisMonthIncome,
      totalExpenses: EXPECTED.totalExpenses,
      session: { name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' },
    });
    expect(s.expensesByCategory).toEqual(EXPECTED.expensesByCategory);
    expect(Object.keys(s.expensesByCategory)).toEqual(['Salaries', 'Utilities', 'Rent']);
  });

  it('agrees with each student’s outstanding-fees and fee status', async () => {
    const api = fx.school.api;
    const totals = await Promise.all(
      Object.values(fx.students).map(async (st) => (await api.get(`/api/students/${st.id}/outstanding-fees`)).json().total as string),
    );
    expect(totals).toEqual(['8300.00', '0.00', '8000.00', '14500.00']);
    const october = await Promise.all(
      Object.values(fx.students).map(async (st) => {
        const status = (await api.get(`/api/students/${st.id}/fee-status`)).json();
        return status.account.months.find((m: { key: string }) => m.key === '2026-10').status as string;
      }),
    );
    expect(october).toEqual(['Paid', 'Paid', 'Partial', 'Pending']);
  });

  it('changes as soon as money or an expense is written, and names last month after the clock moves', async () => {
    const api = fx.school.api;
    const before = (await api.get('/api/stats/school')).json();
    const res = await api.post('/api/monthly-fee-entries/bulk', {
      studentId: fx.students.kabir.id,
      academicYear: '2026-2027',
      entries: [{ month: 'October', year: 2026, busFee: '400', busDate: '2026-11-21' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const after = (await api.get('/api/stats/school')).json();
    expect(after.paidStudents).toBe(before.paidStudents + 1);
    expect(after.pendingFees).toBe('30400.00');
    expect(after.totalRevenue).toBe('53800.00');

    const spent = await api.post('/api/expenses', { category: 'Rent', description: 'Store room', amount: '100.25', date: '2026-11-21' });
    expect(spent.statusCode).toBe(201);
    const withExpense = (await api.get('/api/stats/school')).json();
    expect(withExpense.totalExpenses).toBe('209251.00');
    expect(withExpense.expensesByCategory.Rent).toBe('25100.25');
    expect((await api.delete(`/api/expenses/${spent.json().id}`)).statusCode).toBe(200);
    expect((await api.get('/api/stats/school')).json().totalExpenses).toBe(EXPECTED.totalExpenses);

    // a paying school, signed in again ten days later
    await ctx.database.db
      .update(schools)
      .set({ subscriptionStatus: 'active', planStartDate: NOW, planEndDate: new Date('2027-11-22T00:00:00.000Z') })
      .where(eq(schools.id, fx.schoolId));
    ctx.clock.set(new Date('2026-12-02T05:30:00.000Z'));
    try {
      const login = await client(ctx.app).post('/api/auth/login', { email: fx.school.email, password: fx.school.password });
      expect(login.statusCode, login.body).toBe(200);
      const december = (await client(ctx.app, login.json().token).get('/api/stats/school')).json();
      expect(december.lastMonthLabel).toBe('November 2026');
      expect(december.paidStudents).toBe(1); // only Diya paid November
      expect(december.currentMonthLabel).toBe('December 2026');
    } finally {
      ctx.clock.set(NOW);
    }
  });

  it('draws the charts from the same figures', async () => {
    const res = await fx.school.api.get('/api/stats/charts');
    expect(res.statusCode).toBe(200);
    const c = res.json();
    expect(c.months).toHaveLength(12);
    expect(c.months[0]).toEqual({ month: '2026-04', label: 'April 2026', expected: '6000.00', collected: '5000.00' });
    // Aarav 2,100 + Diya 1,200 + Kabir 1,000, and Kabir's October bus fee saved in the test above
    expect(c.months[6]).toMatchObject({ month: '2026-10', collected: '4700.00' });
    expect(c.months[7]).toMatchObject({ month: '2026-11', collected: '1500.00' });
    expect(c.outstandingByClass).toEqual([
      { className: 'Class 1', students: 2, outstanding: '22100.00' },
      { className: 'Class 5', students: 2, outstanding: '8300.00' },
    ]);
    expect(c.expensesByCategory.map((e: { category: string }) => e.category)).toEqual(['Salaries', 'Utilities', 'Rent']);
  });

  it('is empty for a new school, with no one else’s figures', async () => {
    const other = await signUpSchool(ctx);
    const s = (await other.api.get('/api/stats/school')).json();
    expect(s).toMatchObject({ totalStudents: 0, totalRevenue: '0.00', pendingFees: '0.00', totalExpenses: '0.00', paidStudents: 0, collectionProgress: 0 });
    expect(s.expensesByCategory).toEqual({});
    const charts = (await other.api.get('/api/stats/charts')).json();
    expect(charts.outstandingByClass).toEqual([]);
    expect((await client(ctx.app).get('/api/stats/school')).statusCode).toBe(401);
  });
});

describe('the dashboard reads the running balances, not the ledger (decision 0041)', () => {
  it('a figure changed in the stored balance is what the bus revenue, this month\'s collection and the chart show', async () => {
    const db = ctx.database.db;
    const at = { schoolId: fx.schoolId, today: '2026-11-22' };
    const read = async () => {
      const stats = await schoolStats(db, at);
      const charts = await chartData(db, at);
      return { bus: stats.currentSessionBusRevenue, month: stats.currentMonthCollected, chart: charts.months.map((m) => m.collected) };
    };
    const before = await read();
    // ₹3 more bus and ₹5 more for November (month 7 of the session: 1-based index 8 onward of the
    // running sum) written straight into Aarav's stored row; the ledger is unchanged, so figures
    // read from the receipt lines would not move
    await db.execute(sql`
      update student_session_balances
      set bus_paid = bus_paid + 300,
          monthly_paid = array(select case when i >= 8 then v + 500 else v end from unnest(monthly_paid) with ordinality as t(v, i) order by i)
      where school_id = ${fx.schoolId} and student_id = ${fx.students.aarav.id} and session_id = ${fx.session.id}`);
    const after = await read();
    expect(after.bus - before.bus).toBe(300);
    expect(after.month - before.month).toBe(500);
    expect(after.chart.map((v, k) => v - before.chart[k]!)).toEqual([0, 0, 0, 0, 0, 0, 0, 500, 0, 0, 0, 0]);
  });
});

