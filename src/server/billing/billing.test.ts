import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extendedEnd } from '../../domain/plans';
import { mailOutbox, schools } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { runSubscriptionNotices } from './notices';

let ctx: TestContext;
const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await createTestApp({ env: { SUPPLIER_STATE: 'Jammu and Kashmir' } });
});
afterAll(() => ctx.close());

type School = Awaited<ReturnType<typeof signUpSchool>>;

async function buy(school: School, planType: string, billingCycle: 'monthly' | 'yearly') {
  const order = await school.api.post('/api/payments/create-subscription-order', { planType, billingCycle });
  const paid = await school.api.post('/api/payments/sandbox/checkout', { orderId: order.json().orderId });
  const verify = await school.api.post('/api/payments/verify-subscription', paid.json());
  expect(verify.statusCode, verify.body).toBe(200);
}

describe('GET /api/billing', () => {
  it('shows the plan, validity, queued plan, payments and an invoice PDF for an online payment', async () => {
    const school = await signUpSchool(ctx);
    const trial = (await school.api.get('/api/billing')).json();
    expect(trial).toMatchObject({ status: 'trial', plan: 'standard', validFrom: null, daysRemaining: 5, payments: [], invoices: [], taxDetails: { state: null, gstin: null } });

    await buy(school, 'premium', 'yearly');
    await buy(school, 'basic', 'monthly');
    const billing = (await school.api.get('/api/billing')).json();
    expect(billing).toMatchObject({
      plan: 'premium',
      planName: 'Premium',
      status: 'active',
      isExpired: false,
      validUntil: '2027-04-10T05:30:00.000Z',
      queuedPlan: { plan: 'basic', planName: 'Basic', startDate: '2027-04-10T05:30:00.000Z', endDate: '2027-05-10T05:30:00.000Z' },
    });
    // both paid at the same instant of the fixed clock: compare without order
    expect(billing.payments.map((p: { amount: string; mode: string }) => `${p.amount} ${p.mode}`).sort()).toEqual(['295.00 online', '7080.00 online']);
    expect(billing.invoices).toHaveLength(2);
    expect(billing.invoices.map((i: { total: string }) => i.total).sort()).toEqual(['295.00', '7080.00']);

    const pdf = await school.api.get(billing.invoices[0].pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    // another school's invoice is not found, never forbidden
    const other = await signUpSchool(ctx);
    expect((await other.api.get(billing.invoices[0].pdfUrl)).statusCode).toBe(404);
  });
});

describe('POST /api/billing/cancel (ruling 15)', () => {
  it('cancels a paid plan without renewal, keeps access until its end, and refuses a trial or a second cancel', async () => {
    const school = await signUpSchool(ctx);
    const onTrial = await school.api.post('/api/billing/cancel', {});
    expect(onTrial.statusCode).toBe(409);
    expect(onTrial.json().error).toBe('There is no paid plan to cancel: the school is on its trial or its plan has ended');

    await buy(school, 'basic', 'yearly');
    const res = await school.api.post('/api/billing/cancel', { reason: 'Moving to another system' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Your plan is cancelled and will not renew. You keep full access until 10 April 2027.');
    expect(res.json().school).toMatchObject({ subscriptionStatus: 'cancelled', isExpired: false, planEndDate: '2027-04-10T05:30:00.000Z' });
    expect((await school.api.post('/api/billing/cancel', {})).statusCode).toBe(409);
  });
});

describe('tax details in school settings', () => {
  it('keeps a state and a valid GSTIN, and refuses a GSTIN with a typo or from another state', async () => {
    const school = await signUpSchool(ctx);
    const base = { name: school.schoolName, schoolCode: 'TAX01', phone: '9876543210', address: 'Residency Road' };
    const typo = await school.api.put('/api/schools/update-info', { ...base, state: 'Maharashtra', gstin: '27AAPFU0939F1ZW' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().error).toBe('This GSTIN has a typing mistake: its last character does not match the rest');
    const wrongState = await school.api.put('/api/schools/update-info', { ...base, state: 'Karnataka', gstin: '27AAPFU0939F1ZV' });
    expect(wrongState.json().error).toBe("The GSTIN's first two digits must be the code of the school's state");
    const shape = await school.api.put('/api/schools/update-info', { ...base, state: 'Maharashtra', gstin: 'ABC' });
    expect(shape.json().error).toBe('GSTIN must be 15 characters like 01ABCDE1234F1Z5 (state code, PAN, entity number, Z, check character)');
    const unknownState = await school.api.put('/api/schools/update-info', { ...base, state: 'Atlantis' });
    expect(unknownState.statusCode).toBe(400);

    const ok = await school.api.put('/api/schools/update-info', { ...base, state: 'Maharashtra', gstin: '27aapfu0939f1zv' });
    expect(ok.json().school).toMatchObject({ state: 'Maharashtra', gstin: '27AAPFU0939F1ZV' });
    // left out: unchanged; empty GSTIN: none
    expect((await school.api.put('/api/schools/update-info', base)).json().school).toMatchObject({ state: 'Maharashtra', gstin: '27AAPFU0939F1ZV' });
    expect((await school.api.put('/api/schools/update-info', { ...base, gstin: '' })).json().school).toMatchObject({ state: 'Maharashtra', gstin: null });
  });
});

describe('renewal reminders and expiry (the scheduled job)', () => {
  it('queues the 7-day and 1-day reminders and the expiry notice once each, and writes expired', async () => {
    const school = await signUpSchool(ctx);
    const start = ctx.clock.now();
    await buy(school, 'basic', 'monthly');
    const end = new Date('2026-05-10T05:30:00.000Z');
    const kinds = async () =>
      (await ctx.database.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.schoolId, school.schoolId)))
        .map((r) => r.kind)
        .filter((k) => k.startsWith('subscription-'))
        .sort();
    const run = (at: Date) => runSubscriptionNotices(ctx.database.db, ctx.config, at);

    await run(new Date(end.getTime() - 10 * DAY));
    expect(await kinds()).toEqual([]);
    await run(new Date(end.getTime() - 6 * DAY));
    await run(new Date(end.getTime() - 5 * DAY));
    expect(await kinds()).toEqual(['subscription-renewal-7d']);
    await run(new Date(end.getTime() - 12 * 3600_000));
    await run(new Date(end.getTime() - 2 * 3600_000));
    expect(await kinds()).toEqual(['subscription-renewal-1d', 'subscription-renewal-7d']);
    const after = new Date(end.getTime() + 3600_000);
    expect((await run(after)).expired).toBeGreaterThanOrEqual(1);
    await run(new Date(end.getTime() + 2 * 3600_000));
    expect(await kinds()).toEqual(['subscription-expired', 'subscription-renewal-1d', 'subscription-renewal-7d']);
    const [row] = await ctx.database.db.select().from(schools).where(eq(schools.id, school.schoolId));
    expect(row!.subscriptionStatus).toBe('expired');

    const [reminder] = await ctx.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.schoolId, school.schoolId), eq(mailOutbox.kind, 'subscription-renewal-1d')));
    expect(reminder!.subject).toBe('Your Basic plan ends tomorrow');
    expect(reminder!.text).toContain('ends on 10 May 2026');
    ctx.clock.set(start);
  });
});

describe('trial reminders (the scheduled job)', () => {
  it('mails "ends tomorrow" on the last day and "has ended" after, once each, and leaves the trial status to be judged by its end', async () => {
    const school = await signUpSchool(ctx);
    const [before] = await ctx.database.db.select().from(schools).where(eq(schools.id, school.schoolId));
    const end = before!.trialEndsAt!;
    const trialMails = async () =>
      (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.schoolId, school.schoolId)))
        .filter((r) => r.kind.startsWith('trial-') || r.kind.startsWith('subscription-'))
        .map((r) => [r.kind, r.subject])
        .sort();
    const run = (at: Date) => runSubscriptionNotices(ctx.database.db, ctx.config, at);

    // a five-day trial gets no week's notice: nothing on its first days
    await run(new Date(end.getTime() - 3 * DAY));
    expect(await trialMails()).toEqual([]);
    await run(new Date(end.getTime() - 20 * 3600_000));
    await run(new Date(end.getTime() - 2 * 3600_000));
    expect(await trialMails()).toEqual([['trial-renewal-1d', 'Your free trial ends tomorrow']]);
    await run(new Date(end.getTime() + 3600_000));
    await run(new Date(end.getTime() + 5 * 3600_000));
    expect(await trialMails()).toEqual([
      ['trial-expired', 'Your free trial has ended'],
      ['trial-renewal-1d', 'Your free trial ends tomorrow'],
    ]);
    const [after] = await ctx.database.db.select().from(schools).where(eq(schools.id, school.schoolId));
    expect(after!.subscriptionStatus).toBe('trial');
  });
});

describe('read-only after expiry (ruling 14)', () => {
  it('signs in read-only: reads, billing and invoice work; writes answer 402; paying turns writing back on', async () => {
    const school = await signUpSchool(ctx);
    await buy(school, 'basic', 'monthly');
    const start = ctx.clock.now();
    ctx.clock.set(new Date('2026-05-11T00:00:00.000Z'));
    try {
      const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
      expect(login.json()).toMatchObject({ requiresPayment: true, schoolId: school.schoolId, school: { subscriptionStatus: 'expired', isExpired: true } });
      const api = client(ctx.app, login.json().token);
      const billing = await api.get('/api/billing');
      expect(billing.json()).toMatchObject({ status: 'expired', isExpired: true });
      expect((await api.get(billing.json().invoices[0].pdfUrl)).statusCode).toBe(200);
      expect((await api.get('/api/students')).statusCode).toBe(200);
      const write = await api.post('/api/billing/cancel', {});
      expect(write.statusCode).toBe(402);
      expect(write.json()).toMatchObject({ requiresPayment: true });

      await buy({ ...school, api }, 'basic', 'yearly');
      expect((await api.get('/api/billing')).json()).toMatchObject({ status: 'active', isExpired: false });
    } finally {
      ctx.clock.set(start);
    }
  });
});

describe('extend arithmetic (property)', () => {
  it('always gives exactly the days asked from the later of the end and now, never ending in the past', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: -400, max: 400 }).map((d) => d * 3_600_000 * 7), { nil: null }),
        fc.integer({ min: 1, max: 365 }),
        (offset, days) => {
          const now = new Date('2026-11-22T06:00:00.000Z');
          const end = offset === null ? null : new Date(now.getTime() + offset);
          const next = extendedEnd(end, days, now);
          const from = end && end > now ? end : now;
          return next.getTime() - from.getTime() === days * DAY && next > now && (!end || next > end);
        },
      ),
    );
  });
});
