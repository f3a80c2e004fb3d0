import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRows } from '../lib/read-at-once';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { receiptsRead, sessionLinesOf, studentSessionLines } from './queries';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from './test-fixtures';

// Fee Status takes the session's lines from the receipts it lists instead of reading them twice
// (decision 0101): the same lines, and every one of them for a student with more receipts than it lists.

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let sessionId: string;
let studentId: string;
let busyId: string;

const pay = async (id: string, fees: Array<{ type: string; amount: string; month?: string }>, clientId: string) => {
  const res = await school.api.post('/api/fees', { studentId: id, fees, paymentMode: 'cash', clientId });
  expect(res.statusCode).toBe(201);
  return res.json().receipt.id as string;
};

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  sessionId = session.id;
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId, name: 'Ishaan Mir', className: 'Class 5', busFee: 600 })).id;
  busyId = (await seedStudent(db, { schoolId: school.schoolId, sessionId, name: 'Tara Bose', className: 'Class 5' })).id;

  const entries = [
    { month: 'April', year: 2025, tuitionFee: 1500, tuitionDate: '2025-04-10', busFee: 600, busDate: '2025-04-10' },
    { month: 'May', year: 2025, tuitionFee: 1200, tuitionDate: '2025-05-10' },
  ];
  expect((await school.api.post('/api/monthly-fee-entries/bulk', { studentId, academicYear: '2025-2026', entries })).statusCode).toBe(201);
  expect((await school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', examFee: 800, examDate: '2025-09-20' })).statusCode).toBe(201);
  await pay(studentId, [{ type: 'monthly', amount: '700' }], 'lines-1');
  const bounced = await pay(studentId, [{ type: 'monthly', amount: '999' }], 'lines-2');
  expect((await school.api.post(`/api/receipts/${bounced}/cancel`, { reason: 'Cheque bounced' })).statusCode).toBe(200);
});
afterAll(() => ctx.close());

describe('Fee Status lines from its receipts', () => {
  it('finds the same live lines of the session as the ledger read, leaving out a cancelled receipt', async () => {
    const db = ctx.database.db;
    const listed = await readRows(db, receiptsRead({ schoolId: school.schoolId, studentId, sessionId, limit: 500, offset: 0 }));
    expect(listed).toHaveLength(4);
    const own = await studentSessionLines(db, { schoolId: school.schoolId, studentId, sessionId });
    const derived = sessionLinesOf(listed, sessionId);
    // the grid's months, the exam fee and the ₹700 payment's lines; none of the cancelled ₹999
    expect(derived.map((l) => [l.head, l.period, l.amount])).toEqual(own.map((l) => [l.head, l.period, l.amount]));
    expect(derived).toEqual(own);
    expect(own.reduce((s, l) => s + l.amount, 0)).toBe(1500_00 + 600_00 + 1200_00 + 800_00 + 700_00);

    const status = (await school.api.get(`/api/students/${studentId}/fee-status`)).json();
    expect(status.ledger.totalPaid).toBe('4800.00');
    expect(status.receipts).toHaveLength(4);
    expect(status.receipts.filter((r: { status: string }) => r.status === 'cancelled')).toHaveLength(1);
  });

  it('counts every line of a student with more receipts than the list shows', async () => {
    const db = ctx.database.db;
    // 501 receipts of ₹1 of July's tuition, older than anything the API writes on this day
    await db.execute(sql`
      with r as (
        insert into receipts (school_id, receipt_number, prefix, academic_year, sequence, source, student_id, session_id,
                              student_name, class_name, section, roll_number, received_by, received_at, total_paise)
        select ${school.schoolId}::uuid, 'MON/2025-26/' || lpad(g::text, 6, '0'), 'MON', '2025-2026', g, 'monthly', ${busyId}::uuid, ${sessionId}::uuid,
               'Tara Bose', 'Class 5', 'A', 2, 'Office', timestamptz '2025-07-10 10:00+05:30' + g * interval '1 second', 100
        from generate_series(900001, 900501) g
        returning id, received_at
      )
      insert into receipt_lines (school_id, receipt_id, student_id, session_id, head, period, amount_paise, paid_on)
      select ${school.schoolId}::uuid, r.id, ${busyId}::uuid, ${sessionId}::uuid, 'tuition', '2025-07', 100, '2025-07-10' from r`);
    await pay(busyId, [{ type: 'monthly', amount: '200' }], 'busy-1');

    const status = (await school.api.get(`/api/students/${busyId}/fee-status`)).json();
    expect(status.receipts).toHaveLength(500);
    // ₹501 of July and the ₹200 paid today (April's tuition, the oldest month due): not the ₹200 and
    // the 499 listed alone
    expect(status.ledger.totalPaid).toBe('701.00');
    const july = status.account.months.find((m: { key: string }) => m.key === '2025-07');
    expect(july.tuition.paid).toBe('501.00');
  });
});
