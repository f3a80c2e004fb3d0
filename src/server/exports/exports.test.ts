import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRupees } from '../../domain/money';
import { auditLog, dataExports, schools, students } from '../db/schema';
import { seedSession, seedStudents } from '../fees/test-fixtures';
import { buildFixtureSchool, NOW, type FixtureSchool } from '../reports/test-school';
import { rowsOf } from '../lib/sql-rows';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { readZip } from '../test/zip';
import { buildExport } from './build';
import { ENTITIES } from './entities';

let ctx: TestContext;
let fixture: FixtureSchool;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let dataDir: string;

const FULL_AADHAAR = '234567890123';

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-exports-'));
  ctx = await createTestApp({ now: NOW, env: { DATA_DIR: dataDir } });
  fixture = await buildFixtureSchool(ctx);
  const db = ctx.database.db;
  // an Aadhaar number stored the real way (encrypted, last four kept), and an audit row naming it in full
  await db
    .update(students)
    .set({ aadhaarEncrypted: ctx.app.deps.cipher.encrypt(FULL_AADHAAR), aadhaarLast4: FULL_AADHAAR.slice(-4) })
    .where(eq(students.id, fixture.students.aarav.id));
  await db.insert(auditLog).values({ schoolId: fixture.schoolId, action: 'student.update', entity: 'student', entityId: fixture.students.aarav.id, after: { aadhaar: FULL_AADHAAR, name: 'Aarav Sharma' } });

  // another school with rows of its own, none of which may appear in the fixture school's export
  other = await signUpSchool(ctx, { schoolName: 'Other Valley School' });
  const session = await seedSession(db, { schoolId: other.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
  await seedStudents(db, { schoolId: other.schoolId, sessionId: session.id, people: [{ name: 'Zoya Elsewhere', className: 'Class 3' }] });
  expect((await other.api.post('/api/expenses', { category: 'Rent', description: 'Other school rent', amount: '777.77', date: '2026-11-01' })).statusCode).toBe(201);
}, 120_000);

afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Api = ReturnType<typeof client>;

/** Starts an export and polls it as the Settings card does, until it is no longer queued or running. */
async function exportAndWait(api: Api) {
  const start = await api.post('/api/exports');
  expect(start.statusCode, start.body).toBe(202);
  const { id } = start.json() as { id: string };
  const seen: number[] = [];
  for (let i = 0; i < 300; i++) {
    const status = await api.get(`/api/exports/${id}`);
    expect(status.statusCode, status.body).toBe(200);
    const body = status.json() as { status: string; progress: number; downloadUrl: string | null; error: string | null };
    seen.push(body.progress);
    if (body.status === 'done' || body.status === 'failed') return { id, body, seen };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('export did not finish');
}

async function download(api: Api, url: string) {
  const res = await api.get(url);
  return { res, files: res.statusCode === 200 ? readZip(res.rawPayload) : new Map<string, Buffer>() };
}

const csvRows = (file: Buffer) => {
  const text = file.toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
};

/** Rows of the school in a table, counted straight from the database. */
async function countOf(table: string, schoolId: string, where = 'true') {
  const [row] = rowsOf<{ n: number }>(await ctx.database.db.execute(sql.raw(`select count(*)::int as n from ${table} where school_id = '${schoolId}' and ${where}`)));
  return row!.n;
}

describe('whole-school data export (ruling 25)', () => {
  let files: Map<string, Buffer>;
  let result: Awaited<ReturnType<typeof exportAndWait>>;

  beforeAll(async () => {
    result = await exportAndWait(fixture.school.api);
    expect(result.body.status).toBe('done');
    const got = await download(fixture.school.api, result.body.downloadUrl!);
    expect(got.res.statusCode).toBe(200);
    expect(got.res.headers['content-type']).toBe('application/zip');
    expect(got.res.headers['content-disposition']).toBe('attachment; filename="school-ledger-fixture-public-school-2026-11-22.zip"');
    files = got.files;
  }, 120_000);

  it('answers done at 100% with a download link, and moved forward only', () => {
    expect(result.body).toMatchObject({ status: 'done', progress: 100, downloadUrl: `/api/exports/${result.id}/download`, error: null });
    expect([...result.seen].sort((a, b) => a - b)).toEqual(result.seen);
  });

  it('holds a README, a CSV per entity and one workbook with a sheet per entity', async () => {
    const names = [...files.keys()].sort();
    expect(names).toEqual(['README.txt', 'school-data.xlsx', ...ENTITIES.map((e) => `csv/${e.file}.csv`)].sort());
    for (const wanted of ['students', 'enrolments', 'receipts', 'receipt-lines', 'cancellations', 'carried-balances', 'fee-structures', 'sessions', 'expenses', 'results', 'audit-log']) {
      expect(files.has(`csv/${wanted}.csv`), wanted).toBe(true);
    }
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(files.get('school-data.xlsx') as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(ENTITIES.map((e) => e.sheet));
    const readme = files.get('README.txt')!.toString('utf8');
    expect(readme).toContain('School Ledger data export: Fixture Public School');
    expect(readme).toContain('== csv/students.csv  (sheet "Students", 4 rows)');
    expect(readme).toContain('Aadhaar (masked): text. Only the last four digits');
    expect(readme).toContain('Total: rupees, e.g. 1500.50. Rupees.');
  });

  it('has every row of the school once, with the columns the README names', async () => {
    const id = fixture.schoolId;
    const expected: Record<string, number> = {
      students: await countOf('students', id),
      enrolments: await countOf('student_enrollments', id),
      receipts: await countOf('receipts', id),
      'receipt-lines': await countOf('receipt_lines', id),
      cancellations: await countOf('receipts', id, "status = 'cancelled'"),
      'carried-balances': await countOf('student_previous_balances', id),
      'fee-structures': await countOf('class_fee_structures', id),
      sessions: await countOf('academic_sessions', id),
      expenses: await countOf('expenses', id),
      results: await countOf('results', id),
      passouts: await countOf('passouts', id),
      'audit-log': await countOf('audit_log', id),
    };
    // the fixture's own figures, worked out by hand (reports/test-school.ts)
    expect(expected).toMatchObject({ students: 4, receipts: 7, cancellations: 1, 'carried-balances': 1, 'fee-structures': 2, sessions: 2, expenses: 5 });
    expect(expected['receipt-lines']).toBeGreaterThan(expected.receipts!);
    expect(expected['audit-log']).toBeGreaterThan(5);
    for (const entity of ENTITIES) {
      const [header, ...rows] = csvRows(files.get(`csv/${entity.file}.csv`)!);
      expect(header, entity.file).toEqual(entity.columns.map((c) => c.header));
      expect(rows.length, entity.file).toBe(expected[entity.file]);
      expect(new Set(rows.map((r) => r.join('|'))).size, `${entity.file} has no repeated row`).toBe(rows.length);
    }
    const [, ...sessionRows] = csvRows(files.get('csv/sessions.csv')!);
    expect(sessionRows).toEqual([
      ['2025-2026', '2025-04-01', '2026-03-31', 'no', 'no'],
      ['2026-2027', '2026-04-01', '2027-03-31', 'yes', 'no'],
    ]);
  });

  it('writes money as exact rupee strings, and each receipt\'s lines add up to its total', () => {
    const [rh, ...receipts] = csvRows(files.get('csv/receipts.csv')!);
    const [lh, ...lines] = csvRows(files.get('csv/receipt-lines.csv')!);
    const total = rh!.indexOf('Total');
    const amount = lh!.indexOf('Amount');
    for (const r of receipts) expect(r[total]).toMatch(/^\d+\.\d{2}$/);
    const byReceipt = new Map<string, number>();
    for (const l of lines) byReceipt.set(l[0]!, (byReceipt.get(l[0]!) ?? 0) + parseRupees(l[amount]!)!);
    for (const r of receipts) expect(byReceipt.get(r[0]!), r[1]).toBe(parseRupees(r[total]!));

    const [, ...expenses] = csvRows(files.get('csv/expenses.csv')!);
    expect(expenses.find((e) => e[2] === 'Electricity')).toEqual(['2026-06-10', 'Utilities', 'Electricity', '4150.75', expect.any(String), '']);
    const deleted = expenses.find((e) => e[2] === 'Entered twice')!;
    expect(deleted[3]).toBe('5000.00');
    expect(deleted[5]).toMatch(/^2026-11-22 \d\d:\d\d:\d\d$/);

    const [, ...cancelled] = csvRows(files.get('csv/cancellations.csv')!);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({ 3: 'Meera Iyer', 4: '1000.00', 7: fixture.school.email, 8: 'Entered for the wrong student' });

    const [, ...carried] = csvRows(files.get('csv/carried-balances.csv')!);
    expect(carried[0]).toMatchObject({ 1: 'Aarav Sharma', 2: '2025-2026', 3: 'Class 4', 4: '2000.00', 5: '500.00', 7: 'rollover' });

    const [, ...structures] = csvRows(files.get('csv/fee-structures.csv')!);
    expect(structures).toEqual([
      ['2026-2027', 'Class 1', '1000.00', '3000.00', '500.00', '1500.00', '1200.00', '300.00'],
      ['2026-2027', 'Class 5', '1500.00', '5000.00', '800.00', '2500.00', '1800.00', '400.00'],
    ]);
  });

  it('formats amounts as en-IN numbers in Excel', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(files.get('school-data.xlsx') as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Expenses')!;
    expect(sheet.rowCount).toBe(6);
    const electricity = sheet.getRows(2, 5)!.find((r) => r.getCell(3).value === 'Electricity')!;
    expect(electricity.getCell(4).value).toBe(4150.75);
    expect(electricity.getCell(4).numFmt).toBe('#,##,##0.00');
    expect(electricity.getCell(1).value).toEqual(new Date('2026-06-10T00:00:00.000Z'));
    expect(workbook.getWorksheet('Students')!.rowCount).toBe(5);
  });

  it('keeps Aadhaar masked everywhere, the audit log included (ruling 24)', () => {
    const [header, ...rows] = csvRows(files.get('csv/students.csv')!);
    const aarav = rows.find((r) => r[2] === 'Aarav Sharma')!;
    expect(aarav[header!.indexOf('Aadhaar (masked)')]).toBe('XXXX XXXX 0123');
    const everything = [...files.values()].map((f) => f.toString('latin1')).join('\n');
    const unzippedXlsx = [...readZip(files.get('school-data.xlsx')!).values()].map((f) => f.toString('utf8')).join('\n');
    for (const text of [everything, unzippedXlsx]) {
      expect(text).not.toContain(FULL_AADHAAR);
    }
    const audit = files.get('csv/audit-log.csv')!.toString('utf8');
    expect(audit).toContain('XXXX XXXX 0123');
  });

  it("holds nothing of another school", () => {
    const everything = [...files.values(), ...readZip(files.get('school-data.xlsx')!).values()].map((f) => f.toString('utf8')).join('\n');
    expect(everything).not.toContain('Zoya Elsewhere');
    expect(everything).not.toContain('Other school rent');
    expect(everything).not.toContain('777.77');
    expect(everything).not.toContain(other.schoolId);
  });

  it("another school's export id is 404, for the status and for the file; no token is 401", async () => {
    expect((await other.api.get(`/api/exports/${result.id}`)).statusCode).toBe(404);
    const stolen = await other.api.get(`/api/exports/${result.id}/download`);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toEqual({ error: 'Export not found' });
    expect((await other.api.get('/api/exports')).json()).toEqual({ exports: [] });
    expect((await client(ctx.app).get(`/api/exports/${result.id}/download`)).statusCode).toBe(401);
    expect((await client(ctx.app).post('/api/exports')).statusCode).toBe(401);
    expect((await fixture.school.api.get('/api/exports/not-an-id')).statusCode).toBe(404);
  });

  it('lists the latest exports for the Settings card', async () => {
    const list = (await fixture.school.api.get('/api/exports')).json() as { exports: Array<{ id: string; status: string }> };
    expect(list.exports[0]).toMatchObject({ id: result.id, status: 'done' });
  });
});

describe('paging through a school larger than one page', () => {
  it('writes the same files a row per query as a page per query', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'ledger-export-pages-'));
    try {
      const progress: number[] = [];
      const build = (pageRows: number, name: string, maxSheetRows?: number) =>
        buildExport({
          db: ctx.database.db,
          schoolId: fixture.schoolId,
          schoolName: 'Fixture Public School',
          generatedAt: '22 Nov 2026, 11:00 am',
          target: path.join(out, name),
          pageRows,
          maxSheetRows,
          onProgress: async (p) => void progress.push(p),
        });
      const small = await build(1, 'one.zip');
      expect(progress.at(-1)).toBe(100);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
      const big = await build(5000, 'all.zip');
      expect(small.counts).toEqual(big.counts);
      const a = readZip(readFileSync(path.join(out, 'one.zip')));
      const b = readZip(readFileSync(path.join(out, 'all.zip')));
      for (const entity of ENTITIES) expect(a.get(`csv/${entity.file}.csv`)!.equals(b.get(`csv/${entity.file}.csv`)!), entity.file).toBe(true);

      // sheets of four rows at most, as Excel's 1,048,576: each kind goes on in "Receipt Lines (2)", … under its header
      const paged = await build(5000, 'paged.zip', 4);
      expect(paged.counts).toEqual(big.counts);
      const whole = new ExcelJS.Workbook();
      await whole.xlsx.load(b.get('school-data.xlsx')! as unknown as ArrayBuffer);
      const cut = new ExcelJS.Workbook();
      await cut.xlsx.load(readZip(readFileSync(path.join(out, 'paged.zip'))).get('school-data.xlsx')! as unknown as ArrayBuffer);
      const lines = ENTITIES.find((e) => e.file === 'receipt-lines')!;
      expect(big.counts[lines.file]).toBeGreaterThan(6);
      const pages = cut.worksheets.filter((w) => w.name === lines.sheet || w.name.startsWith(`${lines.sheet} (`));
      expect(pages.map((w) => w.name)).toEqual(Array.from({ length: Math.ceil(big.counts[lines.file]! / 3) }, (_, i) => (i === 0 ? lines.sheet : `${lines.sheet} (${i + 1})`)));
      const valuesOf = (w: ExcelJS.Worksheet) => w.getSheetValues().slice(1).map((row) => (row as unknown[]).slice(1));
      const header = valuesOf(whole.getWorksheet(lines.sheet)!)[0];
      for (const w of pages) {
        expect(w.rowCount).toBeLessThanOrEqual(4);
        expect(valuesOf(w)[0]).toEqual(header);
        expect(w.getRow(1).font?.bold).toBe(true);
      }
      expect(pages.flatMap((w) => valuesOf(w).slice(1))).toEqual(valuesOf(whole.getWorksheet(lines.sheet)!).slice(1));
      for (const entity of ENTITIES) expect(cut.getWorksheet(entity.sheet), entity.sheet).toBeDefined();
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('after the plan ends (ruling 14)', () => {
  it('the read-only session still exports and downloads, while other writes answer 402', async () => {
    const school = await signUpSchool(ctx, { schoolName: 'Lapsed Public School' });
    await ctx.database.db.update(schools).set({ trialEndsAt: new Date(NOW.getTime() - 86_400_000) }).where(eq(schools.id, school.schoolId));
    const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
    expect(login.json()).toMatchObject({ requiresPayment: true });
    const api = client(ctx.app, (login.json() as { token: string }).token);
    expect((await api.post('/api/expenses', { category: 'Rent', description: 'x', amount: '1', date: '2026-11-01' })).statusCode).toBe(402);
    const done = await exportAndWait(api);
    expect(done.body.status).toBe('done');
    const { res, files } = await download(api, done.body.downloadUrl!);
    expect(res.statusCode).toBe(200);
    expect(files.get('README.txt')!.toString('utf8')).toContain('Lapsed Public School');
  }, 60_000);
});

describe('expiry', () => {
  it('past its expiry the file is gone: no link, the download says so (410), and the next run deletes the zip', async () => {
    const done = await exportAndWait(fixture.school.api);
    const file = path.join(dataDir, 'exports', `${done.id}.zip`);
    expect(existsSync(file)).toBe(true);
    await ctx.database.db.update(dataExports).set({ expiresAt: new Date(NOW.getTime() - 1000) }).where(eq(dataExports.id, done.id));
    const status = (await fixture.school.api.get(`/api/exports/${done.id}`)).json() as { downloadUrl: string | null };
    expect(status.downloadUrl).toBeNull();
    const gone = await fixture.school.api.get(`/api/exports/${done.id}/download`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error).toBe('This export has expired and its file was deleted. Start a new export.');
    await exportAndWait(fixture.school.api);
    expect(existsSync(file)).toBe(false);
  }, 60_000);
});
