import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { seedSession, seedStructure, seedStudents } from '../fees/test-fixtures';

/**
 * The Financial report's fee tables are sorted by payment date, class order, section, roll number,
 * name and month, which PostgreSQL sorts with the first four folded into one number (decision 0103).
 * Here every way that number could go wrong shows: Class 10 after Class 2 (class order, not text),
 * roll 10 after roll 9 (numbers, not text), section B after A whatever the roll numbers, a later
 * date after an earlier one whatever the class, and two months paid the same day in month order.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;

const PERIOD = 'fromDate=2026-04-01&toDate=2026-11-30';

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-20T05:30:00.000Z') });
  school = await signUpSchool(ctx, { schoolName: 'Order Public School' });
  const db = ctx.database.db;
  const { schoolId } = school;
  const session = await seedSession(db, { schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31', isActive: true });
  for (const className of ['Nursery', 'Class 2', 'Class 10']) await seedStructure(db, { schoolId, academicYear: '2026-2027', className, tuition: 1000 });
  // seeded out of order: the report's order must come from the sort, not from the rows' age
  const people = [
    ...Array.from({ length: 10 }, (_, i) => ({ name: `Tenth ${String(i + 1).padStart(2, '0')}`, className: 'Class 10' })),
    { name: 'Second B', className: 'Class 2', section: 'B' },
    { name: 'Second A', className: 'Class 2' },
    { name: 'Second A2', className: 'Class 2' },
    { name: 'Nursery A', className: 'Nursery' },
  ];
  const seeded = await seedStudents(db, { schoolId, sessionId: session.id, people });
  const byName = new Map(seeded.map((s) => [s.name, s.id]));
  let n = 0;
  const pay = async (name: string, amount: string) => {
    const res = await school.api.post('/api/fees', { studentId: byName.get(name), fees: [{ type: 'monthly', amount }], paymentMode: 'cash', clientId: `order-${(n += 1)}` });
    expect(res.statusCode, res.body).toBe(201);
  };
  // 19 November: one Class 10 pupil, the last roll number
  ctx.clock.set(new Date('2026-11-19T05:30:00.000Z'));
  await pay('Tenth 10', '1000');
  // 20 November: everyone else, in an order that is none of the report's; Second A pays April and May
  ctx.clock.set(new Date('2026-11-20T05:30:00.000Z'));
  for (const name of ['Tenth 09', 'Second B', 'Tenth 01', 'Second A2', 'Nursery A', 'Tenth 10', 'Second A']) await pay(name, name === 'Second A' ? '2000' : '1000');
});
afterAll(() => ctx.close());

const EXPECTED: Array<[string, string, string, number, string, string]> = [
  ['2026-11-19', 'Tenth 10', 'Class 10', 10, 'A', 'April'],
  ['2026-11-20', 'Nursery A', 'Nursery', 1, 'A', 'April'],
  ['2026-11-20', 'Second A', 'Class 2', 1, 'A', 'April'],
  ['2026-11-20', 'Second A', 'Class 2', 1, 'A', 'May'],
  ['2026-11-20', 'Second A2', 'Class 2', 2, 'A', 'April'],
  ['2026-11-20', 'Second B', 'Class 2', 1, 'B', 'April'],
  ['2026-11-20', 'Tenth 01', 'Class 10', 1, 'A', 'April'],
  ['2026-11-20', 'Tenth 09', 'Class 10', 9, 'A', 'April'],
  // Tenth 10's second payment is for May: April was paid on the 19th
  ['2026-11-20', 'Tenth 10', 'Class 10', 10, 'A', 'May'],
];

describe('the order of the Financial report’s monthly fee table', () => {
  it('is payment date, class order, section, roll number and month, in the report', async () => {
    const res = await school.api.get(`/api/reports/financial?${PERIOD}`);
    expect(res.statusCode).toBe(200);
    const rows = res.json().monthlyFees as Array<{ tuitionDate: string; studentName: string; studentClass: string; rollNumber: number; section: string; month: string }>;
    expect(rows.map((r) => [r.tuitionDate, r.studentName, r.studentClass, r.rollNumber, r.section, r.month])).toEqual(EXPECTED);
  });

  it('is the same in the Excel download', async () => {
    const res = await school.api.get(`/api/reports/financial.xlsx?${PERIOD}`);
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Monthly Fees')!;
    const rows: unknown[][] = [];
    sheet.eachRow((row, number) => {
      if (number === 1 || row.getCell(1).value === 'Total') return;
      const paid = row.getCell(8).value as Date;
      rows.push([paid.toISOString().slice(0, 10), row.getCell(1).value, row.getCell(2).value, row.getCell(4).value, row.getCell(3).value, String(row.getCell(5).value).split(' ')[0]]);
    });
    expect(rows).toEqual(EXPECTED);
  });
});
