import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activatePlan, seedSession, seedStructure } from '../fees/test-fixtures';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * Issue 11: "a student admitted on 23 November owes tuition and bus from April". Monthly fees run
 * from the student's fees-from month (default: the enrollment month), the same on every screen.
 * Class 3 pays ₹1,000 tuition a month and a ₹2,000 exam fee; the bus is ₹500 a month.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let lateId: string;
let aprilId: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-23T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  await activatePlan(db, { schoolId: school.schoolId });
  await seedSession(db, { schoolId: school.schoolId, name: '2026-2027', startDate: '2026-04-01', endDate: '2027-03-31' });
  await seedStructure(db, { schoolId: school.schoolId, className: 'Class 3', academicYear: '2026-2027', tuition: 1000, exam: 2000 });
  const late = await school.api.post('/api/students', { name: 'Naina Rao', class: 'Class 3', section: 'A', monthlyBusFee: '500' });
  expect(late.statusCode, late.body).toBe(201);
  lateId = late.json().id;
  const april = await school.api.post('/api/students', { name: 'Om Prakash', class: 'Class 3', section: 'A', monthlyBusFee: '500', enrollmentDate: '2026-04-01' });
  aprilId = april.json().id;
});
afterAll(() => ctx.close());

const P = (rupees: string) => Math.round(Number(rupees) * 100);

describe('dues start from the admission month', () => {
  it('a student admitted on 23 November owes tuition and bus from November, not April', async () => {
    const student = (await school.api.get(`/api/students/${lateId}`)).json();
    expect(student).toMatchObject({ enrollmentDate: '2026-11-23', feesFromMonth: '2026-11' });
    const status = (await school.api.get(`/api/students/${lateId}/fee-status`)).json();
    // November only: ₹1,500 a month, and the yearly exam fee in full
    expect(status.account.tillDate).toMatchObject({ expected: '3500.00', outstanding: '3500.00' });
    expect(status.account.annual).toMatchObject({ expected: '9500.00' });
    const october = status.account.months.find((m: { key: string }) => m.key === '2026-10');
    expect(october.tuition.expected).toBe('0.00');
    expect(october.status).toBe('Not Recorded');
    const owed = (await school.api.get(`/api/students/${lateId}/outstanding-fees`)).json();
    expect(owed.total).toBe('3500.00');
    // an April admission of the same class owes eight months
    expect((await school.api.get(`/api/students/${aprilId}/outstanding-fees`)).json().total).toBe('14000.00');
  });

  it('stats, the class-wise report and the defaulters list agree', async () => {
    const stats = (await school.api.get('/api/stats/school')).json();
    expect(stats.pendingFees).toBe('17500.00');
    expect(stats.expectedMonthlyIncome).toBe('3000.00');
    const classWise = (await school.api.get('/api/reports/class-wise')).json();
    const total = classWise.tables[0].totals;
    expect(P(total.due)).toBe(P('3500.00') + P('14000.00'));
    expect(P(total.outstanding)).toBe(P('17500.00'));
    const defaulters = (await school.api.get('/api/reports/pending-fees')).json();
    const row = defaulters.tables[0].rows.find((r: { name?: string; student?: string }) => (r.name ?? r.student) === 'Naina Rao');
    expect(JSON.stringify(row)).toContain('Nov');
    expect(JSON.stringify(row)).not.toContain('Apr');
  });

  it('refuses a month paid before the fees start, and the fees-from month can be corrected', async () => {
    const early = await school.api.post('/api/fees', { studentId: lateId, fees: [{ type: 'monthly', amount: '1000', month: '2026-10' }] });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe('Tuition Fee for October 2026: nothing is due, so nothing can be received for it.');
    // a monthly payment with no month goes to November, the first month due
    const paid = await school.api.post('/api/fees', { studentId: lateId, fees: [{ type: 'monthly', amount: '1000' }] });
    expect(paid.json().receipt.fees).toEqual([{ type: 'monthly', amount: '1000.00', month: '2026-11' }]);

    const before = (await school.api.get(`/api/students/${lateId}`)).json();
    const edited = await school.api.put(`/api/students/${lateId}`, { ...before, aadharNumber: null, feesFromMonth: '2026-09' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().feesFromMonth).toBe('2026-09');
    // September and October are due now too: ₹3,500 + 2 × ₹1,500, less the ₹1,000 paid
    expect((await school.api.get(`/api/students/${lateId}/outstanding-fees`)).json().total).toBe('5500.00');
    const bad = await school.api.put(`/api/students/${lateId}`, { ...before, aadharNumber: null, feesFromMonth: 'Sept' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Fees from must be a month such as 2026-11');
  });
});
