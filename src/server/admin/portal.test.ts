import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { migrationsFolder } from '../db/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMasterAdmin } from '../auth/master-admin';
import type { SandboxProvider } from '../payments/provider';
import { auditLog } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
let master: ReturnType<typeof client>;
const MASTER = { email: 'master@ledger.test', password: 'MasterPass123' };

beforeAll(async () => {
  // Sunday 22 November 2026, 11:30 in India
  ctx = await createTestApp({ now: new Date('2026-11-22T06:00:00.000Z') });
  await ensureMasterAdmin(ctx.database.db, { ...MASTER, now: ctx.clock.now() });
  master = client(ctx.app, (await client(ctx.app).post('/api/auth/admin-login', MASTER)).json().token);
});
afterAll(() => ctx.close());

async function payFor(school: Awaited<ReturnType<typeof signUpSchool>>, planType: string, billingCycle: 'monthly' | 'yearly') {
  const order = (await school.api.post('/api/payments/create-subscription-order', { planType, billingCycle })).json();
  const paid = (await school.api.post('/api/payments/sandbox/checkout', { orderId: order.orderId })).json();
  const verify = await school.api.post('/api/payments/verify-subscription', { ...paid, planType });
  expect(verify.statusCode).toBe(200);
  return paid as { razorpay_order_id: string; razorpay_payment_id: string };
}

const GETS = [
  '/api/stats/system',
  '/api/admin/system-health',
  '/api/admin/system',
  '/api/admin/analytics',
  '/api/admin/security/sign-ins',
  '/api/admin/security/sessions',
  '/api/admin/security/locks',
  '/api/admin/audit-log',
  '/api/admin/audit-log/actions',
  '/api/admin/totp',
];

describe('the portal endpoints are the master administrator’s', () => {
  it('answer 403 to a school administrator and 401 without a session, for every read and write', async () => {
    const school = await signUpSchool(ctx);
    for (const url of [...GETS, `/api/admin/schools/${school.schoolId}`]) {
      expect((await school.api.get(url)).statusCode, url).toBe(403);
      expect((await client(ctx.app).get(url)).statusCode, url).toBe(401);
    }
    const writes = [
      ['/api/admin/security/sessions/00000000-0000-4000-8000-000000000000/revoke', { reason: 'testing' }],
      ['/api/admin/security/locks/unlock', { key: 'signin-ip:1.2.3.4', reason: 'testing' }],
      ['/api/admin/totp/enrol', {}],
      ['/api/admin/totp/confirm', { code: '123456' }],
      ['/api/admin/totp/disable', { code: '123456', reason: 'testing' }],
    ] as const;
    for (const [url, body] of writes) expect((await school.api.post(url, body)).statusCode, url).toBe(403);
  });
});

describe('overview counts, health and the System tab', () => {
  it('counts schools by state, users and students', async () => {
    const before = (await master.get('/api/stats/system')).json();
    const trial = await signUpSchool(ctx);
    const paid = await signUpSchool(ctx);
    await payFor(paid, 'standard', 'yearly');
    const after = (await master.get('/api/stats/system')).json();
    expect(after.totalSchools - before.totalSchools).toBe(2);
    expect(after.trialSchools - before.trialSchools).toBe(1);
    expect(after.activeSchools - before.activeSchools).toBe(1);
    expect(after.totalUsers - before.totalUsers).toBe(2);
    expect(trial.schoolId).not.toBe(paid.schoolId);
  });

  it('the health card and the System tab read the real database, outbox, provider, disk and process', async () => {
    const health = (await master.get('/api/admin/system-health')).json();
    expect(health).toMatchObject({
      database: { status: 'ok' },
      api: { status: 'ok', serverErrorsLastHour: 0 },
      // the master has not turned on two-step sign-in: the card says so
      authentication: { status: 'warning', twoStepSignIn: false, lockedCount: 0 },
      payments: { status: 'ok', mode: 'sandbox' },
    });
    expect(health.database.latencyMs).toBeGreaterThanOrEqual(0);

    // a webhook with a bad signature is noted, and shows as the last webhook
    const hook = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'nonsense' },
      payload: JSON.stringify({ event: 'payment.captured' }),
    });
    expect(hook.statusCode).toBe(400);
    ctx.app.serverErrors.record(ctx.clock.now());

    const system = (await master.get('/api/admin/system')).json();
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')).entries as Array<{ tag: string }>;
    expect(system.database).toMatchObject({
      status: 'ok',
      kind: ctx.database.kind,
      migration: journal.at(-1)!.tag,
      migrationsApplied: journal.length,
      migrationsKnown: journal.length,
    });
    expect(system.payments).toMatchObject({
      provider: 'sandbox',
      mode: 'sandbox',
      status: 'warning',
      invalidWebhooksLastDay: 1,
      lastWebhook: { event: 'payment.captured', outcome: 'invalid_signature', at: ctx.clock.now().toISOString() },
    });
    expect(system.mail).toMatchObject({ transport: 'smtp', failed: 0 });
    // reminders: a failed message is the operator's to see (ruling 31)
    expect(system.messages).toMatchObject({ status: 'ok', pending: 0, failed: 0, lastError: null });
    expect(system.disk.freeBytes).toBeGreaterThan(0);
    expect(system.disk.totalBytes).toBeGreaterThanOrEqual(system.disk.freeBytes);
    expect(system.process).toMatchObject({ version: '0.1.0', environment: 'test', serverErrorsLastHour: 1, status: 'warning' });
    expect(system.process.memory.rssBytes).toBeGreaterThan(0);
    expect(system.status).toBe('warning');
  });

  it('a valid webhook is noted with what it did', async () => {
    const school = await signUpSchool(ctx);
    const order = (await school.api.post('/api/payments/create-subscription-order', { planType: 'basic', billingCycle: 'monthly' })).json();
    const paid = (await school.api.post('/api/payments/sandbox/checkout', { orderId: order.orderId })).json();
    const body = JSON.stringify({ event: 'payment.captured', payload: { payment: { entity: { id: paid.razorpay_payment_id, order_id: order.orderId } } } });
    const sandbox = ctx.app.deps.payments as SandboxProvider;
    const hook = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': sandbox.webhookSignature(body) },
      payload: body,
    });
    expect(hook.statusCode).toBe(200);
    const system = (await master.get('/api/admin/system')).json();
    expect(system.payments.lastWebhook).toMatchObject({ event: 'payment.captured', outcome: hook.json().outcome });
  });
});

describe('analytics', () => {
  it('MRR, ARR, revenue less GST this month, sign-ups and conversion this week, plan mix', async () => {
    const before = (await master.get('/api/admin/analytics')).json();
    const school = await signUpSchool(ctx);
    await payFor(school, 'premium', 'yearly');
    const after = (await master.get('/api/admin/analytics')).json();
    const rupees = (s: string) => Math.round(Number(s) * 100);
    // premium yearly ₹12,000 → ₹1,000 a month; paid ₹6,000 less 50% first-time discount, before GST
    expect(rupees(after.mrr) - rupees(before.mrr)).toBe(100_000);
    expect(rupees(after.arr) - rupees(before.arr)).toBe(1_200_000);
    const month = (a: typeof after) => a.revenueByMonth.find((m: { month: string }) => m.month === '2026-11');
    expect(rupees(month(after).revenue) - rupees(month(before).revenue)).toBe(600_000);
    expect(after.revenueByMonth).toHaveLength(12);
    const week = (a: typeof after) => a.signupsByWeek.find((w: { weekStart: string }) => w.weekStart === '2026-11-16');
    expect(week(after).signups - week(before).signups).toBe(1);
    expect(week(after).converted - week(before).converted).toBe(1);
    const premium = (a: typeof after) => a.planMix.find((p: { plan: string }) => p.plan === 'premium');
    expect(premium(after).schools - premium(before).schools).toBe(1);
    expect(after.asOf).toBe(ctx.clock.now().toISOString());
  });
});

describe('one school', () => {
  it('shows its plan, usage, users and audit trail; another id is 404, a malformed one 400', async () => {
    const school = await signUpSchool(ctx);
    const detail = await master.get(`/api/admin/schools/${school.schoolId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      school: { id: school.schoolId, name: school.schoolName, subscriptionStatus: 'trial' },
      plan: { id: 'standard', name: 'Standard', studentLimit: 500, monthlyPrice: '500.00', yearlyPrice: '6000.00' },
      usage: { students: 0, staff: 1, receiptsThisMonth: 0, collectedThisMonth: '0.00' },
      users: [{ email: school.email, emailConfirmed: true }],
    });
    await ctx.database.db.insert(auditLog).values({ schoolId: school.schoolId, userId: school.userId, action: 'receipt.cancel', entity: 'receipt', entityId: 'r1', after: { reason: 'typo' } });
    const trail = (await master.get(`/api/admin/schools/${school.schoolId}`)).json().audit;
    expect(trail[0]).toMatchObject({ action: 'receipt.cancel', userEmail: school.email, after: { reason: 'typo' } });
    expect((await master.get('/api/admin/schools/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await master.get('/api/admin/schools/not-a-school')).statusCode).toBe(400);
    await ctx.database.db.delete(auditLog).where(eq(auditLog.entityId, 'r1'));
  });
});
