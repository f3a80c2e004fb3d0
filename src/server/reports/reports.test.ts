import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_KINDS, type ReportDocument, type ReportTable } from '../../domain/report-document';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { rowsOf } from '../lib/sql-rows';
import { markSchoolChanged } from '../stats/versions';
import { buildFixtureSchool, EXPECTED, NOW, type FixtureSchool } from './test-school';

let ctx: TestContext;
let fx: FixtureSchool;
beforeAll(async () => {
  ctx = await createTestApp({ now: NOW });
  fx = await buildFixtureSchool(ctx);
});
afterAll(() => ctx.close());

const get = async (path: string): Promise<ReportDocument> => {
  const res = await fx.school.api.get(path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const summary = (doc: ReportDocument) => Object.fromEntries(doc.summary.map((s) => [s.label, s.value]));
const table = (doc: ReportDocument, title: string): ReportTable => doc.tables.find((t) => t.title === title)!;
const column = (t: ReportTable, key: string) => t.rows.map((r) => r[key]);

describe('reports of the Reports tab, against the hand-worked fixture school', () => {
  it('Monthly Report: October 2026 by class, money received and expenses of the month', async () => {
    const doc = await get('/api/reports/monthly?month=2026-10');
    expect(doc.title).toBe('Monthly Report: October 2026');
    expect(doc.schoolName).toBe('Fixture Public School');
    const classes = table(doc, 'Tuition and bus fees for October 2026, by class');
    expect(classes.rows).toEqual([
      { className: 'Class 1', students: 2, paid: 0, due: '2400.00', concession: '0.00', received: '1000.00', outstanding: '1400.00' },
      // Diya paid 1,200 of October's 1,500: the month is settled, 300 is a concession (ruling 6)
      { className: 'Class 5', students: 2, paid: 2, due: '3600.00', concession: '300.00', received: '3300.00', outstanding: '0.00' },
    ]);
    expect(classes.totals).toEqual({ className: 'Total', students: 4, paid: 2, due: '6000.00', concession: '300.00', received: '4300.00', outstanding: '1400.00' });
    expect(table(doc, 'Money received in October 2026, by fee').rows).toEqual([
      { head: 'Tuition Fee', amount: '3700.00' },
      { head: 'Bus Fee', amount: '600.00' },
    ]);
    expect(table(doc, 'Expenses in October 2026, by category').totals).toEqual({ category: 'Total', amount: '180000.00' });
    expect(summary(doc)).toMatchObject({ 'Students paid in full': 2, 'Money received in the month': '4300.00', Net: '-175700.00' });
  });

  it('Yearly Report: the session month by month and the yearly heads', async () => {
    const doc = await get('/api/reports/yearly');
    const months = table(doc, 'Tuition and bus fees, month by month till November 2026');
    expect(column(months, 'month')).toHaveLength(8);
    expect(months.rows[0]).toEqual({ month: 'April 2026', due: '6000.00', concession: '0.00', received: '5000.00', outstanding: '1000.00' });
    expect(months.rows[6]).toEqual({ month: 'October 2026', due: '6000.00', concession: '300.00', received: '4300.00', outstanding: '1400.00' });
    expect(months.rows[7]).toEqual({ month: 'November 2026', due: '6000.00', concession: '0.00', received: '1500.00', outstanding: '4500.00' });
    expect(months.totals).toEqual({ month: 'Total', due: '48000.00', concession: '300.00', received: '35800.00', outstanding: '11900.00' });
    const later = table(doc, 'Months not yet due');
    expect(column(later, 'month')).toEqual(['December 2026', 'January 2027', 'February 2027', 'March 2027']);
    expect(later.totals).toEqual({ month: 'Total', due: '24000.00', concession: '0.00', received: '0.00', outstanding: '24000.00' });
    const heads = table(doc, 'Yearly fees by head');
    expect(heads.rows.map((r) => [r.head, r.due, r.received, r.outstanding])).toEqual([
      ['Yearly (Admission) Fee', '16000.00', '10000.00', '6000.00'],
      ['Exam Fee', '2600.00', '1600.00', '1000.00'],
      ['Books Fee', '8000.00', '2500.00', '5500.00'],
      ['Uniform Fee', '6000.00', '1800.00', '4200.00'],
      ['Misc', '1400.00', '700.00', '700.00'],
    ]);
    expect(heads.totals).toEqual({ head: 'Total', due: EXPECTED.yearlyFeesPotential, concession: '0.00', received: '16600.00', outstanding: '17400.00' });
    // received against the dues (35,800 + 16,600) and Aarav's 1,000 of arrears: the session's 53,400
    expect(summary(doc)).toMatchObject({ 'Received against dues': '52400.00', 'Received in advance': '0.00', 'Other fees': '0.00', 'Arrears collected': '1000.00', 'Total received': EXPECTED.totalRevenue });
    // the session's own outstanding: stats' pending fees less the balance carried from last year
    expect(summary(doc)['Outstanding till date']).toBe('29300.00');
  });

  it('Class-wise Report: each class and section till date', async () => {
    const doc = await get('/api/reports/class-wise?academicYear=2026-27');
    const t = table(doc, 'Classes and sections');
    expect(t.rows).toEqual([
      { className: 'Class 1', section: 'A', students: 1, withDues: 1, due: '17700.00', concession: '0.00', received: '9700.00', outstanding: '8000.00', collection: '54.8', advance: '0.00', other: '0.00' },
      { className: 'Class 1', section: 'B', students: 1, withDues: 1, due: '14500.00', concession: '0.00', received: '0.00', outstanding: '14500.00', collection: '0.0', advance: '0.00', other: '0.00' },
      { className: 'Class 5', section: 'A', students: 2, withDues: 1, due: '49800.00', concession: '300.00', received: '42700.00', outstanding: '6800.00', collection: '86.3', advance: '0.00', other: '0.00' },
    ]);
    expect(t.totals).toMatchObject({ students: 4, due: '82000.00', concession: '300.00', received: '52400.00', outstanding: '29300.00', collection: '64.2' });
  });

  it('Income vs Expense: the session month by month', async () => {
    const doc = await get('/api/reports/income-expense');
    const t = table(doc, 'Month by month');
    expect(t.rows[0]).toEqual({ month: 'April 2026', income: '21600.00', expenses: '0.00', net: '21600.00' });
    expect(t.rows[2]).toEqual({ month: 'June 2026', income: '5000.00', expenses: '4150.75', net: '849.25' });
    expect(t.rows[7]).toEqual({ month: 'November 2026', income: '2500.00', expenses: '25000.00', net: '-22500.00' });
    expect(t.totals).toEqual({ month: 'Total', income: EXPECTED.totalRevenue, expenses: EXPECTED.totalExpenses, net: EXPECTED.financial.netProfit });
    expect(table(doc, 'Expenses by category').rows.map((r) => r.category)).toEqual(['Salaries', 'Rent', 'Utilities']);
    expect(summary(doc)).toEqual({ Income: '53400.00', Expenses: '209150.75', Deficit: '-155750.75' });
  });

  it('Pending Fees: the defaulters with months due, sorted by class or by amount', async () => {
    const doc = await get('/api/reports/pending-fees');
    const t = table(doc, 'Defaulters');
    expect(t.rows.map((r) => [r.className, r.section, r.name, r.monthsDue, r.monthly, r.yearly, r.previous, r.total])).toEqual([
      ['Class 1', 'A', 'Kabir Singh', 'Oct–Nov 2026 (2)', '1800.00', '6200.00', '0.00', '8000.00'],
      ['Class 1', 'B', 'Meera Iyer', 'Apr–Nov 2026 (8)', '8000.00', '6500.00', '0.00', '14500.00'],
      ['Class 5', 'A', 'Aarav Sharma', 'Nov 2026 (1)', '2100.00', '4700.00', '1500.00', '8300.00'],
    ]);
    expect(t.totals).toMatchObject({ monthly: '11900.00', yearly: '17400.00', previous: '1500.00', total: EXPECTED.pendingFees });
    // the months' en dash travels escaped, so the list's text holds one byte a character (decision 0063)
    const raw = (await fx.school.api.get('/api/reports/pending-fees')).body;
    expect(raw).toContain('"monthsDue":"Oct\\u2013Nov 2026 (2)"');
    expect([...raw].filter((c) => c.charCodeAt(0) > 0xff)).toEqual([]);
    const byAmount = await get('/api/reports/pending-fees?sort=amount');
    expect(column(table(byAmount, 'Defaulters'), 'name')).toEqual(['Meera Iyer', 'Aarav Sharma', 'Kabir Singh']);
    const class5 = await get('/api/reports/pending-fees?class=class%205');
    expect(column(table(class5, 'Defaulters'), 'name')).toEqual(['Aarav Sharma']);
    // one class's runs of months, found past another class's run that comes first in the index (decision 0095)
    const class1 = table(await get('/api/reports/pending-fees?class=Class%201'), 'Defaulters');
    expect(class1.rows.map((r) => [r.name, r.monthsDue])).toEqual([
      ['Kabir Singh', 'Oct–Nov 2026 (2)'],
      ['Meera Iyer', 'Apr–Nov 2026 (8)'],
    ]);
    expect((await fx.school.api.get('/api/reports/pending-fees?sort=name')).statusCode).toBe(400);
  });

  it('Pending Fees: PostgreSQL writes the rows; a name with quotes, a backslash and Devanagari reads back as it is in JSON, CSV and Excel', async () => {
    const db = ctx.database.db;
    const [meera] = rowsOf<{ id: string }>(await db.execute(sql`select id from students where school_id = ${fx.school.schoolId} and name = 'Meera Iyer'`));
    const odd = 'Meera "Mira" Iyer \\ मीरा';
    // straight into the row, as an import of an old register could leave it: the students trigger marks
    // her, and the school's data version moves as every write of the app moves it
    await db.execute(sql`update students set name = ${odd} where id = ${meera!.id}`);
    await markSchoolChanged(db, fx.school.schoolId);
    try {
      const rows = table(await get('/api/reports/pending-fees'), 'Defaulters').rows;
      expect(rows[1]).toEqual({
        className: 'Class 1',
        section: 'B',
        rollNumber: expect.any(Number),
        name: odd,
        phone: expect.any(String),
        monthsDue: 'Apr–Nov 2026 (8)',
        monthly: '8000.00',
        yearly: '6500.00',
        previous: '0.00',
        total: '14500.00',
        fine: '0.00',
      });
      const csv = await fx.school.api.get('/api/reports/pending-fees.csv');
      expect(csv.body).toContain('"Meera ""Mira"" Iyer \\ मीरा"');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await fx.school.api.get('/api/reports/pending-fees.xlsx')).rawPayload as unknown as ArrayBuffer);
      const names: unknown[] = [];
      workbook.getWorksheet('Defaulters')!.eachRow((row) => names.push(row.getCell(4).value));
      expect(names).toContain(odd);
    } finally {
      await db.execute(sql`update students set name = 'Meera Iyer' where id = ${meera!.id}`);
      await markSchoolChanged(db, fx.school.schoolId);
    }
  });

  it('Session Report: the whole session by class', async () => {
    const doc = await get('/api/reports/session?academicYear=2026-2027');
    const t = table(doc, 'Fees of the session by class');
    expect(t.rows).toEqual([
      { className: 'Class 1', students: 2, left: 0, due: '41800.00', concession: '0.00', received: '9700.00', outstanding: '32100.00', advance: '0.00', other: '0.00' },
      { className: 'Class 5', students: 2, left: 0, due: '64200.00', concession: '300.00', received: '42700.00', outstanding: '21200.00', advance: '0.00', other: '0.00' },
    ]);
    expect(t.totals).toMatchObject({ due: '106000.00', concession: '300.00', received: '52400.00', outstanding: '53300.00' });
    expect(summary(doc)).toMatchObject({
      'Balances carried forward': '0.00 (0 students)',
      'Money received in the session dates': '53400.00',
      'Expenses in the session dates': '209150.75',
      Net: '-155750.75',
    });
    const last = await get('/api/reports/session?academicYear=2025-2026');
    expect(summary(last)['Balances carried forward']).toBe('2500.00 (1 students)');
    expect((await fx.school.api.get('/api/reports/session?academicYear=2019-2020')).json().error).toBe('Academic session 2019-2020 was not found');
  });

  it('Day Book: the receipts of the day by payment mode, without the cancelled one', async () => {
    const doc = await get('/api/reports/day-book?date=2026-11-22');
    expect(doc.title).toBe('Day Book: 22 November 2026');
    expect(table(doc, 'By payment mode').rows).toEqual([{ mode: 'Cash', count: 6, amount: '53400.00' }]);
    const receipts = table(doc, 'Receipts');
    expect(receipts.rows).toHaveLength(6);
    expect(receipts.rows.find((r) => r.student === 'Aarav Sharma' && String(r.receiptNumber).startsWith('MON'))).toMatchObject({
      className: 'Class 5 A (1)',
      fees: 'Tuition, Bus, Previous Balance',
      amount: '15700.00',
    });
    expect(summary(doc)).toMatchObject({ Receipts: 6, Received: '53400.00', 'Cash received': '53400.00', 'Cancelled receipts (not counted)': '1 (1000.00)' });
    const quiet = await get('/api/reports/day-book?date=2026-11-05');
    expect(summary(quiet)).toMatchObject({ Receipts: 0, Expenses: '25000.00', 'Net for the day': '-25000.00' });
    expect((await fx.school.api.get('/api/reports/day-book?date=2026-11-31')).statusCode).toBe(400);
  });

  it('downloads each report as Excel and CSV with the same totals', async () => {
    const res = await fx.school.api.get('/api/reports/pending-fees.xlsx');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="pending-fees-report-2026-11-22.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Summary', 'Defaulters']);
    const sheet = workbook.getWorksheet('Defaulters')!;
    expect(sheet.getRow(1).getCell(10).value).toBe('Total due');
    expect(sheet.getRow(sheet.rowCount).getCell(10).value).toBe(30800);
    const csv = await fx.school.api.get('/api/reports/class-wise.csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain('Total,,4,3,82000.00,300.00,52400.00,29300.00,64.2,0.00,0.00');
    for (const kind of REPORT_KINDS) {
      for (const ext of ['xlsx', 'csv']) expect((await fx.school.api.get(`/api/reports/${kind}.${ext}`)).statusCode, `${kind}.${ext}`).toBe(200);
    }
  });

  it('builds a report once per change of the school: the next read after a write shows it', async () => {
    const first = await get('/api/reports/monthly?month=2026-10');
    ctx.clock.advance(1_000);
    const again = await get('/api/reports/monthly?month=2026-10');
    expect(again.generatedAt).toBe(first.generatedAt);
    const spent = await fx.school.api.post('/api/expenses', { category: 'Maintenance', description: 'Roof repair', amount: '1200.50', date: '2026-10-20' });
    expect(spent.statusCode).toBe(201);
    const after = await get('/api/reports/monthly?month=2026-10');
    expect(after.generatedAt).not.toBe(first.generatedAt);
    expect(table(after, 'Expenses in October 2026, by category').totals).toEqual({ category: 'Total', amount: '181200.50' });
    expect((await fx.school.api.delete(`/api/expenses/${spent.json().id}`)).statusCode).toBe(200);
    expect(table(await get('/api/reports/monthly?month=2026-10'), 'Expenses in October 2026, by category').totals).toEqual({ category: 'Total', amount: '180000.00' });
  });

  it('shows another school nothing of this one, and needs a session', async () => {
    const other = await signUpSchool(ctx);
    for (const kind of REPORT_KINDS) {
      const res = await other.api.get(`/api/reports/${kind}`);
      expect(res.statusCode, kind).toBe(200);
      expect(res.body, kind).not.toMatch(/Aarav|Diya|Kabir|Meera|53400/);
      expect((await client(ctx.app).get(`/api/reports/${kind}`)).statusCode).toBe(401);
    }
  });

  // runs last: it moves the clock past India's midnight
  it('Excel "Generated" cells and download file names are in India time, en-IN, never UTC', async () => {
    ctx.clock.advance(14 * 3_600_000); // 19:30 UTC on 22 November is 1:00 am on 23 November in India
    const res = await fx.school.api.get('/api/reports/pending-fees.xlsx');
    expect(res.headers['content-disposition']).toBe('attachment; filename="pending-fees-report-2026-11-23.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const generated = (sheet: ExcelJS.Worksheet) => {
      let value: unknown;
      sheet.eachRow((row) => {
        if (row.getCell(1).value === 'Generated') value = row.getCell(2).value;
      });
      return value;
    };
    expect(generated(workbook.getWorksheet('Summary')!)).toBe('23 Nov 2026, 1:00 am');
    expect((await fx.school.api.get('/api/reports/day-book.csv')).body).toContain('Generated,"23 Nov 2026, 1:00 am"');
    const financial = await fx.school.api.get('/api/reports/financial.xlsx?fromDate=2026-04-01&toDate=2026-11-30');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(financial.rawPayload as unknown as ArrayBuffer);
    expect(generated(book.getWorksheet('Summary')!)).toBe('23 Nov 2026, 1:00 am');
  });
});
