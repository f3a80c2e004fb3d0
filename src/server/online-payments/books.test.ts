import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * Every rupee reconciled (issue 13 item 7, ruling 27): a payment captured online after the clerk
 * took the same fee in cash becomes credit; part is applied to another fee, part refunded. The day
 * book, the financial report, the dashboard stats, the Online Payments screen and Fee Status agree
 * to the paisa: money received is counted once, never twice, never lost.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let ishaan: string;
const DAY = '2025-11-15';

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  ishaan = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5', busFee: 600 })).id;

  const link = (await school.api.post('/api/payment-links', { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-07' })).json();
  const parent = client(ctx.app);
  const order = (await parent.post(`/api/pay/${link.linkToken}/order`)).json();
  const signed = (await parent.post(`/api/pay/${link.linkToken}/sandbox-checkout`, { orderId: order.orderId })).json();
  // the counter takes July in cash while the parent is paying online
  expect((await school.api.post('/api/fees', { studentId: ishaan, fees: [{ type: 'monthly', amount: 1500, month: '2025-07' }], paymentMode: 'cash' })).statusCode).toBe(201);
  expect((await parent.post(`/api/pay/${link.linkToken}/verify`, signed)).json().credit).toBe('1500.00');
  expect((await school.api.post(`/api/students/${ishaan}/credit/apply`, { feeType: 'bus', feeMonth: '2025-08', amount: '600' })).statusCode).toBe(201);
  expect((await school.api.post(`/api/students/${ishaan}/credit/refund`, { amount: '400', mode: 'cash', reason: 'Returned to the mother at the counter' })).statusCode).toBe(201);
});
afterAll(() => ctx.close());

// money that really came in: ₹1,500 cash + ₹1,500 online − ₹400 refunded
const RECEIVED = '2600.00';

describe('the books agree', () => {
  it('Fee Status: July paid once, August bus paid from credit, ₹500 credit left', async () => {
    const status = (await school.api.get(`/api/students/${ishaan}/fee-status`)).json();
    const month = (key: string) => status.account.months.find((m: { key: string }) => m.key === key);
    expect(month('2025-07').tuition.paid).toBe('1500.00');
    expect(month('2025-08').bus.paid).toBe('600.00');
    expect(status.credit).toBe('500.00');
    expect((await school.api.get(`/api/students/${ishaan}/credit`)).json().balance).toBe('500.00');
  });

  it('Online Payments of the day: the payment, its credit and the refund; the Excel export', async () => {
    const day = (await school.api.get(`/api/online-payments?date=${DAY}`)).json();
    expect(day.payments).toMatchObject([{ studentName: 'Ishaan Mir', provider: 'sandbox', amount: '1500.00', status: 'credited', receiptNumber: null, credit: '1500.00' }]);
    expect(day.payments[0].orderId).toMatch(/^order_sbx_/);
    expect(day.payments[0].paymentId).toMatch(/^pay_sbx_/);
    expect(day.totals).toEqual({ count: 1, amount: '1500.00', credit: '1500.00', refund: '400.00' });
    expect((await school.api.get('/api/online-payments?date=2025-11-14')).json().payments).toEqual([]);
    const xlsx = await school.api.get(`/api/online-payments/export.xlsx?date=${DAY}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('the day book counts the money once: cash, credit kept, less the refund; fees paid from credit are not income again', async () => {
    const doc = (await school.api.get(`/api/reports/day-book?date=${DAY}`)).json();
    const summary = Object.fromEntries(doc.summary.map((s: { label: string; value: unknown }) => [s.label, s.value]));
    expect(summary.Received).toBe(RECEIVED);
    expect(summary['Cash received']).toBe('1500.00');
    expect(summary['Credit kept from online payments (in Received)']).toBe('1500.00');
    expect(summary['Fees paid from credit (not in Received)']).toBe('600.00');
    expect(summary['Credit refunded (taken off Received)']).toBe('400.00');
    const credit = doc.tables.find((t: { title: string }) => t.title === "Students' credit");
    expect(credit.rows.map((r: { amount: string }) => r.amount)).toEqual(['1500.00', '-400.00']);
  });

  it('the financial report and the dashboard say the same', async () => {
    const report = (await school.api.get(`/api/reports/financial?fromDate=${DAY}&toDate=${DAY}`)).json();
    expect(report.summary).toMatchObject({
      totalMonthlyIncome: '2100.00', // July tuition in cash + August bus from credit
      creditReceived: '1500.00',
      creditApplied: '600.00',
      creditRefunded: '400.00',
      totalIncome: RECEIVED,
    });
    const stats = (await school.api.get('/api/stats/school')).json();
    expect(stats.totalRevenue).toBe(RECEIVED);
  });
});
