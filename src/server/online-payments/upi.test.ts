import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

/** Direct UPI without a gateway (issue 13 item 5): the parent reports the reference, the clerk confirms or rejects. */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let ishaan: string;
const parent = () => client(ctx.app);

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx, { schoolName: 'Green Valley School' });
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  ishaan = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5' })).id;
});
afterAll(() => ctx.close());

const newLink = async (body: Record<string, unknown>) => (await school.api.post('/api/payment-links', { studentId: ishaan, ...body })).json() as { id: string; linkToken: string };

describe('UPI payments to confirm', () => {
  it('needs the school to have a UPI id', async () => {
    const l = await newLink({ feeType: 'exam' });
    const res = await parent().post(`/api/pay/${l.linkToken}/upi-reference`, { upiReference: '412345678901' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('This school has not set up UPI payments.');
    expect((await parent().get(`/api/pay/${l.linkToken}/methods`)).json().upi).toBeNull();
  });

  it('the parent reports the reference; the clerk confirms it and the receipt is written once', async () => {
    expect((await school.api.put('/api/settings/payments', { upiVpa: 'greenvalley@sbi', upiPayeeName: 'Green Valley School' })).statusCode).toBe(200);
    const l = await newLink({ feeType: 'tuition', feeMonth: '2025-05' });
    const bad = await parent().post(`/api/pay/${l.linkToken}/upi-reference`, { upiReference: '12-34' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Enter the 12-digit UPI reference (UTR) shown in your UPI app');
    const sent = await parent().post(`/api/pay/${l.linkToken}/upi-reference`, { upiReference: '412345678901', payerName: 'Bilal Mir' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ status: 'pending' });
    const twice = await parent().post(`/api/pay/${l.linkToken}/upi-reference`, { upiReference: '412345678901' });
    expect(twice.statusCode).toBe(409);

    const pending = (await school.api.get('/api/upi-confirmations?status=pending')).json().items;
    expect(pending).toMatchObject([{ linkId: l.id, studentName: 'Ishaan Mir', className: 'Class 5', amount: '1500.00', upiReference: '412345678901', payerName: 'Bilal Mir', status: 'pending', reason: null, receiptNumber: null }]);
    expect((await other.api.get('/api/upi-confirmations')).json().items).toEqual([]);
    expect((await other.api.post(`/api/upi-confirmations/${pending[0].id}/confirm`)).statusCode).toBe(404);

    const confirmed = await school.api.post(`/api/upi-confirmations/${pending[0].id}/confirm`);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().receiptNumber).toBe('ONL/2025-26/000001');
    const receipt = (await school.api.get(`/api/receipts/${confirmed.json().receiptId}`)).json().receipt;
    expect(receipt).toMatchObject({ paymentMode: 'upi', upiReference: '412345678901', total: '1500.00' });
    expect(receipt.receivedBy).toMatch(/^Online \(UPI, confirmed by .+\)$/);
    expect((await parent().get(`/api/pay/${l.linkToken}`)).json().paymentLink.status).toBe('paid');
    expect((await parent().get(`/api/pay/${l.linkToken}/receipt.pdf`)).statusCode).toBe(200);
    const again = await school.api.post(`/api/upi-confirmations/${pending[0].id}/confirm`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This UPI payment was already confirmed.');
    expect((await school.api.get('/api/upi-confirmations?status=confirmed')).json().items[0].receiptNumber).toBe('ONL/2025-26/000001');
  });

  it('a reference not in the bank statement is rejected with a reason; no receipt, the link stays payable', async () => {
    const l = await newLink({ feeType: 'books' });
    await parent().post(`/api/pay/${l.linkToken}/upi-reference`, { upiReference: '499999999999' });
    const [item] = (await school.api.get('/api/upi-confirmations?status=pending')).json().items;
    const noReason = await school.api.post(`/api/upi-confirmations/${item.id}/reject`, { reason: ' ' });
    expect(noReason.json().error).toBe('Enter the reason for rejecting');
    const rejected = await school.api.post(`/api/upi-confirmations/${item.id}/reject`, { reason: 'Not in the SBI statement of 15 Nov' });
    expect(rejected.json()).toMatchObject({ status: 'rejected', reason: 'Not in the SBI statement of 15 Nov', receiptNumber: null });
    expect((await parent().get(`/api/pay/${l.linkToken}`)).json().paymentLink.status).toBe('active');
    expect((await school.api.get(`/api/students/${ishaan}/fee-status`)).json().account.yearly.heads.find((y: { head: string }) => y.head === 'books').paid).toBe('0.00');
  });
});
