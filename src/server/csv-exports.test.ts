import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from './test/harness';

/**
 * Issue "Trust before launch", item 16: /api/passouts/balance-report.csv wrote names and reasons
 * raw, so `=HYPERLINK(…)` became a live formula in the accountant's spreadsheet. Every CSV route of
 * the API reference is downloaded for a school whose name, student and discharge reason are
 * formulas; no cell of any of them may start the way a formula does.
 */

const FORMULA = '=HYPERLINK("http://x","y")';
/** the school's name heads every report; a link in it would confuse the test's reading of the confirmation mail */
const SCHOOL = '=CONCAT("Green","Valley")';
const RUNS_AS_FORMULA = /^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/;

/** CSV routes that ask for a period (the test app's clock stands in April 2026) */
const DATED = ['/api/reports/financial.csv', '/api/exports/journal.csv'];

/** the report documents carry the school's name in their heading; the registers and the journal carry the student or the ledger name */
const REGISTERS = ['/api/reports/cancellations.csv', '/api/reports/concession-register.csv'];
const headedBySchool = (path: string) => path.startsWith('/api/reports/') && !REGISTERS.includes(path);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('CSV downloads', () => {
  it('a student named =HYPERLINK(…) comes out neutralised in every CSV route', async () => {
    const school = await signUpSchool(ctx, { schoolName: SCHOOL });
    const add = await school.api.post('/api/students', { name: FORMULA, class: 'Class 10', section: 'A', fatherName: '@SUM(1+1)', mobileNumber: '9876543210', monthlyBusFee: '0.00' });
    expect(add.statusCode).toBe(201);
    // a cheque in the register and a cancelled receipt in the cancellation register, both of that student
    const cheque = await school.api.post('/api/fees', { studentId: add.json().id, fees: [{ type: 'other', amount: '100' }], paymentMode: 'cheque', chequeNumber: '004512', bankName: 'J&K Bank' });
    expect(cheque.statusCode).toBe(201);
    const cash = await school.api.post('/api/fees', { studentId: add.json().id, fees: [{ type: 'other', amount: '50' }], paymentMode: 'cash' });
    expect((await school.api.post(`/api/receipts/${cash.json().receipt?.id ?? cash.json().id}/cancel`, { reason: 'Entered twice' })).statusCode).toBe(200);
    // a concession type is named by the school: the concession register carries it beside the student
    const session = (await school.api.get('/api/academic-sessions/active')).json();
    const year: string = session.sessionName;
    const type = await school.api.post('/api/concession-types', { name: '=Sibling()', kind: 'percent', value: '10', heads: ['tuition'] });
    expect(type.statusCode, type.body).toBe(201);
    const asked = await school.api.post('/api/concessions', { studentId: add.json().id, typeId: type.json().id, academicYear: year, fromMonth: session.startDate.slice(0, 7), reason: '-2+3 siblings' });
    expect(asked.statusCode, asked.body).toBe(201);
    expect((await school.api.post(`/api/concessions/${asked.json().id}/approve`, {})).statusCode).toBe(200);
    const discharge = await school.api.post(`/api/students/${add.json().id}/discharge`, { reason: '+cmd|" /C calc"!A0' });
    expect(discharge.statusCode).toBe(200);

    // a Tally ledger name is typed by the school too: the journal's account column carries it
    expect((await school.api.put('/api/exports/tally/mapping', { expensesPaidFrom: FORMULA })).statusCode).toBe(200);
    expect((await school.api.post('/api/expenses', { category: 'Rent', amount: '100', date: '2026-04-09', description: 'April rent' })).statusCode).toBe(201);

    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const csvRoutes = Object.entries(doc.paths)
      .filter(([path, methods]) => path.endsWith('.csv') && 'get' in methods)
      .map(([path]) => path);
    expect(csvRoutes).toEqual(expect.arrayContaining(['/api/passouts/balance-report.csv', '/api/reports/financial.csv', '/api/reports/pending-fees.csv', '/api/reports/concession-register.csv']));

    const unsafe: string[] = [];
    for (const path of csvRoutes) {
      const res = await school.api.get(
        DATED.includes(path)
          ? `${path}?fromDate=2026-04-01&toDate=2026-04-30`
          : path === '/api/reports/cancellations.csv'
            ? `${path}?from=2026-04-01&to=2026-04-30`
            : path === '/api/reports/concession-register.csv'
              ? `${path}?academicYear=${year}&status=all`
              : path,
      );
      expect(res.statusCode, path).toBe(200);
      const carried = headedBySchool(path) ? SCHOOL : FORMULA;
      expect(res.body, path).toContain(`'${carried.replace(/"/g, '""')}`);
      const cells = Papa.parse<string[]>(res.body.replace(/^\uFEFF/, '')).data.flat();
      for (const cell of cells) if (RUNS_AS_FORMULA.test(cell)) unsafe.push(`${path}: ${cell}`);
    }
    expect(unsafe).toEqual([]);

    const register = await school.api.get(`/api/reports/concession-register.csv?academicYear=${year}`);
    const [header, first] = Papa.parse<string[]>(register.body.replace(/^\uFEFF/, '')).data;
    expect(first![header!.indexOf('Concession')]).toBe(`'=Sibling()`);
    expect(first![header!.indexOf('Reason')]).toBe(`'-2+3 siblings`);

    const passouts = await school.api.get('/api/passouts/balance-report.csv');
    const row = Papa.parse<string[]>(passouts.body.replace(/^\uFEFF/, '')).data[1]!;
    expect(row[1]).toBe(`'${FORMULA}`);
    expect(row.at(-1)).toBe(`'+cmd|" /C calc"!A0`);
  });

  it('Excel downloads keep a text that looks like a formula as text (exceljs writes strings as strings)', async () => {
    const school = await signUpSchool(ctx, { schoolName: SCHOOL });
    for (const path of ['/api/reports/class-wise.xlsx', '/api/reports/financial.xlsx?fromDate=2026-04-01&toDate=2026-04-30']) {
      const res = await school.api.get(path);
      expect(res.statusCode, path).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const cell = book.worksheets[0]!.getCell('A1');
      expect(cell.type, path).toBe(ExcelJS.ValueType.String);
      expect(cell.formula, path).toBeUndefined();
      expect(String(cell.value), path).toMatch(/^=CONCAT\("Green","Valley"\): /);
    }
  });
});
