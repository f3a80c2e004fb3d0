import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlinePayments, receipts, schoolPaymentSettings } from '../db/schema';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { sandboxWebhookSignature } from './public-routes';

/**
 * Paying a link (issue 13 item 4, rulings 27 and 34) through the sandbox gateway: exactly one ONL
 * receipt whatever arrives twice, and money that arrives for a fee already collected becomes credit.
 */

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let other: Awaited<ReturnType<typeof signUpSchool>>;
let ishaan: string;
let otherStudent: string;
const parent = () => client(ctx.app);

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  school = await signUpSchool(ctx, { schoolName: 'Green Valley School' });
  other = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  ishaan = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5', busFee: 600 })).id;
  const otherSession = await seedSession(db, { schoolId: other.schoolId });
  await seedStructure(db, { schoolId: other.schoolId, ...CLASS5_2025 });
  otherStudent = (await seedStudent(db, { schoolId: other.schoolId, sessionId: otherSession.id, name: 'Aamir Lone', className: 'Class 5' })).id;
});
afterAll(() => ctx.close());

async function link(api: typeof school.api, body: Record<string, unknown>) {
  const res = await api.post('/api/payment-links', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; linkToken: string; amount: string };
}

async function orderAndPay(token: string) {
  const order = await parent().post(`/api/pay/${token}/order`);
  expect(order.statusCode).toBe(200);
  const paid = await parent().post(`/api/pay/${token}/sandbox-checkout`, { orderId: order.json().orderId });
  expect(paid.statusCode).toBe(200);
  return { order: order.json(), signed: paid.json() as { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string } };
}

async function webhookKey(schoolId: string) {
  await (schoolId === school.schoolId ? school.api : other.api).get('/api/settings/payments');
  const [row] = await ctx.database.db.select().from(schoolPaymentSettings).where(eq(schoolPaymentSettings.schoolId, schoolId));
  return row!.webhookKey;
}

function webhook(key: string, signFor: string, orderId: string, paymentId: string, amount: number) {
  const body = JSON.stringify({ event: 'payment.captured', payload: { payment: { entity: { id: paymentId, order_id: orderId, amount, status: 'captured' } } } });
  return ctx.app.inject({
    method: 'POST',
    url: `/api/pay/webhook/${key}`,
    headers: { 'content-type': 'application/json', 'x-razorpay-signature': sandboxWebhookSignature(ctx.config.sessionSecret, signFor, body) },
    payload: body,
  });
}

const onlineReceipts = () => ctx.database.db.select().from(receipts).where(and(eq(receipts.schoolId, school.schoolId), eq(receipts.source, 'online')));

describe('paying a link in the sandbox', () => {
  it('order → checkout → verify writes one ONL receipt, the link is paid, and the parent can download the receipt', async () => {
    const l = await link(school.api, { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-06' });
    const { order, signed } = await orderAndPay(l.linkToken);
    expect(order).toMatchObject({ amount: '1500.00', amountPaise: 150000, currency: 'INR', keyId: 'sandbox', provider: 'sandbox' });
    expect((await parent().get(`/api/pay/${l.linkToken}/receipt.pdf`)).statusCode).toBe(404);

    const verify = await parent().post(`/api/pay/${l.linkToken}/verify`, signed);
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({ status: 'paid', receiptNumber: 'ONL/2025-26/000001', amount: '1500.00', credit: '0.00', receiptUrl: `/api/pay/${l.linkToken}/receipt.pdf` });

    const [receipt] = await onlineReceipts();
    expect(receipt).toMatchObject({ receiptNumber: 'ONL/2025-26/000001', paymentMode: 'online', receivedBy: 'Online (Sandbox test payment)', totalPaise: 150000, transactionReference: signed.razorpay_payment_id });
    expect((await parent().get(`/api/pay/${l.linkToken}`)).json().paymentLink.status).toBe('paid');
    const listed = (await school.api.get(`/api/payment-links?studentId=${ishaan}&status=paid`)).json().links;
    expect(listed).toMatchObject([{ id: l.id, status: 'paid', receiptNumber: 'ONL/2025-26/000001' }]);
    const status = (await school.api.get(`/api/students/${ishaan}/fee-status`)).json();
    expect(status.account.months.find((m: { key: string }) => m.key === '2025-06').tuition.paid).toBe('1500.00');
    expect(status.credit).toBe('0.00');

    const pdf = await parent().get(`/api/pay/${l.linkToken}/receipt.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');

    // the same callback again (a refresh, a retry): the same receipt, nothing new
    const again = await parent().post(`/api/pay/${l.linkToken}/verify`, signed);
    expect(again.json().receiptNumber).toBe('ONL/2025-26/000001');
    expect(await onlineReceipts()).toHaveLength(1);
    // a paid link takes no new order
    const closed = await parent().post(`/api/pay/${l.linkToken}/order`);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error).toBe('This payment link is no longer active.');
  });

  it('webhook first, then the callback (and the other way round): one receipt each', async () => {
    const a = await link(school.api, { studentId: ishaan, feeType: 'exam' });
    const b = await link(school.api, { studentId: ishaan, feeType: 'books' });
    const key = await webhookKey(school.schoolId);
    const pa = await orderAndPay(a.linkToken);
    const pb = await orderAndPay(b.linkToken);

    const hookFirst = await webhook(key, school.schoolId, pa.signed.razorpay_order_id, pa.signed.razorpay_payment_id, 80000);
    expect(hookFirst.json()).toEqual({ ok: true, outcome: 'captured' });
    const thenCallback = await parent().post(`/api/pay/${a.linkToken}/verify`, pa.signed);
    expect(thenCallback.json()).toMatchObject({ status: 'paid', receiptNumber: 'ONL/2025-26/000002', amount: '800.00' });

    const callbackFirst = await parent().post(`/api/pay/${b.linkToken}/verify`, pb.signed);
    expect(callbackFirst.json().receiptNumber).toBe('ONL/2025-26/000003');
    const thenHook = await webhook(key, school.schoolId, pb.signed.razorpay_order_id, pb.signed.razorpay_payment_id, 250000);
    expect(thenHook.json()).toEqual({ ok: true, outcome: 'already-captured' });
    // both at once
    const c = await link(school.api, { studentId: ishaan, feeType: 'uniform' });
    const pc = await orderAndPay(c.linkToken);
    const both = await Promise.all([
      parent().post(`/api/pay/${c.linkToken}/verify`, pc.signed),
      webhook(key, school.schoolId, pc.signed.razorpay_order_id, pc.signed.razorpay_payment_id, 180000),
      parent().post(`/api/pay/${c.linkToken}/verify`, pc.signed),
    ]);
    expect(both[0]!.json().receiptNumber).toBe(both[2]!.json().receiptNumber);
    expect((await onlineReceipts()).map((r) => r.receiptNumber).sort()).toEqual([
      'ONL/2025-26/000001',
      'ONL/2025-26/000002',
      'ONL/2025-26/000003',
      'ONL/2025-26/000004',
    ]);
  });

  it('forged, replayed-elsewhere and cross-school signatures are refused and write nothing', async () => {
    const mine = await link(school.api, { studentId: ishaan, feeType: 'misc' });
    const theirs = await link(other.api, { studentId: otherStudent, feeType: 'misc' });
    const p = await orderAndPay(mine.linkToken);
    const before = (await onlineReceipts()).length;

    const forged = await parent().post(`/api/pay/${mine.linkToken}/verify`, { ...p.signed, razorpay_signature: 'f'.repeat(64) });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe('Payment verification failed. If money was deducted, the school will see it and contact you.');
    const otherPayment = await parent().post(`/api/pay/${mine.linkToken}/verify`, { ...p.signed, razorpay_payment_id: 'pay_sbx_someoneelse' });
    expect(otherPayment.statusCode).toBe(400);
    // a valid result of one link presented at another school's link
    const elsewhere = await parent().post(`/api/pay/${theirs.linkToken}/verify`, p.signed);
    expect(elsewhere.statusCode).toBe(400);
    // a webhook signed for this school sent to the other school's address, and one of the other school naming this order
    const otherKey = await webhookKey(other.schoolId);
    const wrongKey = await webhook(otherKey, school.schoolId, p.signed.razorpay_order_id, p.signed.razorpay_payment_id, 40000);
    expect(wrongKey.statusCode).toBe(400);
    expect(wrongKey.json().error).toBe('Invalid webhook signature');
    const wrongOrder = await webhook(otherKey, other.schoolId, p.signed.razorpay_order_id, p.signed.razorpay_payment_id, 40000);
    expect(wrongOrder.json()).toEqual({ ok: true, outcome: 'unknown-order' });
    const unsigned = await ctx.app.inject({ method: 'POST', url: `/api/pay/webhook/${await webhookKey(school.schoolId)}`, headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(unsigned.statusCode).toBe(400);
    const noSchool = await webhook('x'.repeat(32), school.schoolId, p.signed.razorpay_order_id, p.signed.razorpay_payment_id, 40000);
    expect(noSchool.statusCode).toBe(404);

    expect(await onlineReceipts()).toHaveLength(before);
    const [row] = await ctx.database.db.select().from(onlinePayments).where(eq(onlinePayments.orderId, p.signed.razorpay_order_id));
    expect(row!.status).toBe('pending');
    expect((await parent().post(`/api/pay/${mine.linkToken}/verify`, p.signed)).json().status).toBe('paid');
  });

  it('an expired or cancelled link takes no order, with the page texts', async () => {
    const l = await link(school.api, { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-10', expiresInDays: 1 });
    ctx.clock.advance(86_400_000 + 1000);
    try {
      const res = await parent().post(`/api/pay/${l.linkToken}/order`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('This payment link has expired. Please contact the school for a new payment link.');
    } finally {
      ctx.clock.advance(-(86_400_000 + 1000));
    }
    const c = await link(school.api, { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-11' });
    await school.api.post(`/api/payment-links/${c.id}/cancel`);
    expect((await parent().post(`/api/pay/${c.linkToken}/order`)).json().error).toBe('This payment link is no longer active.');
  });
});

describe('a fee collected at the counter meanwhile (ruling 27)', () => {
  it('the online money becomes credit, shown on Fee Status; applied to another fee or refunded with a reason', async () => {
    const l = await link(school.api, { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-07' });
    const p = await orderAndPay(l.linkToken);
    // the parent is paying on the phone while the clerk takes cash for July at the counter
    const counter = await school.api.post('/api/fees', { studentId: ishaan, fees: [{ type: 'monthly', amount: 1500, month: '2025-07' }], paymentMode: 'cash' });
    expect(counter.statusCode).toBe(201);
    const verify = await parent().post(`/api/pay/${l.linkToken}/verify`, p.signed);
    expect(verify.json()).toEqual({ status: 'paid', receiptNumber: null, amount: '1500.00', credit: '1500.00', receiptUrl: null });

    const status = (await school.api.get(`/api/students/${ishaan}/fee-status`)).json();
    expect(status.credit).toBe('1500.00');
    expect(status.account.months.find((m: { key: string }) => m.key === '2025-07').tuition.paid).toBe('1500.00');
    const credit = (await school.api.get(`/api/students/${ishaan}/credit`)).json();
    expect(credit.balance).toBe('1500.00');
    expect(credit.entries).toMatchObject([{ kind: 'online_excess', amount: '1500.00', receiptNumber: null, by: 'Online (Sandbox test payment)' }]);

    // more than the credit, or more than the fee has due, is refused
    const tooMuch = await school.api.post(`/api/students/${ishaan}/credit/apply`, { feeType: 'tuition', feeMonth: '2025-08', amount: '1500.01' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error).toBe('Ishaan Mir has only ₹1,500.00 of credit; ₹1,500.01 is more than that.');
    const paidFee = await school.api.post(`/api/students/${ishaan}/credit/apply`, { feeType: 'tuition', feeMonth: '2025-07', amount: '100' });
    expect(paidFee.statusCode).toBe(409);

    const applied = await school.api.post(`/api/students/${ishaan}/credit/apply`, { feeType: 'bus', feeMonth: '2025-08', amount: '600' });
    expect(applied.statusCode).toBe(201);
    const receipt = (await school.api.get(`/api/receipts/${applied.json().receiptId}`)).json().receipt;
    expect(receipt).toMatchObject({ receiptNumber: applied.json().receiptNumber, paymentMode: 'credit', total: '600.00' });

    const noReason = await school.api.post(`/api/students/${ishaan}/credit/refund`, { amount: '900', mode: 'cash', reason: '' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe('Enter the reason for the refund');
    const refund = await school.api.post(`/api/students/${ishaan}/credit/refund`, { amount: '900', mode: 'upi', reason: 'Paid twice, returned to the father' });
    expect(refund.statusCode).toBe(201);
    expect(refund.json()).toMatchObject({ kind: 'refund', amount: '-900.00', reason: 'Paid twice, returned to the father', mode: 'upi' });
    const after = (await school.api.get(`/api/students/${ishaan}/credit`)).json();
    expect(after.balance).toBe('0.00');
    expect(after.entries.map((e: { kind: string; amount: string }) => [e.kind, e.amount])).toEqual([
      ['online_excess', '1500.00'],
      ['applied', '-600.00'],
      ['refund', '-900.00'],
    ]);
    expect((await school.api.post(`/api/students/${ishaan}/credit/refund`, { amount: '1', mode: 'cash', reason: 'again' })).json().error).toBe('Ishaan Mir has no credit.');
    // another school sees none of it
    expect((await other.api.get(`/api/students/${ishaan}/credit`)).statusCode).toBe(404);
  });

  it('a counter payment at the same moment as the callback: July is received once, the rest is credit', async () => {
    const l = await link(school.api, { studentId: ishaan, feeType: 'tuition', feeMonth: '2025-09' });
    const p = await orderAndPay(l.linkToken);
    const creditBefore = Number((await school.api.get(`/api/students/${ishaan}/credit`)).json().balance);
    const [counter, verify] = await Promise.all([
      school.api.post('/api/fees', { studentId: ishaan, fees: [{ type: 'monthly', amount: 1500, month: '2025-09' }], paymentMode: 'cash' }),
      parent().post(`/api/pay/${l.linkToken}/verify`, p.signed),
    ]);
    expect(verify.statusCode).toBe(200);
    const status = (await school.api.get(`/api/students/${ishaan}/fee-status`)).json();
    expect(status.account.months.find((m: { key: string }) => m.key === '2025-09').tuition.paid).toBe('1500.00');
    const credit = Number(status.credit) - creditBefore;
    if (counter.statusCode === 201) {
      // the counter came first: the online money is all credit
      expect(verify.json()).toMatchObject({ receiptNumber: null, credit: '1500.00' });
      expect(credit).toBe(1500);
    } else {
      // the callback came first: the counter is refused (ruling 26) and nothing is credit
      expect(counter.statusCode).toBe(409);
      expect(verify.json().credit).toBe('0.00');
      expect(credit).toBe(0);
    }
  });

  it('an outstanding link paid after part was collected: receipt for what is still due, the rest credit', async () => {
    const l = await link(school.api, { studentId: ishaan, feeType: 'outstanding' });
    const p = await orderAndPay(l.linkToken);
    const creditBefore = Number((await school.api.get(`/api/students/${ishaan}/credit`)).json().balance);
    const counter = await school.api.post('/api/fees', { studentId: ishaan, fees: [{ type: 'monthly', amount: 1500, month: '2025-05' }] });
    expect(counter.statusCode).toBe(201);
    const verify = (await parent().post(`/api/pay/${l.linkToken}/verify`, p.signed)).json();
    expect(verify).toMatchObject({ status: 'paid', amount: l.amount, credit: '1500.00' });
    expect(verify.receiptNumber).toMatch(/^ONL\/2025-26\/\d{6}$/);
    const status = (await school.api.get(`/api/students/${ishaan}/fee-status`)).json();
    expect(status.ledger.outstandingTillDate).toBe('0.00');
    expect(Number(status.credit) - creditBefore).toBe(1500);
    // the receipt says so (ruling 27: credit shown on receipts)
    const onl = status.receipts.find((r: { receiptNumber: string }) => r.receiptNumber === verify.receiptNumber);
    const doc = (await school.api.get(`/api/receipts/${onl.id}`)).json();
    expect(doc.creditKept).toBe('1500.00');
    expect(doc.receipt.total).toBe((Number(l.amount) - 1500).toFixed(2));
    expect((await parent().get(`/api/pay/${l.linkToken}/receipt.pdf`)).statusCode).toBe(200);
  });

  it('one link paid from two tabs: the link keeps the receipt of the first payment, the second is credit', async () => {
    const l = await link(school.api, { studentId: ishaan, feeType: 'tuition', feeMonth: '2026-01' });
    const creditBefore = Number((await school.api.get(`/api/students/${ishaan}/credit`)).json().balance);
    // both tabs open the checkout before either pays
    const first = await orderAndPay(l.linkToken);
    const second = await orderAndPay(l.linkToken);
    const paid = (await parent().post(`/api/pay/${l.linkToken}/verify`, first.signed)).json();
    expect(paid).toMatchObject({ status: 'paid', amount: '1500.00', credit: '0.00', receiptUrl: `/api/pay/${l.linkToken}/receipt.pdf` });
    const again = (await parent().post(`/api/pay/${l.linkToken}/verify`, second.signed)).json();
    expect(again).toMatchObject({ status: 'paid', credit: '1500.00', receiptNumber: null });

    // the first answer's receipt link still gives the receipt, and the office sees its number on the link
    expect((await parent().get(paid.receiptUrl)).statusCode).toBe(200);
    expect((await parent().get(`/api/pay/${l.linkToken}`)).json().paymentLink).toMatchObject({ status: 'paid' });
    const listed = (await school.api.get(`/api/payment-links?studentId=${ishaan}&status=paid`)).json().links;
    expect(listed.find((x: { id: string }) => x.id === l.id)).toMatchObject({ status: 'paid', receiptNumber: paid.receiptNumber });
    const status = (await school.api.get(`/api/students/${ishaan}/fee-status`)).json();
    expect(status.account.months.find((m: { key: string }) => m.key === '2026-01').tuition.paid).toBe('1500.00');
    expect(Number(status.credit) - creditBefore).toBe(1500);
  });
});

describe('tenancy, route by route', () => {
  it("another school reaches none of this school's links, credit, UPI payments or online payments", async () => {
    const l = await link(school.api, { studentId: ishaan, feeType: 'tuition', feeMonth: '2026-02', amount: '100' });
    const day = '2025-11-15';
    expect((await other.api.get(`/api/payment-links?studentId=${ishaan}`)).json().links).toEqual([]);
    expect((await other.api.post(`/api/payment-links/${l.id}/cancel`)).statusCode).toBe(404);
    expect((await other.api.post('/api/payment-links', { studentId: ishaan, feeType: 'outstanding' })).statusCode).toBe(404);
    const bulk = (await other.api.post('/api/payment-links/bulk', { studentIds: [ishaan] })).json();
    expect(bulk).toEqual({ created: [], skipped: [{ studentId: ishaan, studentName: '', reason: 'Student not found' }] });
    expect((await other.api.get(`/api/students/${ishaan}/credit`)).statusCode).toBe(404);
    expect((await other.api.post(`/api/students/${ishaan}/credit/apply`, { feeType: 'exam', amount: '1' })).statusCode).toBe(404);
    expect((await other.api.post(`/api/students/${ishaan}/credit/refund`, { amount: '1', mode: 'cash', reason: 'not mine' })).statusCode).toBe(404);
    expect((await other.api.get(`/api/online-payments?date=${day}`)).json().payments).toEqual([]);
    expect((await school.api.get(`/api/online-payments?date=${day}`)).json().payments.length).toBeGreaterThan(0);
    expect((await other.api.get('/api/upi-confirmations')).json().items).toEqual([]);
    expect((await other.api.post('/api/upi-confirmations/00000000-0000-4000-8000-000000000000/reject', { reason: 'none' })).statusCode).toBe(404);
    // the public calls take the school from the link alone
    expect((await parent().get(`/api/pay/${l.linkToken}`)).json().school.name).toBe('Green Valley School');
  });
});
