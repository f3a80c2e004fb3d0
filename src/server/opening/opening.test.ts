import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools, students } from '../db/schema';
import { sessionCache } from '../auth/session-cache';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';

/**
 * Opening balances (issue 11 item 4, decision 0027). The clock is 15 Nov 2025: the school starts
 * using the product in the 2025-2026 session. Class 5: tuition ₹1,500 a month, bus ₹500, yearly
 * heads ₹10,500 together, so Kabir owes ₹26,500 till date before any entry.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let kabir: string;
let zoya: string;
let meher: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  kabir = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Kabir Lone', className: 'Class 5', busFee: 500 })).id;
  zoya = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Zoya Mir', className: 'Class 5', busFee: 500 })).id;
  meher = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Meher Dar', className: 'Class 5' })).id;
  await db.update(students).set({ admissionNumber: 'ADM-7' }).where(eq(students.id, meher));
});
afterAll(() => ctx.close());

const outstanding = async (id: string) => (await school.api.get(`/api/students/${id}/outstanding-fees`)).json();

describe('opening balance of one student', () => {
  let receiptId: string;

  it('enters arrears per head and a lump sum, and months already paid as one OPN receipt', async () => {
    expect((await outstanding(kabir)).total).toBe('26500.00');
    const res = await school.api.post('/api/opening-balances', {
      studentId: kabir,
      amounts: { tuition: '3000', books: '1200', lump_sum: 500 },
      paidMonths: ['2025-04', 'May 2025', '2025-06'],
      note: 'Old register p. 14',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.arrearIds).toHaveLength(3);
    expect(body.monthsPaid).toEqual(['2025-04', '2025-05', '2025-06']);
    expect(body.receipt.receiptNumber).toBe('OPN/2025-26/000001');
    expect(body.receipt.source).toBe('opening');
    expect(body.receipt.total).toBe('6000.00');
    receiptId = body.receipt.id;

    // three months paid (₹6,000 less owed), ₹4,700 of arrears owed as previous balance
    const owed = await outstanding(kabir);
    expect(owed.total).toBe('25200.00');
    expect(owed.previousBalance.balance).toBe('4700.00');
    expect(owed.previousBalance.monthlyOutstanding).toBe('3000.00');
    expect(owed.previousBalance.balances[0].reason).toBe('opening');

    const status = (await school.api.get(`/api/students/${kabir}/fee-status`)).json();
    const april = status.account.months.find((m: { month: string }) => m.month === 'April');
    expect(april.status).toBe('Paid');
    const july = status.account.months.find((m: { month: string }) => m.month === 'July');
    expect(july.status).toBe('Pending');

    const view = (await school.api.get(`/api/students/${kabir}/opening`)).json();
    expect(view.recorded).toBe('4700.00');
    expect(view.remaining).toBe('4700.00');
    expect(view.arrears.map((a: { headLabel: string; amount: string }) => `${a.headLabel} ${a.amount}`)).toEqual(['Tuition 3000.00', 'Books 1200.00', 'Lump sum 500.00']);
    expect(view.receipts[0].receiptNumber).toBe('OPN/2025-26/000001');

    // the banner of the grid shows the arrears too
    const grid = (await school.api.get(`/api/monthly-fee-entries?studentId=${kabir}&withContinuity=true`)).json();
    expect(grid.previousBalance.balance).toBe('4700.00');
  });

  it('never doubles: a second entry for the same student is refused', async () => {
    const res = await school.api.post('/api/opening-balances', { studentId: kabir, amounts: { tuition: '100' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Kabir Lone already has opening entries. Cancel them first to enter them again.');
  });

  it('refuses an empty entry, a month not yet begun and a month outside the session with clear messages', async () => {
    const empty = await school.api.post('/api/opening-balances', { studentId: zoya, amounts: { tuition: '' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toContain('Enter an opening balance amount or tick a month already paid');
    const future = await school.api.post('/api/opening-balances', { studentId: zoya, paidMonths: ['2025-12', '2026-05'] });
    expect(future.statusCode).toBe(400);
    expect(future.json().error).toBe(
      'December 2025 has not begun yet: only months up to this month can be entered as paid before go-live; May 2026 is not a month of the 2025-2026 session',
    );
    const letters = await school.api.post('/api/opening-balances', { studentId: zoya, amounts: { bus: '1e3' } });
    expect(letters.statusCode).toBe(400);
  });

  it('is not income of the day: not in the day book, this month\'s income or the financial report', async () => {
    const stats = (await school.api.get('/api/stats/school')).json();
    expect(stats.thisMonthIncome).toBe('0.00');
    const book = (await school.api.get('/api/reports/day-book?date=2025-11-15')).json();
    expect(book.summary.find((s: { label: string }) => s.label === 'Receipts').value).toBe(0);
    expect(book.summary.find((s: { label: string }) => s.label.startsWith('Opening entries')).value).toBe('1 (6000.00)');
    const fin = (await school.api.get('/api/reports/financial?fromDate=2025-04-01&toDate=2026-03-31')).json();
    expect(fin.summary.totalIncome).toBe('0.00');
    // but the session report counts the months as received and shows the arrears on their own line
    const session = (await school.api.get('/api/reports/session?academicYear=2025-2026')).json();
    expect(session.summary.find((s: { label: string }) => s.label === 'Opening arrears entered (old register)').value).toBe('4700.00');
    expect(session.summary.find((s: { label: string }) => s.label.startsWith('Opening entries')).value).toBe('6000.00');
  });

  it('a month paid before go-live cannot be paid again (ruling 26)', async () => {
    const res = await school.api.post('/api/fees', { studentId: kabir, fees: [{ type: 'monthly', amount: '1500', month: 'April 2025' }] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain('Tuition Fee for April 2025 is already paid');
  });

  it('collects the arrears as previous balance, never more than is owed, as income of the day', async () => {
    const over = await school.api.post('/api/fees', { studentId: kabir, fees: [{ type: 'previous_balance', amount: '5000' }] });
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toBe('The previous balance payment (₹5,000.00) is more than the balance pending (₹4,700.00)');
    const paid = await school.api.post('/api/fees', { studentId: kabir, fees: [{ type: 'previous_balance', amount: '1000' }] });
    expect(paid.statusCode).toBe(201);
    expect(paid.json().receipt.lines[0].head).toBe('opening_balance');
    expect((await outstanding(kabir)).previousBalance.balance).toBe('3700.00');
    const fin = (await school.api.get('/api/reports/financial?fromDate=2025-04-01&toDate=2026-03-31')).json();
    expect(fin.summary.totalArrearsCollected).toBe('1000.00');
    expect(fin.summary.totalIncome).toBe('1000.00');
    const stats = (await school.api.get('/api/stats/school')).json();
    expect(stats.thisMonthIncome).toBe('1000.00');
  });

  it('cancels an arrear with a reason, but not below what was already collected', async () => {
    const view = (await school.api.get(`/api/students/${kabir}/opening`)).json();
    const [tuition, books, lump] = view.arrears as Array<{ id: string }>;
    const noReason = await school.api.post(`/api/opening-balances/${lump!.id}/cancel`, { reason: '' });
    expect(noReason.statusCode).toBe(400);
    expect((await school.api.post(`/api/opening-balances/${lump!.id}/cancel`, { reason: 'Typed twice' })).statusCode).toBe(200);
    expect((await school.api.post(`/api/opening-balances/${lump!.id}/cancel`, { reason: 'Typed twice' })).statusCode).toBe(409);
    expect((await school.api.post(`/api/opening-balances/${tuition!.id}/cancel`, { reason: 'Wrong student' })).statusCode).toBe(200);
    const refused = await school.api.post(`/api/opening-balances/${books!.id}/cancel`, { reason: 'Wrong' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toContain('₹1000.00 was already collected');
    expect((await outstanding(kabir)).previousBalance.balance).toBe('200.00');
    const after = (await school.api.get(`/api/students/${kabir}/opening`)).json();
    expect(after.arrears.map((a: { status: string }) => a.status)).toEqual(['cancelled', 'live', 'cancelled']);
    expect(after.arrears[2].cancelReason).toBe('Typed twice');
  });

  it('cancelling the OPN receipt re-opens the months', async () => {
    const before = Number((await outstanding(kabir)).total);
    const res = await school.api.post(`/api/receipts/${receiptId}/cancel`, { reason: 'April to June were not paid after all' });
    expect(res.statusCode).toBe(200);
    expect(Number((await outstanding(kabir)).total)).toBe(before + 6000);
    const status = (await school.api.get(`/api/students/${kabir}/fee-status`)).json();
    expect(status.account.months.find((m: { month: string }) => m.month === 'April').status).toBe('Pending');
  });
});

describe('opening balance import', () => {
  it('offers a CSV template that imports as it is once the example row is replaced', async () => {
    const res = await school.api.get('/api/opening-balances/template?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('opening-balances-template.csv');
    const [header] = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe('admission_number,name,class,section,tuition,bus,admission,exam,books,uniform,misc,other,lump_sum,paid_through,note');
  });

  it('reports every error of every row and writes nothing', async () => {
    const csv = [
      'admission_number,name,class,section,tuition,bus,admission,exam,books,uniform,misc,other,lump_sum,paid_through,note',
      ',Zoya Mir,5th,,2000,,,,,,,,,2025-07,',
      ',Nobody Here,Class 5,,abc,,,,,,,,,Julember,',
      ',Zoya Mir,Class 5,,100,,,,,,,,,,',
    ].join('\n');
    const res = await school.api.post('/api/opening-balances/import', { fileName: 'opening.csv', csv });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.imported).toBe(0);
    expect(body.errors).toEqual([
      {
        row: 3,
        name: 'Nobody Here',
        reasons: [
          'Tuition arrears has letters in it; type the amount in digits, e.g. 1500 or 1,500.50',
          'Paid through "Julember" is not a month (use 2026-06 or June 2026)',
          'No student matches this row: give the admission number, or the name and class as in the student list',
        ],
      },
      { row: 4, name: 'Zoya Mir', reasons: ['The same student is already on row 2 of this file'] },
    ]);
    expect((await school.api.get(`/api/students/${zoya}/opening`)).json().arrears).toEqual([]);
  });

  it('imports arrears and paid-through months in one go, then flags the same students instead of doubling them', async () => {
    const csv = [
      'admission_number,name,class,tuition,bus,lump_sum,paid_through,note',
      ',Zoya Mir,5th,2000,,,July 2025,Old register',
      'ADM-7,,,,,"1,250.50",,',
    ].join('\n');
    const res = await school.api.post('/api/opening-balances/import', { csv });
    const body = res.json();
    expect(body.message).toBe('2 students imported.');
    expect(body.imported).toBe(2);
    expect(body.arrearsTotal).toBe('3250.50');
    expect(body.monthsPaid).toBe(4);
    const status = (await school.api.get(`/api/students/${zoya}/fee-status`)).json();
    expect(status.account.months.filter((m: { status: string }) => m.status === 'Paid').map((m: { month: string }) => m.month)).toEqual(['April', 'May', 'June', 'July']);
    expect((await outstanding(meher)).previousBalance.balance).toBe('1250.50');

    const again = (await school.api.post('/api/opening-balances/import', { csv })).json();
    expect(again.imported).toBe(0);
    expect(again.skipped.map((s: { name: string }) => s.name)).toEqual(['Zoya Mir', 'Meher Dar']);
    expect((await outstanding(meher)).previousBalance.balance).toBe('1250.50');
  });

  it('reads the Excel template filled in', async () => {
    const template = await school.api.get('/api/opening-balances/template?format=xlsx');
    expect(template.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const row = sheet.getRow(2);
    const values = { admission_number: '', name: 'Kabir Lone', class: 'Class 5', tuition: '', lump_sum: '700', paid_through: '', note: '' } as Record<string, string>;
    sheet.getRow(1).eachCell((cell, col) => row.getCell(col).value = values[cell.text] ?? '');
    row.commit();
    const xlsxBase64 = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
    // Kabir's earlier entries are still partly live: flagged, not doubled
    const res = (await school.api.post('/api/opening-balances/import', { fileName: 'opening.xlsx', xlsxBase64 })).json();
    expect(res.imported).toBe(0);
    expect(res.skipped).toEqual([{ row: 2, name: 'Kabir Lone', reason: 'Kabir Lone already has opening entries. Cancel them first to enter them again.' }]);
  });
});

describe('tenancy and read-only sessions', () => {
  it("answers 404 for another school's student or entry", async () => {
    expect((await other.api.get(`/api/students/${kabir}/opening`)).statusCode).toBe(404);
    expect((await other.api.post('/api/opening-balances', { studentId: kabir, amounts: { tuition: '100' } })).statusCode).toBe(404);
    const entry = (await school.api.get(`/api/students/${kabir}/opening`)).json().arrears[1].id;
    expect((await other.api.post(`/api/opening-balances/${entry}/cancel`, { reason: 'x' })).statusCode).toBe(404);
    const imported = (await other.api.post('/api/opening-balances/import', { csv: 'name,class,tuition\nKabir Lone,Class 5,100' })).json();
    expect(imported.errors[0].reasons).toEqual(['No student matches this row: give the admission number, or the name and class as in the student list']);
  });

  it('refuses writes with 402 once the plan has ended, and still reads', async () => {
    const db = ctx.database.db;
    await db.update(schools).set({ trialEndsAt: new Date('2025-11-01T00:00:00.000Z') }).where(eq(schools.id, school.schoolId));
    sessionCache.forgetSchool(school.schoolId);
    const write = await school.api.post('/api/opening-balances', { studentId: zoya, amounts: { tuition: '100' } });
    expect(write.statusCode).toBe(402);
    expect((await school.api.post('/api/opening-balances/import', { csv: 'name,class,tuition\nZoya Mir,Class 5,100' })).statusCode).toBe(402);
    expect((await school.api.get(`/api/students/${zoya}/opening`)).statusCode).toBe(200);
  });
});

