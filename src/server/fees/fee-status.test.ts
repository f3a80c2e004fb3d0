import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from './test-fixtures';

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let studentId: string;
let longSessionStudentId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5', busFee: 600 })).id;

  // a thirteen-month session: expectations follow its real months, not a 12-month shortcut
  const long = await seedSession(db, { schoolId: school.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-04-30', isActive: false });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 2', academicYear: '2026-2027', tuition: 1000, exam: 500 });
  longSessionStudentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: long.id, name: 'Sara Khan', className: 'Class 2' })).id;

  const entries = [
    { month: 'April', year: 2025, tuitionFee: 1500, tuitionDate: '2025-04-10', busFee: 600, busDate: '2025-04-10' },
    { month: 'May', year: 2025, tuitionFee: 1200, tuitionDate: '2025-05-10', busFee: 600, busDate: '2025-05-10' },
    { month: 'June', year: 2025, tuitionFee: 1500, tuitionDate: '2025-06-10' },
  ];
  expect((await school.api.post('/api/monthly-fee-entries/bulk', { studentId, academicYear: '2025-2026', entries })).statusCode).toBe(201);
  const yearly = await school.api.post('/api/yearly-fee-entries', { studentId, academicYear: '2025-2026', admissionFee: 5000, admissionDate: '2025-04-10', examFee: 800, examDate: '2025-09-20' });
  expect(yearly.statusCode).toBe(201);
});
afterAll(() => ctx.close());

describe('Student Fee Status', () => {
  it('shows every month of the session with its badge, tuition, bus and discount', async () => {
    const res = await school.api.get(`/api/students/${studentId}/fee-status?academicYear=2025-2026`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.student).toMatchObject({ name: 'Ishaan Mir', className: 'Class 5', section: 'A', rollNumber: 1, status: 'active', monthlyBusFee: '600.00' });
    expect(body.session).toMatchObject({ name: '2025-2026', startDate: '2025-04-01', endDate: '2026-03-31' });
    expect(body.asOfMonth).toBe('2025-11');
    const months = body.account.months as Array<{ label: string; status: string; discount: string; outstanding: string; tuition: { paid: string }; bus: { paid: string } }>;
    expect(months.map((m) => `${m.label}: ${m.status}`)).toEqual([
      'April 2025: Paid',
      'May 2025: Paid',
      'June 2025: Partial',
      'July 2025: Pending',
      'August 2025: Pending',
      'September 2025: Pending',
      'October 2025: Pending',
      'November 2025: Pending',
      'December 2025: Not Recorded',
      'January 2026: Not Recorded',
      'February 2026: Not Recorded',
      'March 2026: Not Recorded',
    ]);
    expect(months[1]).toMatchObject({ discount: '300.00', outstanding: '0.00', tuition: { paid: '1200.00' }, bus: { paid: '600.00' } });
    expect(months[2]).toMatchObject({ discount: '0.00', outstanding: '600.00' });
  });

  it('sums the ledger: till date and annual, paid, discount, months and the yearly card', async () => {
    const body = (await school.api.get(`/api/students/${studentId}/fee-status`)).json();
    // till date: 8 months × ₹2,100 = ₹16,800 expected; ₹5,400 received; ₹300 discount; yearly ₹10,500 − ₹5,800
    expect(body.account.tillDate).toEqual({
      expected: '27300.00',
      received: '11200.00',
      concessions: '300.00',
      granted: '0.00',
      outstanding: '15800.00',
      monthlyExpected: '16800.00',
      monthlyOutstanding: '11100.00',
      yearlyExpected: '10500.00',
      yearlyOutstanding: '4700.00',
    });
    expect(body.account.annual.outstanding).toBe('24200.00');
    expect(body.ledger).toEqual({
      pendingFeesAnnual: '24200.00',
      totalPaid: '11200.00',
      outstandingTillDate: '15800.00',
      outstandingLabel: '15800.00',
      paidUp: false,
      monthsPaid: 2,
      monthsPending: 10,
      totalMonths: 12,
      averageMonthly: '1800.00',
      totalDiscount: '300.00',
    });
    expect(body.account.yearly).toMatchObject({ status: 'partial', paidCount: 2, applicableCount: 5, totalCount: 5, expected: '10500.00', paid: '5800.00', outstanding: '4700.00' });
    expect(body.account.yearly.heads.map((h: { head: string; status: string }) => `${h.head}:${h.status}`)).toEqual([
      'admission:paid',
      'exam:paid',
      'books:pending',
      'uniform:pending',
      'misc:pending',
    ]);
    expect(body.previousBalance).toEqual({ monthlyOutstanding: '0.00', yearlyOutstanding: '0.00', balance: '0.00', balances: [] });
    expect(body.receipts.map((r: { receiptNumber: string }) => r.receiptNumber)).toEqual(['YRL/2025-26/000001', 'MON/2025-26/000001']);
  });

  it('answers outstanding-fees with the same figures, till date or annual', async () => {
    const tillDate = (await school.api.get(`/api/students/${studentId}/outstanding-fees`)).json();
    expect(tillDate).toMatchObject({ monthlyFees: '11100.00', yearlyFees: '4700.00', total: '15800.00', horizon: 'tillDate', asOfMonth: '2025-11' });
    expect(tillDate.currentSession).toEqual({ academicYear: '2025-2026', monthlyOutstanding: '11100.00', yearlyOutstanding: '4700.00', total: '15800.00' });
    const annual = (await school.api.get(`/api/students/${studentId}/outstanding-fees?horizon=annual`)).json();
    expect(annual).toMatchObject({ monthlyFees: '19500.00', yearlyFees: '4700.00', total: '24200.00', horizon: 'annual' });
  });

  it('follows the real months of a longer session', async () => {
    const body = (await school.api.get(`/api/students/${longSessionStudentId}/fee-status?academicYear=2026-2027`)).json();
    expect(body.ledger.totalMonths).toBe(13);
    expect(body.account.annual).toMatchObject({ monthlyExpected: '13000.00', yearlyExpected: '500.00', outstanding: '13500.00' });
    // the session has not started yet: nothing is due till date
    expect(body.account.tillDate.outstanding).toBe('0.00');
    expect(body.ledger.outstandingLabel).toBe('Paid Up');
    expect(body.account.months.every((m: { status: string }) => m.status === 'Not Recorded')).toBe(true);
  });

  it('keeps other schools out', async () => {
    expect((await other.api.get(`/api/students/${studentId}/fee-status`)).statusCode).toBe(404);
    expect((await other.api.get(`/api/students/${studentId}/outstanding-fees`)).statusCode).toBe(404);
    expect((await other.api.get(`/api/student-previous-balances?studentId=${studentId}`)).json()).toEqual([]);
  });
});
