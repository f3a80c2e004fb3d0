import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { RazorpayProvider, signPayment } from '../payments/provider';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

/**
 * A school's own Razorpay keys (issue 13 items 1 and 4) against a local fake of Razorpay's orders
 * API: no network here. The fake answers as told: an order, a 5xx, bad JSON or nothing at all.
 */

type Mode = 'ok' | '500' | 'bad-json' | 'hang' | 'wrong-amount';
let mode: Mode = 'ok';
const seen: Array<{ auth: string | undefined; body: Record<string, unknown> }> = [];
let fake: Server;
let fakeUrl: string;
let orders = 0;

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let ishaan: string;
const KEY_ID = 'rzp_test_School123';
const KEY_SECRET = 'school-own-secret-999';

beforeAll(async () => {
  fake = createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/orders') return res.writeHead(404).end('{}');
    const json = JSON.parse(body) as Record<string, unknown>;
    seen.push({ auth: req.headers.authorization, body: json });
    if (mode === 'hang') return; // never answers
    if (mode === '500') return res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"description":"down"}}');
    if (mode === 'bad-json') return res.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops');
    orders += 1;
    const amount = mode === 'wrong-amount' ? Number(json.amount) + 100 : json.amount;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `order_fake${orders}`, amount, currency: 'INR', status: 'created' }));
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;

  // the platform runs Razorpay (no sandbox): a school without keys has no gateway
  ctx = await createTestApp({
    now: new Date('2025-11-15T06:00:00.000Z'),
    env: { RAZORPAY_KEY_ID: 'rzp_test_Platform1', RAZORPAY_KEY_SECRET: 'platform-secret-123', RAZORPAY_API_URL: fakeUrl },
  });
  school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  ishaan = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name: 'Ishaan Mir', className: 'Class 5' })).id;
});
afterAll(async () => {
  await ctx.close();
  fake.closeAllConnections();
  await new Promise((resolve) => fake.close(resolve));
});

const link = async (feeType: string, feeMonth?: string) =>
  (await school.api.post('/api/payment-links', { studentId: ishaan, feeType, feeMonth })).json() as { id: string; linkToken: string };

describe("a school's own Razorpay keys", () => {
  it('without keys or UPI, nothing collects online: no gateway, no order', async () => {
    expect((await school.api.get('/api/settings/payments')).json().collectsThrough).toBe('none');
    const l = await link('exam');
    expect((await client(ctx.app).get(`/api/pay/${l.linkToken}/methods`)).json()).toEqual({ gateway: null, upi: null });
    const order = await client(ctx.app).post(`/api/pay/${l.linkToken}/order`);
    expect(order.statusCode).toBe(409);
    expect(order.json().error).toBe('This school takes online payments by UPI only: pay with the QR code or the UPI app link.');
    // no sandbox checkout on a server that runs Razorpay
    expect((await client(ctx.app).post(`/api/pay/${l.linkToken}/sandbox-checkout`, { orderId: 'x' })).statusCode).toBe(404);
  });

  it("orders go to Razorpay with the school's own key; the checkout's signature is checked with its secret", async () => {
    await school.api.put('/api/settings/payments', { razorpayKeyId: KEY_ID, razorpayKeySecret: KEY_SECRET });
    const l = await link('tuition', '2025-04');
    mode = 'ok';
    const order = await client(ctx.app).post(`/api/pay/${l.linkToken}/order`);
    expect(order.statusCode).toBe(200);
    expect(order.json()).toMatchObject({ orderId: 'order_fake1', amount: '1500.00', amountPaise: 150000, keyId: KEY_ID, provider: 'razorpay' });
    const last = seen.at(-1)!;
    expect(last.auth).toBe(`Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`);
    expect(last.body).toMatchObject({ amount: 150000, currency: 'INR' });

    // signed with the platform's secret (another account): refused
    const platformSigned = signPayment('platform-secret-123', 'order_fake1', 'pay_real1');
    expect((await client(ctx.app).post(`/api/pay/${l.linkToken}/verify`, { razorpay_order_id: 'order_fake1', razorpay_payment_id: 'pay_real1', razorpay_signature: platformSigned })).statusCode).toBe(400);
    const verify = await client(ctx.app).post(`/api/pay/${l.linkToken}/verify`, {
      razorpay_order_id: 'order_fake1',
      razorpay_payment_id: 'pay_real1',
      razorpay_signature: signPayment(KEY_SECRET, 'order_fake1', 'pay_real1'),
    });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toMatchObject({ status: 'paid', receiptNumber: 'ONL/2025-26/000001', amount: '1500.00', credit: '0.00' });
    const receipt = (await school.api.get(`/api/students/${ishaan}/fee-status`)).json().receipts[0];
    expect(receipt).toMatchObject({ receivedBy: 'Online (Razorpay)', paymentMode: 'online', transactionReference: 'pay_real1' });
  });

  it('a failing gateway (5xx, not JSON, another amount) answers 502 with a message and leaves no order behind', async () => {
    const l = await link('tuition', '2025-05');
    for (const m of ['500', 'bad-json', 'wrong-amount'] as const) {
      mode = m;
      const res = await client(ctx.app).post(`/api/pay/${l.linkToken}/order`);
      expect(res.statusCode, m).toBe(502);
      expect(res.json().error).toBe('The payment gateway could not start the payment. Please try again in a minute.');
    }
    mode = 'ok';
  });
});

describe('the Razorpay adapter', () => {
  it('gives up on a gateway that does not answer in time', async () => {
    mode = 'hang';
    const provider = new RazorpayProvider(KEY_ID, KEY_SECRET, undefined, fetch, { baseUrl: fakeUrl, timeoutMs: 300 });
    const started = Date.now();
    await expect(provider.createOrder({ amountPaise: 10000, receipt: 'r1', notes: {} })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3000);
    mode = 'ok';
  });

  it('checks webhook signatures with the webhook secret only', () => {
    const provider = new RazorpayProvider(KEY_ID, KEY_SECRET, 'hook-secret-1', fetch, { baseUrl: fakeUrl });
    const body = '{"event":"payment.captured"}';
    const sign = (secret: string) => createHmac('sha256', secret).update(body).digest('hex');
    expect(provider.verifyWebhook(body, sign('hook-secret-1'))).toBe(true);
    expect(provider.verifyWebhook(body, sign(KEY_SECRET))).toBe(false);
    expect(provider.verifyWebhook(`${body} `, sign('hook-secret-1'))).toBe(false);
    const noSecret = new RazorpayProvider(KEY_ID, KEY_SECRET, undefined, fetch, { baseUrl: fakeUrl });
    expect(noSecret.verifyWebhook(body, 'anything')).toBe(false);
  });
});
