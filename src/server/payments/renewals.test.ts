import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools, subscriptionPayments } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { QUOTE_NO_LONGER_HOLDS } from './messages';
import type { SandboxProvider } from './provider';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

type School = Awaited<ReturnType<typeof signUpSchool>>;
type Api = School['api'];

/** Sessions last a day: after moving the clock the office signs in again. */
async function signIn(school: School): Promise<Api> {
  const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
  return client(ctx.app, login.json().token);
}

/** Orders, pays in the sandbox and verifies; returns the three answers. */
async function buy(api: Api, planType: string, billingCycle: 'monthly' | 'yearly') {
  const order = await api.post('/api/payments/create-subscription-order', { planType, billingCycle });
  if (order.statusCode !== 200) return { order, paid: null, verify: null };
  const paid = await api.post('/api/payments/sandbox/checkout', { orderId: order.json().orderId });
  const verify = await api.post('/api/payments/verify-subscription', paid.json());
  return { order, paid, verify };
}

describe('renewals never take away what was paid (ruling 28)', () => {
  it('buying Basic monthly during a paid Premium year keeps Premium and queues Basic from its end', async () => {
    const school = await signUpSchool(ctx);
    const start = ctx.clock.now();
    expect((await buy(school.api, 'premium', 'yearly')).verify!.statusCode).toBe(200);
    const premiumEnd = new Date(start);
    premiumEnd.setUTCFullYear(premiumEnd.getUTCFullYear() + 1);

    const basic = await buy(school.api, 'basic', 'monthly');
    expect(basic.order.json()).toMatchObject({ change: { kind: 'queue', startDate: premiumEnd.toISOString() }, price: { discount: '0.00', total: '295.00' } });
    const after = basic.verify!.json().school;
    expect(after).toMatchObject({ subscriptionPlan: 'premium', planEndDate: premiumEnd.toISOString() });
    expect(after.queuedPlan).toMatchObject({ plan: 'basic', startDate: premiumEnd.toISOString() });

    expect((await school.api.get('/api/auth/me')).json().school.subscriptionPlan).toBe('premium');

    // on the day Premium ends, Basic takes over by itself, and the school is still paid up
    ctx.clock.set(new Date(premiumEnd.getTime() + 60_000));
    try {
      const api = await signIn(school);
      const me = (await api.get('/api/auth/me')).json().school;
      expect(me).toMatchObject({ subscriptionPlan: 'basic', isExpired: false, queuedPlan: null });
      const [row] = await ctx.database.db.select().from(schools).where(eq(schools.id, school.schoolId));
      expect(row!.subscriptionPlan).toBe('basic'); // written, so the student limit query sees it too
    } finally {
      ctx.clock.set(start);
    }
  });

  it('a higher plan starts now with the unused days of the paid plan credited in whole paise', async () => {
    const school = await signUpSchool(ctx);
    const start = ctx.clock.now();
    // Standard yearly, first-time discount: worth ₹3,000 over 365 days
    expect((await buy(school.api, 'standard', 'yearly')).verify!.statusCode).toBe(200);
    ctx.clock.advanceDays(65);
    try {
      const api = await signIn(school);
      const upgrade = await buy(api, 'premium', 'yearly');
      // 300 unused days of 365: 300 × 300,000 / 365 = 246,575.3 → 246,575 paise
      expect(upgrade.order.json()).toMatchObject({
        change: { kind: 'upgrade', startDate: ctx.clock.now().toISOString() },
        price: { base: '12000.00', discount: '0.00', credit: '2465.75', gst: '1716.17', total: '11250.42' },
        amount: 1_125_042,
      });
      expect(upgrade.verify!.json().school).toMatchObject({ subscriptionPlan: 'premium', planStartDate: ctx.clock.now().toISOString() });
      // a lower plan bought now waits for the Premium year to end
      const lower = await api.post('/api/payments/create-subscription-order', { planType: 'standard', billingCycle: 'monthly' });
      expect(lower.json().change).toMatchObject({ kind: 'queue', startDate: upgrade.verify!.json().school.planEndDate });
    } finally {
      ctx.clock.set(start);
    }
  });

  it('a higher plan on a shorter cycle that would end before the paid plan is refused, not cut short', async () => {
    const school = await signUpSchool(ctx);
    expect((await buy(school.api, 'basic', 'yearly')).verify!.statusCode).toBe(200);
    const res = await school.api.post('/api/payments/create-subscription-order', { planType: 'premium', billingCycle: 'monthly' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('This plan would end before the plan you have already paid for. Choose the yearly cycle for the higher plan, or renew your current plan.');
    const quotes = (await school.api.get('/api/payments/subscription-quotes?billingCycle=monthly')).json();
    expect(quotes.quotes.find((q: { planId: string }) => q.planId === 'premium')).toMatchObject({ price: null, refused: res.json().error });
    expect(quotes.quotes.find((q: { planId: string }) => q.planId === 'basic')).toMatchObject({ change: { kind: 'extend' }, price: { total: '295.00' } });
  });

  it('three parallel discounted Premium orders: only one is captured with the discount, and three years cost ₹35,400', async () => {
    const school = await signUpSchool(ctx);
    const orders = await Promise.all([1, 2, 3].map(() => school.api.post('/api/payments/create-subscription-order', { planType: 'premium', billingCycle: 'yearly' })));
    // each was quoted before any payment: each shows the first-time price
    for (const o of orders) expect(o.json().price).toMatchObject({ discount: '6000.00', total: '7080.00' });
    const paid = await Promise.all(orders.map((o) => school.api.post('/api/payments/sandbox/checkout', { orderId: o.json().orderId })));
    const verified = await Promise.all(paid.map((p) => school.api.post('/api/payments/verify-subscription', p.json())));
    const codes = verified.map((v) => v.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    for (const v of verified.filter((r) => r.statusCode === 409)) expect(v.json().error).toBe(QUOTE_NO_LONGER_HOLDS);

    // the sandbox never "charges" a stale discounted order again
    const again = await school.api.post('/api/payments/sandbox/checkout', { orderId: orders[0]!.json().orderId });
    expect(again.statusCode).toBe(409);

    // two more years at the catalogue price
    for (let i = 0; i < 2; i++) {
      const more = await buy(school.api, 'premium', 'yearly');
      expect(more.order.json().price).toMatchObject({ discount: '0.00', total: '14160.00' });
      expect(more.verify!.statusCode).toBe(200);
    }
    const rows = await ctx.database.db.select().from(subscriptionPayments).where(eq(subscriptionPayments.schoolId, school.schoolId));
    const captured = rows.filter((r) => r.status === 'paid');
    expect(captured.filter((r) => r.discountPaise > 0)).toHaveLength(1);
    expect(captured.reduce((sum, r) => sum + r.amountPaise, 0)).toBe(3_540_000); // ₹7,080 + 2 × ₹14,160 = ₹35,400
    expect(rows.filter((r) => r.status === 'refused')).toHaveLength(2);
    const threeYears = new Date(ctx.clock.now());
    threeYears.setUTCFullYear(threeYears.getUTCFullYear() + 3);
    expect((await school.api.get('/api/auth/me')).json().school.planEndDate).toBe(threeYears.toISOString());
  });

  it('a webhook for an order whose quote no longer holds is acknowledged as refused and changes nothing', async () => {
    const school = await signUpSchool(ctx);
    const [a, b] = await Promise.all([1, 2].map(() => school.api.post('/api/payments/create-subscription-order', { planType: 'standard', billingCycle: 'yearly' })));
    const paidA = (await school.api.post('/api/payments/sandbox/checkout', { orderId: a!.json().orderId })).json();
    expect((await school.api.post('/api/payments/verify-subscription', paidA)).statusCode).toBe(200);
    const end = (await school.api.get('/api/auth/me')).json().school.planEndDate;
    const sandbox = ctx.app.deps.payments as SandboxProvider;
    const paidB = sandbox.pay(b!.json().orderId);
    const body = JSON.stringify({ event: 'payment.captured', payload: { payment: { entity: { id: paidB.razorpay_payment_id, order_id: paidB.razorpay_order_id } } } });
    const hook = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': sandbox.webhookSignature(body) },
      payload: body,
    });
    expect(hook.json()).toEqual({ ok: true, outcome: 'refused' });
    expect((await school.api.get('/api/auth/me')).json().school.planEndDate).toBe(end);
  });
});
