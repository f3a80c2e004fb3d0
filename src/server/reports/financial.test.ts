import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../lib/sql-rows';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { feeTableParts, monthlyFeeRows, monthWindows, startingWithAMonth, yearlyFeeRows } from './financial';
import { buildFixtureSchool, EXPECTED, NOW, type FixtureSchool } from './test-school';

let ctx: TestContext;
let fx: FixtureSchool;
beforeAll(async () => {
  ctx = await createTestApp({ now: NOW });
  fx = await buildFixtureSchool(ctx);
});
afterAll(() => ctx.close());

const SESSION = 'fromDate=2026-04-01&toDate=2026-11-30';

describe('GET /api/reports/financial', () => {
  it('sums income, expenses and net profit for the period, as worked out by hand', async () => {
    const res = await fx.school.api.get(`/api/reports/financial?${SESSION}`);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report.schoolName).toBe('Fixture Public School');
    expect(report.summary).toEqual({ ...EXPECTED.financial, totalIncome: '53400.00' });
    expect(report.totals.monthlyFees).toEqual({ tuitionFee: '29200.00', busFee: '6600.00', total: '35800.00' });
    expect(report.totals.yearlyFees).toEqual({
      admissionFee: '10000.00',
      examFee: '1600.00',
      booksFee: '2500.00',
      uniformFee: '1800.00',
      miscFee: '700.00',
      otherFee: '1000.00',
      total: '17600.00',
    });
    expect(report.totals.expenses).toBe('209150.75');
    // 7 months of Aarav, 8 of Diya, 7 of Kabir; the cancelled April of Meera is not there. Aarav's
    // payment towards last year's balance is a row of 2025-2026, where the balance was left.
    expect(report.counts).toEqual({ monthlyFees: 22, yearlyFees: 4, expenses: 3 });
    expect(report.truncated).toBe(false);
    expect(report.monthlyFees.some((m: { studentName: string }) => m.studentName === 'Meera Iyer')).toBe(false);
    const diyaOctober = report.monthlyFees.find((m: { studentName: string; month: string }) => m.studentName === 'Diya Patel' && m.month === 'October');
    expect(diyaOctober).toEqual({
      studentName: 'Diya Patel',
      studentClass: 'Class 5',
      section: 'A',
      rollNumber: 2,
      month: 'October',
      year: 2026,
      tuitionFee: '1200.00',
      busFee: '0.00',
      total: '1200.00',
      tuitionDate: '2026-10-10',
    });
    const sum = (rows: Array<{ total: string }>) => rows.reduce((s, r) => s + Math.round(Number(r.total) * 100), 0);
    expect(sum(report.monthlyFees)).toBe(3580000);
    const aarav = report.yearlyFees.filter((y: { studentName: string }) => y.studentName === 'Aarav Sharma');
    expect(aarav).toEqual([
      expect.objectContaining({ year: '2026-2027', admissionFee: '5000.00', examFee: '800.00', miscFee: '0.00', otherFee: '0.00', total: '5800.00', paymentDate: '2026-04-15' }),
      expect.objectContaining({ year: '2025-2026', admissionFee: '0.00', otherFee: '1000.00', total: '1000.00', paymentDate: '2026-11-05' }),
    ]);
    const kabir = report.yearlyFees.find((y: { studentName: string }) => y.studentName === 'Kabir Singh');
    expect(kabir).toMatchObject({ miscFee: '300.00', total: '300.00' });
    expect(report.expenses.map((e: { date: string; category: string; amount: string }) => [e.date, e.category, e.amount])).toEqual([
      ['2026-06-10', 'Utilities', '4150.75'],
      ['2026-10-01', 'Salaries', '180000.00'],
      ['2026-11-05', 'Rent', '25000.00'],
    ]);
  });

  it('counts by payment date: November alone', async () => {
    const report = (await fx.school.api.get('/api/reports/financial?fromDate=2026-11-01&toDate=2026-11-30')).json();
    expect(report.summary).toEqual({
      totalMonthlyIncome: '1500.00',
      totalYearlyIncome: '0.00',
      totalOtherIncome: '0.00',
      totalArrearsCollected: '1000.00',
      creditReceived: '0.00',
      creditApplied: '0.00',
      creditRefunded: '0.00',
      totalIncome: '2500.00',
      totalExpenses: '25000.00',
      netProfit: '-22500.00',
    });
  });

  it('keeps the totals whole when the tables are cut to a limit', async () => {
    const full = (await fx.school.api.get(`/api/reports/financial?${SESSION}`)).json();
    for (const limit of [1, 3, 5, 7, 21]) {
      const report = (await fx.school.api.get(`/api/reports/financial?${SESSION}&limit=${limit}`)).json();
      // the same first rows as the whole table, found without grouping the whole period
      expect(report.monthlyFees).toEqual(full.monthlyFees.slice(0, limit));
      expect(report.truncated).toBe(true);
      expect(report.counts.monthlyFees).toBeNull();
      expect(report.totals.monthlyFees.total).toBe('35800.00');
    }
    expect(full.counts.monthlyFees).toBe(22);
  });

  it('refuses missing, malformed, reversed and over-long periods with a clear 400', async () => {
    const cases: Array<[string, string]> = [
      ['', 'Please select both from and to dates'],
      ['fromDate=2026-04-01', 'Please select both from and to dates'],
      ['toDate=2026-04-01', 'Please select both from and to dates'],
      ['fromDate=2026-04-31&toDate=2026-05-01', 'Dates must be real dates written as YYYY-MM-DD'],
      ['fromDate=01/04/2026&toDate=2026-05-01', 'Dates must be real dates written as YYYY-MM-DD'],
      ['fromDate=2026-05-02&toDate=2026-05-01', 'From date must be on or before to date'],
      ['fromDate=2016-04-01&toDate=2026-04-02', 'The report period cannot be longer than 10 years'],
    ];
    for (const [query, message] of cases) {
      for (const path of ['/api/reports/financial', '/api/reports/financial.xlsx', '/api/reports/financial.csv']) {
        const res = await fx.school.api.get(`${path}?${query}`);
        expect(res.statusCode, `${path}?${query}`).toBe(400);
        expect(res.json().error).toBe(message);
      }
    }
    expect((await fx.school.api.get('/api/reports/financial?fromDate=2016-04-01&toDate=2026-04-01')).statusCode).toBe(200);
  });

  it('downloads an Excel workbook whose sheets and totals match the report', async () => {
    const res = await fx.school.api.get(`/api/reports/financial.xlsx?${SESSION}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe('attachment; filename="financial-report-2026-04-01-to-2026-11-30.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Summary', 'Monthly Fees', 'Yearly Fees', 'Expenses']);
    const summary = workbook.getWorksheet('Summary')!;
    const byLabel = new Map<string, unknown>();
    summary.eachRow((row) => byLabel.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(byLabel.get('Total income')).toBe(53400);
    expect(byLabel.get('Net profit')).toBe(-155750.75);
    const monthly = workbook.getWorksheet('Monthly Fees')!;
    expect(monthly.rowCount).toBe(1 + 22 + 1);
    const last = monthly.getRow(monthly.rowCount);
    expect(last.getCell(1).value).toBe('Total');
    expect(last.getCell(6).value).toBe(29200);
    expect(last.getCell(9).value).toBe(35800);
    const yearly = workbook.getWorksheet('Yearly Fees')!;
    expect(yearly.getRow(1).getCell(10).value).toBe('Misc');
    expect(yearly.getRow(yearly.rowCount).getCell(12).value).toBe(17600);
    const expenses = workbook.getWorksheet('Expenses')!;
    expect(expenses.getRow(expenses.rowCount).getCell(4).value).toBe(209150.75);
  });

  it('cuts a period into windows of whole calendar months, the first from its first day and the last to its last', () => {
    expect([...monthWindows('2026-04-15', '2026-10-10')]).toHaveLength(7);
    expect([...monthWindows('2026-04-15', '2026-10-10', 3)]).toEqual([
      { from: '2026-04-15', to: '2026-06-30' },
      { from: '2026-07-01', to: '2026-09-30' },
      { from: '2026-10-01', to: '2026-10-10' },
    ]);
    // across a new year, a leap February, and a year that is one window
    expect([...monthWindows('2027-11-01', '2028-03-31', 3)]).toEqual([
      { from: '2027-11-01', to: '2028-01-31' },
      { from: '2028-02-01', to: '2028-03-31' },
    ]);
    expect([...monthWindows('2027-12-01', '2028-02-29', 1)].map((w) => w.to)).toEqual(['2027-12-31', '2028-01-31', '2028-02-29']);
    expect([...monthWindows('2025-04-01', '2026-03-31', 12)]).toEqual([{ from: '2025-04-01', to: '2026-03-31' }]);
    expect([...monthWindows('2026-05-09', '2026-05-09', 12)]).toEqual([{ from: '2026-05-09', to: '2026-05-09' }]);
  });

  it('starts the downloads\' monthly windows with a month alone, so that the first rows come soon', () => {
    expect([...startingWithAMonth({ from: '2025-04-01', to: '2026-03-31' }, 3)]).toEqual([
      { from: '2025-04-01', to: '2025-04-30' },
      { from: '2025-05-01', to: '2025-07-31' },
      { from: '2025-08-01', to: '2025-10-31' },
      { from: '2025-11-01', to: '2026-01-31' },
      { from: '2026-02-01', to: '2026-03-31' },
    ]);
    expect([...startingWithAMonth({ from: '2026-04-15', to: '2026-10-10' }, 3)]).toEqual([
      { from: '2026-04-15', to: '2026-04-30' },
      { from: '2026-05-01', to: '2026-07-31' },
      { from: '2026-08-01', to: '2026-10-10' },
    ]);
    // a leap February's last day, and periods inside one month
    expect([...startingWithAMonth({ from: '2028-02-10', to: '2028-03-05' }, 3)]).toEqual([
      { from: '2028-02-10', to: '2028-02-29' },
      { from: '2028-03-01', to: '2028-03-05' },
    ]);
    expect([...startingWithAMonth({ from: '2026-05-09', to: '2026-05-20' }, 3)]).toEqual([{ from: '2026-05-09', to: '2026-05-20' }]);
    expect([...startingWithAMonth({ from: '2026-12-01', to: '2026-12-31' }, 3)]).toEqual([{ from: '2026-12-01', to: '2026-12-31' }]);
  });

  it('reads the downloads\' rows a window of months at a time: the monthly table, then the yearly one, each as the report gives its months', async () => {
    for (const [from, to] of [
      ['2026-04-01', '2026-11-30'],
      ['2025-04-01', '2027-03-31'],
      ['2026-04-15', '2026-10-10'],
    ] as const) {
      const period = { schoolId: fx.school.schoolId, from, to };
      const monthly: unknown[] = [];
      const yearly: unknown[] = [];
      for (const w of monthWindows(from, to)) {
        monthly.push(...(await monthlyFeeRows(ctx.database.db, { ...period, ...w })));
        yearly.push(...(await yearlyFeeRows(ctx.database.db, { ...period, ...w })));
      }
      expect(monthly.length, `${from} to ${to}`).toBeGreaterThan(0);
      const tables: string[] = [];
      const partsMonthly: unknown[] = [];
      const partsYearly: unknown[] = [];
      let largest = 0;
      // pages of 2 rows: a month's cursor is read several times
      for await (const part of feeTableParts(ctx.database.db, period, 2)) {
        if (tables.at(-1) !== part.table) tables.push(part.table);
        (part.table === 'monthly' ? partsMonthly : partsYearly).push(...part.rows);
        largest = Math.max(largest, part.rows.length);
      }
      expect(tables).toEqual(['monthly', 'yearly']);
      expect(largest).toBe(2);
      expect(partsMonthly).toEqual(monthly.map((r) => ({ ...(r as object) })));
      expect(partsYearly).toEqual(yearly.map((r) => ({ ...(r as object) })));
    }
  });

  it('ends every month\'s transaction when the download stops early, the one read ahead included', async () => {
    const period = { schoolId: fx.school.schoolId, from: '2025-04-01', to: '2027-03-31' };
    const parts = feeTableParts(ctx.database.db, period, 2);
    const first = await parts.next();
    expect(first.done).toBe(false);
    // the client went away: the writer stops asking
    await parts.return(undefined);
    // every connection is back in the pool, none left in a transaction: the report still reads
    const again: unknown[] = [];
    for await (const part of feeTableParts(ctx.database.db, period)) again.push(...part.rows);
    expect(again.length).toBeGreaterThan(22);
    if (process.env.DATABASE_URL) {
      await expect
        .poll(async () => rowsOf<{ n: number }>(await ctx.database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`))[0]!.n)
        .toBe(0);
    }
  });

  it('downloads the same report as CSV', async () => {
    const res = await fx.school.api.get(`/api/reports/financial.csv?${SESSION}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const text = res.body.replace(/^\uFEFF/, '');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('Fixture Public School: Financial Report');
    expect(lines).toContain('Net profit,-155750.75');
    expect(lines).toContain('Total,,,,,29200.00,6600.00,,35800.00');
    expect(lines).toContain('Total,,,209150.75');
    expect(lines).toContain('Diya Patel,Class 5,A,2,October 2026,1200.00,0.00,2026-10-10,1200.00');
  });

  it("shows only the signed-in school's money", async () => {
    const other = await signUpSchool(ctx);
    const report = (await other.api.get(`/api/reports/financial?${SESSION}`)).json();
    expect(report.summary.totalIncome).toBe('0.00');
    expect(report.monthlyFees).toEqual([]);
    const csv = await other.api.get(`/api/reports/financial.csv?${SESSION}`);
    expect(csv.body).not.toContain('Diya');
    expect((await client(ctx.app).get(`/api/reports/financial?${SESSION}`)).statusCode).toBe(401);
    expect((await client(ctx.app).get(`/api/reports/financial.xlsx?${SESSION}`)).statusCode).toBe(401);
  });
});
