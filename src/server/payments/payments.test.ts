import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCache } from '../auth/session-cache';
import { schools } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { RazorpayProvider, SandboxProvider, signPayment } from './provider';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const sandbox = () => ctx.app.deps.payments as SandboxProvider;

describe('subscription payments through the sandbox provider', () => {
  it('prices from the catalogue: 50% off the first subscription, then 18% GST, whatever the browser sent', async () => {
    const school = await signUpSchool(ctx);
    const order = await school.api.post('/api/payments/create-subscription-order', { planType: 'standard', billingCycle: 'yearly', amount: 100 });
    expect(order.statusCode).toBe(200);
    expect(order.json()).toMatchObject({
      amount: 354_000,
      currency: 'INR',
      keyId: 'sandbox',
      provider: 'sandbox',
      testMode: true,
      change: { kind: 'start', startDate: ctx.clock.now().toISOString() },
      planName: 'Standard',
      description: 'Standard Plan Subscription',
      price: { base: '6000.00', discount: '3000.00', credit: '0.00', gst: '540.00', total: '3540.00', undiscountedTotal: '7080.00' },
    });
    const monthly = await school.api.post('/api/payments/create-subscription-order', { planType: 'basic-monthly' });
    expect(monthly.json()).toMatchObject({ billingCycle: 'monthly', amount: 14_750, price: { total: '147.50' } });
  });

  it('activates the plan once for a verified payment and extends it on renewal at full price', async () => {
    const school = await signUpSchool(ctx);
    const order = (await school.api.post('/api/payments/create-subscription-order', { planType: 'premium', billingCycle: 'yearly' })).json();
    const paid = (await school.api.post('/api/payments/sandbox/checkout', { orderId: order.orderId })).json();
    const verify = await school.api.post('/api/payments/verify-subscription', { ...paid, planType: 'premium' });
    expect(verify.statusCode).toBe(200);
    const activatedAt = ctx.clock.now();
    const yearLater = new Date(activatedAt);
    yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
    expect(verify.json().school).toMatchObject({
      subscriptionPlan: 'premium',
      subscriptionStatus: 'active',
      planEndDate: yearLater.toISOString(),
      hasPaidSubscription: true,
    });

    // the same callback again (a retry) changes nothing
    const again = await school.api.post('/api/payments/verify-subscription', { ...paid, planType: 'premium' });
    expect(again.json().school.planEndDate).toBe(yearLater.toISOString());

    const renewal = (await school.api.post('/api/payments/create-subscription-order', { planType: 'premium', billingCycle: 'yearly' })).json();
    expect(renewal.price).toMatchObject({ discount: '0.00', total: '14160.00' });
    const renewed = (await school.api.post('/api/payments/sandbox/checkout', { orderId: renewal.orderId })).json();
    const twoYears = new Date(yearLater);
    twoYears.setUTCFullYear(twoYears.getUTCFullYear() + 1);
    expect((await school.api.post('/api/payments/verify-subscription', renewed)).json().school.planEndDate).toBe(twoYears.toISOString());
  });

  it('refuses a tampered signature and writes nothing', async () => {
    const school = await signUpSchool(ctx);
    const order = (await school.api.post('/api/payments/create-subscription-order', { planType: 'basic' })).json();
    const paid = (await school.api.post('/api/payments/sandbox/checkout', { orderId: order.orderId })).json();
    const res = await school.api.post('/api/payments/verify-subscription', { ...paid, razorpay_signature: paid.razorpay_signature.replace(/^./, (c: string) => (c === 'a' ? 'b' : 'a')) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Payment verification failed. Please contact support if payment was deducted.');
    expect((await school.api.get('/api/trial-status')).json().status).toBe('trial');
  });

  it('records a payment once when the webhook and the browser callback both arrive', async () => {
    const school = await signUpSchool(ctx);
    const order = (await school.api.post('/api/payments/create-subscription-order', { planType: 'standard' })).json();
    const paid = (await school.api.post('/api/payments/sandbox/checkout', { orderId: order.orderId })).json();
    const body = JSON.stringify({ event: 'payment.captured', payload: { payment: { entity: { id: paid.razorpay_payment_id, order_id: order.orderId } } } });
    const hook = (signature: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/payments/webhook', headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature }, payload: body });
    expect((await hook('bad')).statusCode).toBe(400);
    const first = await hook(sandbox().webhookSignature(body));
    expect(first.json()).toEqual({ ok: true, outcome: 'activated' });
    const end = (await school.api.get('/api/trial-status')).json().planEndDate;
    expect((await school.api.post('/api/payments/verify-subscription', paid)).statusCode).toBe(200);
    expect((await hook(sandbox().webhookSignature(body))).json().outcome).toBe('already-paid');
    expect((await school.api.get('/api/trial-status')).json()).toMatchObject({ status: 'active', planEndDate: end });
  });

  it('lets a school whose trial ended pay from its read-only session, and then write again', async () => {
    const school = await signUpSchool(ctx);
    ctx.clock.advanceDays(6);
    try {
      const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
      expect(login.statusCode).toBe(200);
      expect(login.json()).toMatchObject({ requiresPayment: true, schoolId: school.schoolId, school: { isExpired: true, hasPaidSubscription: false } });
      const api = client(ctx.app, login.json().token);
      const info = { name: 'Paid Up School', phone: '', address: '', schoolCode: 'PAID1' };
      expect((await api.put('/api/schools/update-info', info)).statusCode).toBe(402);
      const order = (await api.post('/api/payments/create-subscription-order', { planType: 'basic', billingCycle: 'monthly' })).json();
      expect(order.price).toMatchObject({ discount: '125.00', total: '147.50' }); // the first-time discount
      const paid = (await api.post('/api/payments/sandbox/checkout', { orderId: order.orderId })).json();
      expect((await api.post('/api/payments/verify-subscription', paid)).statusCode).toBe(200);
      // the same session may write at once
      const write = await api.put('/api/schools/update-info', info);
      expect(write.statusCode).toBe(200);
      expect(write.json().school.name).toBe('Paid Up School');
    } finally {
      ctx.clock.advanceDays(-6);
    }
  });

  it('lets a signed-in office write again the moment its renewal is paid, on the same session', async () => {
    const school = await signUpSchool(ctx);
    const info = { name: 'Renewed School', phone: '', address: '', schoolCode: 'RENEW1' };
    expect((await school.api.put('/api/schools/update-info', info)).statusCode).toBe(200);
    // the trial ends while the office is signed in (written directly: the remembered check is told)
    await ctx.database.db.update(schools).set({ trialEndsAt: new Date(ctx.clock.now().getTime() - 60_000) }).where(eq(schools.id, school.schoolId));
    sessionCache.forgetSchool(school.schoolId);
    expect((await school.api.put('/api/schools/update-info', info)).statusCode).toBe(402);
    const order = (await school.api.post('/api/payments/create-subscription-order', { planType: 'basic', billingCycle: 'monthly' })).json();
    const paid = (await school.api.post('/api/payments/sandbox/checkout', { orderId: order.orderId })).json();
    expect((await school.api.post('/api/payments/verify-subscription', paid)).statusCode).toBe(200);
    const write = await school.api.put('/api/schools/update-info', info);
    expect(write.statusCode).toBe(200);
    expect(write.json().school.name).toBe('Renewed School');
  });

  it("never lets one school verify or pay another school's order", async () => {
    const a = await signUpSchool(ctx);
    const b = await signUpSchool(ctx);
    const order = (await a.api.post('/api/payments/create-subscription-order', { planType: 'basic' })).json();
    expect((await b.api.post('/api/payments/sandbox/checkout', { orderId: order.orderId })).statusCode).toBe(404);
    const paid = sandbox().pay(order.orderId);
    const res = await b.api.post('/api/payments/verify-subscription', paid);
    expect(res.statusCode).toBe(404);
    expect((await b.api.get('/api/trial-status')).json().status).toBe('trial');
    expect((await a.api.get('/api/trial-status')).json().status).toBe('trial');
  });

  it('rejects an unknown plan', async () => {
    const school = await signUpSchool(ctx);
    const res = await school.api.post('/api/payments/create-subscription-order', { planType: 'gold' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Choose a valid plan: basic, standard or premium');
  });
});

describe('the Razorpay provider', () => {
  it('creates orders through the Orders API and checks signatures with the key secret', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ id: 'order_Rz123', amount: 354000, currency: 'INR' }), { status: 200 });
    }) as typeof fetch;
    const provider = new RazorpayProvider('rzp_test_abc', 'secret_xyz', 'hook_secret', fakeFetch);
    const order = await provider.createOrder({ amountPaise: 354_000, receipt: 'r1', notes: {} });
    expect(order).toEqual({ id: 'order_Rz123', amount: 354000, currency: 'INR' });
    expect(calls[0]!.url).toBe('https://api.razorpay.com/v1/orders');
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe(`Basic ${Buffer.from('rzp_test_abc:secret_xyz').toString('base64')}`);
    expect(JSON.parse(String(calls[0]!.init.body))).toMatchObject({ amount: 354000, currency: 'INR' });
    expect(provider.verifyPayment('order_Rz123', 'pay_1', signPayment('secret_xyz', 'order_Rz123', 'pay_1'))).toBe(true);
    expect(provider.verifyPayment('order_Rz123', 'pay_1', signPayment('other', 'order_Rz123', 'pay_1'))).toBe(false);
  });

  it('production without Razorpay keys silently used the sandbox: with Razorpay configured the sandbox checkout is an unknown route (404) and nothing says test mode', async () => {
    const live = await createTestApp({ env: { RAZORPAY_KEY_ID: 'rzp_test_abc123', RAZORPAY_KEY_SECRET: 'secret_xyz_123' } });
    try {
      const school = await signUpSchool(live);
      const res = await school.api.post('/api/payments/sandbox/checkout', { orderId: 'order_anything' });
      expect(res.statusCode).toBe(404);
      expect((await client(live.app).post('/api/payments/sandbox/checkout', { orderId: 'x' })).statusCode).toBe(404);
      expect((await school.api.get('/api/payments/subscription-quotes')).json()).toMatchObject({ provider: 'razorpay', testMode: false });
    } finally {
      await live.close();
    }
    // the sandbox says so wherever it is active
    const school = await signUpSchool(ctx);
    expect((await school.api.get('/api/payments/subscription-quotes')).json()).toMatchObject({ provider: 'sandbox', testMode: true });
  });
});
