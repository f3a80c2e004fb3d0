import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMasterAdmin } from '../auth/master-admin';
import { auditLog, invoices, mailOutbox, schools, subscriptionPayments, subscriptionRequestKeys } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { extractText, getDocumentProxy } from 'unpdf';

async function pdfText(buffer: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(buffer)), { mergePages: true });
  return text;
}

const SUPPLIER_GSTIN = '01AAACL1234C1ZJ';
let ctx: TestContext;
let master: ReturnType<typeof client>;
let masterId: string;
const DAY = 86_400_000;

beforeAll(async () => {
  // the supplier is in Jammu and Kashmir: a school there pays CGST + SGST, elsewhere IGST
  ctx = await createTestApp({ env: { SUPPLIER_STATE: 'Jammu and Kashmir', SUPPLIER_NAME: 'Ledger Software Pvt Ltd', SUPPLIER_GSTIN: SUPPLIER_GSTIN } });
  await ensureMasterAdmin(ctx.database.db, { email: 'master@ledger.test', password: 'MasterPass123', now: ctx.clock.now() });
  const login = await client(ctx.app).post('/api/auth/admin-login', { email: 'master@ledger.test', password: 'MasterPass123' });
  master = client(ctx.app, login.json().token);
  masterId = login.json().user.id;
});
afterAll(() => ctx.close());

type School = Awaited<ReturnType<typeof signUpSchool>>;

async function signIn(school: School) {
  const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
  return { login, api: client(ctx.app, login.json().token) };
}

async function setState(school: School, state: string | null, gstin: string | null = null) {
  const res = await school.api.put('/api/schools/update-info', { name: school.schoolName, schoolCode: 'TST01', phone: '9876543210', address: 'Main Road', state, gstin });
  expect(res.statusCode, res.body).toBe(200);
}

describe('master administrator only', () => {
  it('refuses a school token with 403 and no token with 401, on every subscription route', async () => {
    const school = await signUpSchool(ctx);
    const id = school.schoolId;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/schools/subscriptions'],
      ['PUT', `/api/admin/schools/${id}/plan`, { plan: 'premium', status: 'active', reason: 'test' }],
      ['PUT', `/api/admin/schools/${id}/subscription`, { subscriptionPlan: 'premium', subscriptionStatus: 'active', reason: 'test' }],
      ['POST', `/api/admin/schools/${id}/cancel`, { reason: 'test' }],
      ['POST', `/api/admin/schools/${id}/extend`, { days: 5, reason: 'test' }],
      ['POST', `/api/admin/schools/${id}/change-plan`, { newPlan: 'premium', isMonthly: false, reason: 'test' }],
      ['POST', `/api/admin/schools/${id}/offline-payment`, { plan: 'basic', amount: '3540', mode: 'cheque', reference: '1', date: '2026-04-09', reason: 'test' }],
      ['POST', `/api/admin/schools/${id}/deactivate`, { reason: 'test' }],
      ['POST', `/api/admin/schools/${id}/reactivate`, { reason: 'test' }],
      ['GET', `/api/admin/schools/${id}/billing`],
      ['GET', '/api/admin/plans'],
      ['PUT', '/api/admin/plans/basic', { name: 'Basic', monthlyPrice: '1', yearlyPrice: '1', studentLimit: 1, features: ['x'], firstTimeDiscountPercent: 0, reason: 'test' }],
    ];
    for (const [method, url, body] of calls) {
      const asSchool = await ctx.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${school.token}` }, ...(body ? { payload: body as object } : {}) });
      expect(asSchool.statusCode, `${method} ${url}`).toBe(403);
      const anonymous = await ctx.app.inject({ method: method as 'GET', url, ...(body ? { payload: body as object } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    const [row] = await ctx.database.db.select().from(schools).where(eq(schools.id, id));
    expect(row).toMatchObject({ subscriptionPlan: 'standard', subscriptionStatus: 'trial', deactivatedAt: null });
  });
});

describe('the subscription list', () => {
  it('lists every school with the seed shape, and a paid plan whose end passed says expired', async () => {
    const school = await signUpSchool(ctx);
    const now = ctx.clock.now();
    await ctx.database.db
      .update(schools)
      .set({ subscriptionStatus: 'active', subscriptionPlan: 'basic', planStartDate: new Date(now.getTime() - 40 * DAY), planEndDate: new Date(now.getTime() - DAY) })
      .where(eq(schools.id, school.schoolId));
    const list = (await master.get('/api/admin/schools/subscriptions')).json();
    const mine = list.find((s: { id: string }) => s.id === school.schoolId);
    expect(mine).toMatchObject({
      name: school.schoolName,
      email: school.email,
      subscriptionPlan: 'basic',
      subscriptionStatus: 'expired',
      isExpired: true,
      daysRemaining: 0,
      planEndDate: new Date(now.getTime() - DAY).toISOString(),
      trialStatus: { isExpired: false },
    });
  });
});

describe('extend', () => {
  it('adds days to a trial, is audited with the master id and the reason, and the school can write again at once', async () => {
    const school = await signUpSchool(ctx);
    const [before] = await ctx.database.db.select().from(schools).where(eq(schools.id, school.schoolId));
    const res = await master.post(`/api/admin/schools/${school.schoolId}/extend`, { days: 10, reason: 'Asked for more time at the fair' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Subscription Extended', school: { subscriptionStatus: 'trial', trialStatus: { daysRemaining: 15 } } });
    expect(res.json().school.trialEndsAt).toBe(new Date(before!.trialEndsAt!.getTime() + 10 * DAY).toISOString());

    const [entry] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.schoolId, school.schoolId), eq(auditLog.action, 'subscription.extend')));
    expect(entry).toMatchObject({ userId: masterId, entity: 'school' });
    expect(entry!.after).toMatchObject({ reason: 'Asked for more time at the fair' });
  });

  it('turns an ended plan back on from today: a read-only session writes again on its next request', async () => {
    const school = await signUpSchool(ctx);
    const now = ctx.clock.now();
    await ctx.database.db
      .update(schools)
      .set({ subscriptionStatus: 'expired', subscriptionPlan: 'basic', planStartDate: new Date(now.getTime() - 400 * DAY), planEndDate: new Date(now.getTime() - 35 * DAY) })
      .where(eq(schools.id, school.schoolId));
    const { login, api } = await signIn(school);
    expect(login.json().requiresPayment).toBe(true);
    const blocked = await api.post('/api/expenses', { category: 'Rent', amount: '100', date: '2026-04-09', description: 'x' });
    expect(blocked.statusCode).toBe(402);

    const res = await master.post(`/api/admin/schools/${school.schoolId}/extend`, { days: 30, reason: 'Cheque promised' });
    expect(res.json().school).toMatchObject({ subscriptionStatus: 'active', isExpired: false, daysRemaining: 30, planEndDate: new Date(now.getTime() + 30 * DAY).toISOString() });
    const allowed = await api.post('/api/expenses', { category: 'Rent', amount: '100', date: '2026-04-09', description: 'x' });
    expect(allowed.statusCode).not.toBe(402);
  });

  it('refuses 0, 366, fractions and text with the days message, and a missing reason', async () => {
    const school = await signUpSchool(ctx);
    for (const days of [0, 366, 2.5, 'ten', null]) {
      const res = await master.post(`/api/admin/schools/${school.schoolId}/extend`, { days, reason: 'because' });
      expect(res.statusCode, String(days)).toBe(400);
      expect(res.json().error).toBe('Days must be a whole number from 1 to 365');
    }
    const noReason = await master.post(`/api/admin/schools/${school.schoolId}/extend`, { days: 5 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe('Give a reason for this change: it is kept in the audit log');
    const blank = await master.post(`/api/admin/schools/${school.schoolId}/extend`, { days: 5, reason: '   ' });
    expect(blank.statusCode).toBe(400);
  });

  it('answers 404 for a school that does not exist', async () => {
    const res = await master.post('/api/admin/schools/00000000-0000-4000-8000-000000000000/extend', { days: 5, reason: 'because' });
    expect(res.statusCode).toBe(404);
  });
});

describe('plan, subscription and change-plan', () => {
  it('sets plan, status and dates; unknown plans and bad dates are 400 and change nothing', async () => {
    const school = await signUpSchool(ctx);
    const id = school.schoolId;
    const ok = await master.put(`/api/admin/schools/${id}/plan`, { plan: 'premium', status: 'active', startDate: '2026-04-01', endDate: '2027-03-31', reason: 'Pilot school' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Plan Updated',
      school: { subscriptionPlan: 'premium', subscriptionStatus: 'active', planStartDate: '2026-03-31T18:30:00.000Z', planEndDate: '2027-03-30T18:30:00.000Z' },
    });

    const unknown = await master.put(`/api/admin/schools/${id}/plan`, { plan: 'gold', status: 'active', reason: 'x-x-x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('Unknown plan "gold": choose basic, standard or premium');
    const badDate = await master.put(`/api/admin/schools/${id}/plan`, { plan: 'basic', status: 'active', startDate: '2026-13-45', reason: 'x-x-x' });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().error).toBe('Enter a valid date');
    const backwards = await master.put(`/api/admin/schools/${id}/subscription`, {
      subscriptionPlan: 'basic',
      subscriptionStatus: 'active',
      planStartDate: '2026-05-01T00:00:00.000Z',
      planEndDate: '2026-04-01T00:00:00.000Z',
      reason: 'x-x-x',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error).toBe('The end date must be after the start date');
    const badStatus = await master.put(`/api/admin/schools/${id}/subscription`, { subscriptionPlan: 'basic', subscriptionStatus: 'paused', reason: 'x-x-x' });
    expect(badStatus.statusCode).toBe(400);

    const [row] = await ctx.database.db.select().from(schools).where(eq(schools.id, id));
    expect(row).toMatchObject({ subscriptionPlan: 'premium', subscriptionStatus: 'active' });
  });

  it('edits a subscription with null dates, and change-plan restarts the period from today', async () => {
    const school = await signUpSchool(ctx);
    const id = school.schoolId;
    const edit = await master.put(`/api/admin/schools/${id}/subscription`, {
      schoolId: id,
      subscriptionPlan: 'basic',
      subscriptionStatus: 'active',
      planStartDate: null,
      planEndDate: null,
      reason: 'Open-ended for the pilot',
    });
    expect(edit.json()).toMatchObject({ message: 'Subscription Updated', school: { subscriptionPlan: 'basic', planStartDate: null, planEndDate: null, daysRemaining: null } });

    const now = ctx.clock.now();
    const monthly = await master.post(`/api/admin/schools/${id}/change-plan`, { newPlan: 'standard', isMonthly: true, reason: 'Upgrade by phone' });
    expect(monthly.json()).toMatchObject({ message: 'Plan Changed', school: { subscriptionPlan: 'standard', subscriptionStatus: 'active', planStartDate: now.toISOString(), planEndDate: '2026-05-10T05:30:00.000Z' } });
    const yearly = await master.post(`/api/admin/schools/${id}/change-plan`, { newPlan: 'premium', isMonthly: false, reason: 'Upgrade by phone' });
    expect(yearly.json().school).toMatchObject({ subscriptionPlan: 'premium', planEndDate: '2027-04-10T05:30:00.000Z' });
    const unknown = await master.post(`/api/admin/schools/${id}/change-plan`, { newPlan: 'platinum', isMonthly: false, reason: 'x-x-x' });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('cancel (ruling 15)', () => {
  it('keeps access until the end date, or ends it now when asked; a second cancel is 409', async () => {
    const school = await signUpSchool(ctx);
    const id = school.schoolId;
    await master.post(`/api/admin/schools/${id}/change-plan`, { newPlan: 'basic', isMonthly: false, reason: 'Paid by cheque' });
    const cancel = await master.post(`/api/admin/schools/${id}/cancel`, { reason: 'School asked to stop renewing' });
    expect(cancel.json()).toMatchObject({ message: 'Subscription Cancelled', school: { subscriptionStatus: 'cancelled', isExpired: false, planEndDate: '2027-04-10T05:30:00.000Z' } });
    const again = await master.post(`/api/admin/schools/${id}/cancel`, { reason: 'again' });
    expect(again.statusCode).toBe(409);

    const now = await master.post(`/api/admin/schools/${id}/cancel`, { endAccessNow: true, reason: 'Chargeback' });
    expect(now.json().school).toMatchObject({ subscriptionStatus: 'cancelled', isExpired: true, planEndDate: ctx.clock.now().toISOString() });
    const write = await school.api.post('/api/expenses', { category: 'Rent', amount: '100', date: '2026-04-09', description: 'x' });
    expect(write.statusCode).toBe(402);
  });
});

describe('deactivate and reactivate', () => {
  it("ends the school's sessions at once and refuses sign-in until reactivated", async () => {
    const school = await signUpSchool(ctx);
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(200);
    const off = await master.post(`/api/admin/schools/${school.schoolId}/deactivate`, { reason: 'Unpaid for six months' });
    expect(off.json()).toMatchObject({ message: 'School Deactivated', school: { deactivated: true } });
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(401);
    const { login } = await signIn(school);
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toBe("This school's account has been deactivated. Please contact support.");
    expect((await master.post(`/api/admin/schools/${school.schoolId}/deactivate`, { reason: 'again' })).statusCode).toBe(409);

    const on = await master.post(`/api/admin/schools/${school.schoolId}/reactivate`, { reason: 'Paid up' });
    expect(on.json().school.deactivated).toBe(false);
    const { login: back } = await signIn(school);
    expect(back.statusCode).toBe(200);
  });
});

describe('offline payments and tax invoices (ruling 33)', () => {
  it('a cheque extends the plan and gets a CGST + SGST invoice for a school in the supplier state, with a mail', async () => {
    const school = await signUpSchool(ctx);
    await setState(school, 'Jammu and Kashmir');
    const res = await master.post(`/api/admin/schools/${school.schoolId}/offline-payment`, {
      plan: 'basic',
      billingCycle: 'yearly',
      amount: '3540.00',
      mode: 'cheque',
      reference: 'CHQ 004512',
      date: '2026-04-09',
      reason: 'Cheque received at the office',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ school: { subscriptionPlan: 'basic', subscriptionStatus: 'active', planEndDate: '2027-04-10T05:30:00.000Z', hasPaidSubscription: true } });
    expect(res.json().invoice.number).toMatch(/^SL\/2026-27\/\d{6}$/);

    const [invoice] = await ctx.database.db.select().from(invoices).where(eq(invoices.schoolId, school.schoolId));
    expect(invoice).toMatchObject({ taxablePaise: 300_000, cgstPaise: 27_000, sgstPaise: 27_000, igstPaise: 0, totalPaise: 354_000 });

    const billing = (await master.get(`/api/admin/schools/${school.schoolId}/billing`)).json();
    expect(billing.payments).toEqual([
      { id: expect.any(String), date: '2026-04-08T18:30:00.000Z', amount: '3540.00', mode: 'cheque', reference: 'CHQ 004512', plan: 'basic', billingCycle: 'yearly', status: 'paid' },
    ]);
    expect(billing.invoices).toEqual([{ id: invoice!.id, number: invoice!.number, date: ctx.clock.now().toISOString(), total: '3540.00', pdfUrl: `/api/admin/invoices/${invoice!.id}/pdf` }]);

    const pdf = await master.get(billing.invoices[0].pdfUrl);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('TAX INVOICE');
    expect(text).toContain(invoice!.number);
    expect(text).toContain('CGST @ 9%');
    expect(text).toContain('SGST @ 9%');
    expect(text).not.toContain('IGST');
    expect(text).toContain('Rupees Three Thousand Five Hundred Forty Only');

    await ctx.flushMail();
    const mail = await ctx.smtp.waitFor(school.email, /Payment received/);
    expect(mail.subject).toBe(`Payment received: tax invoice ${invoice!.number}`);
    // the invoice itself comes with the mail, the same document as the Billing page's PDF
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`invoice-${invoice!.number.replaceAll('/', '-')}.pdf`, 'application/pdf']]);
    const attached = await pdfText(mail.attachments[0]!.content);
    expect(attached).toContain(invoice!.number);
    expect(attached).toContain('Rupees Three Thousand Five Hundred Forty Only');

    // an issued invoice is never rewritten, not even by a direct database write
    await expect(ctx.database.db.update(invoices).set({ totalPaise: 1 }).where(eq(invoices.id, invoice!.id))).rejects.toThrow();
    await expect(ctx.database.db.delete(invoices).where(eq(invoices.id, invoice!.id))).rejects.toThrow();
  });

  it('a school in another state gets IGST 18%, its GSTIN printed', async () => {
    const school = await signUpSchool(ctx);
    await setState(school, 'Maharashtra', '27AAPFU0939F1ZV');
    const res = await master.post(`/api/admin/schools/${school.schoolId}/offline-payment`, {
      plan: 'standard',
      billingCycle: 'monthly',
      amount: 590,
      mode: 'upi',
      reference: 'UPI 6123',
      date: '2026-04-10',
      reason: 'UPI to the company account',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [invoice] = await ctx.database.db.select().from(invoices).where(eq(invoices.schoolId, school.schoolId));
    expect(invoice).toMatchObject({ taxablePaise: 50_000, cgstPaise: 0, sgstPaise: 0, igstPaise: 9_000, totalPaise: 59_000 });
    expect(invoice!.buyer).toMatchObject({ state: 'Maharashtra', gstin: '27AAPFU0939F1ZV' });
    const text = await pdfText((await master.get(`/api/admin/invoices/${invoice!.id}/pdf`)).rawPayload);
    expect(text).toContain('IGST @ 18%');
    expect(text).toContain('27AAPFU0939F1ZV');
  });

  it('refuses bad input with clear messages and writes nothing', async () => {
    const school = await signUpSchool(ctx);
    const base = { plan: 'basic', billingCycle: 'yearly', amount: '3540', mode: 'neft', reference: 'UTR1', date: '2026-04-09', reason: 'NEFT' };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ amount: '0' }, 400, 'Enter the amount received in rupees, e.g. 3540 or 3540.00'],
      [{ amount: '12.345' }, 400, 'Enter the amount received in rupees, e.g. 3540 or 3540.00'],
      [{ reference: '' }, 400, 'Enter the cheque number or the bank / UPI reference'],
      [{ date: '2026-04-30' }, 400, 'The payment date cannot be in the future'],
      [{ date: 'yesterday' }, 400, 'Enter a valid date'],
      [{ plan: 'gold' }, 400, 'Unknown plan "gold": choose basic, standard or premium'],
      [{ mode: 'cash' }, 400, 'Choose how it was paid: cheque, NEFT or UPI'],
      [{ reason: '' }, 400, 'Give a reason for this change: it is kept in the audit log'],
    ];
    for (const [change, status, message] of cases) {
      const res = await master.post(`/api/admin/schools/${school.schoolId}/offline-payment`, { ...base, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(status);
      expect(res.json().error).toBe(message);
    }
    expect(await ctx.database.db.select().from(invoices).where(eq(invoices.schoolId, school.schoolId))).toEqual([]);
  });

  it('numbers invoices without gaps or repeats when payments are recorded at the same time', async () => {
    const many = await Promise.all(Array.from({ length: 6 }, () => signUpSchool(ctx)));
    const answers = await Promise.all(
      many.map((s, i) =>
        master.post(`/api/admin/schools/${s.schoolId}/offline-payment`, {
          plan: 'basic',
          billingCycle: 'monthly',
          amount: '295',
          mode: 'neft',
          reference: `UTR${i}`,
          date: '2026-04-10',
          reason: 'Batch of NEFT payments',
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    const all = await ctx.database.db.select({ sequence: invoices.sequence, number: invoices.number }).from(invoices).where(eq(invoices.financialYear, '2026-27'));
    const sequences = all.map((r) => r.sequence).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i + 1));
    expect(new Set(all.map((r) => r.number)).size).toBe(all.length);
  });

  it('queues one payment mail per invoice', async () => {
    const school = await signUpSchool(ctx);
    await master.post(`/api/admin/schools/${school.schoolId}/offline-payment`, { plan: 'basic', amount: '295', billingCycle: 'monthly', mode: 'upi', reference: 'U1', date: '2026-04-10', reason: 'UPI' });
    const mails = await ctx.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.schoolId, school.schoolId), eq(mailOutbox.kind, 'payment-received')));
    expect(mails).toHaveLength(1);
  });
});

describe('a retried action is applied once (ruling 5: the dialog sends a clientId)', () => {
  const REUSED = 'This request was already recorded with different details (the same clientId was used). Refresh the page to see what was saved.';
  const HOUR = 3_600_000;

  /** What the operator would look at: the payments, the invoices, the plan's end, the audit trail and the mails. */
  async function recorded(schoolId: string) {
    const db = ctx.database.db;
    const [row] = await db.select().from(schools).where(eq(schools.id, schoolId));
    return {
      payments: await db.select().from(subscriptionPayments).where(eq(subscriptionPayments.schoolId, schoolId)),
      invoices: (await db.select({ number: invoices.number }).from(invoices).where(eq(invoices.schoolId, schoolId))).map((i) => i.number),
      planEndDate: row!.planEndDate?.toISOString() ?? null,
      trialEndsAt: row!.trialEndsAt?.toISOString() ?? null,
      audits: (await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.schoolId, schoolId))).map((a) => a.action).filter((a) => a.startsWith('subscription.')),
      mails: (await db.select().from(mailOutbox).where(and(eq(mailOutbox.schoolId, schoolId), eq(mailOutbox.kind, 'payment-received')))).length,
    };
  }

  it('two presses of Record Payment at once, and a retry after, record one payment, one invoice and one year', async () => {
    const school = await signUpSchool(ctx);
    const url = `/api/admin/schools/${school.schoolId}/offline-payment`;
    const body = { plan: 'basic', billingCycle: 'yearly', amount: '3540', mode: 'cheque', reference: 'CHQ 881', date: '2026-04-09', reason: 'Cheque received', clientId: 'pay-881' };
    const both = await Promise.all([master.post(url, body), master.post(url, body)]);
    // the same amount written another way is the same request
    const retry = await master.post(url, { ...body, amount: '3540.00' });
    const answers = [...both, retry];
    expect(answers.map((a) => a.statusCode), answers.map((a) => a.body).join('\n')).toEqual([200, 200, 200]);

    const after = await recorded(school.schoolId);
    expect(after.payments).toHaveLength(1);
    expect(after.payments[0]).toMatchObject({ status: 'paid', amountPaise: 354_000, reference: 'CHQ 881' });
    expect(after.invoices).toHaveLength(1);
    expect(after.invoices[0]).toMatch(/^SL\/2026-27\/\d{6}$/);
    for (const answer of answers) {
      expect(answer.json()).toMatchObject({
        message: `Payment recorded: invoice ${after.invoices[0]}`,
        invoice: { number: after.invoices[0] },
        school: { subscriptionPlan: 'basic', subscriptionStatus: 'active', planEndDate: '2027-04-10T05:30:00.000Z' },
      });
      expect(answer.json().invoice.id).toBe(answers[0]!.json().invoice.id);
    }
    // one year bought, not two; one audit entry, one mail
    expect(after.planEndDate).toBe('2027-04-10T05:30:00.000Z');
    expect(after.audits).toEqual(['subscription.offline-payment']);
    expect(after.mails).toBe(1);
    const keys = await ctx.database.db.select().from(subscriptionRequestKeys).where(eq(subscriptionRequestKeys.schoolId, school.schoolId));
    expect(keys).toMatchObject([{ clientId: 'pay-881', action: 'subscription.offline-payment', paymentId: after.payments[0]!.id }]);

    // the same key with another amount, or for another action, is refused and writes nothing
    const otherAmount = await master.post(url, { ...body, amount: '2950' });
    expect(otherAmount.statusCode).toBe(409);
    expect(otherAmount.json().error).toBe(REUSED);
    const otherAction = await master.post(`/api/admin/schools/${school.schoolId}/extend`, { days: 5, reason: 'Cheque received', clientId: 'pay-881' });
    expect(otherAction.statusCode).toBe(409);
    expect(otherAction.json().error).toBe(REUSED);
    expect(await recorded(school.schoolId)).toEqual(after);

    // another school's key space is its own
    const other = await signUpSchool(ctx);
    const elsewhere = await master.post(`/api/admin/schools/${other.schoolId}/offline-payment`, body);
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    expect(elsewhere.json().invoice.number).not.toBe(after.invoices[0]);
  });

  it('without a clientId each press records a payment, as before', async () => {
    const school = await signUpSchool(ctx);
    const url = `/api/admin/schools/${school.schoolId}/offline-payment`;
    const body = { plan: 'basic', billingCycle: 'yearly', amount: '3540', mode: 'neft', reference: 'UTR 5', date: '2026-04-09', reason: 'Two separate payments' };
    expect((await master.post(url, body)).statusCode).toBe(200);
    expect((await master.post(url, body)).statusCode).toBe(200);
    const after = await recorded(school.schoolId);
    expect(after.payments).toHaveLength(2);
    expect(after.invoices).toHaveLength(2);
    expect(after.planEndDate).toBe('2028-04-10T05:30:00.000Z');
  });

  it('Extend pressed twice at once and retried adds the days once; another number of days with the key is 409', async () => {
    const school = await signUpSchool(ctx);
    const url = `/api/admin/schools/${school.schoolId}/extend`;
    const before = await recorded(school.schoolId);
    const tenDaysLater = new Date(new Date(before.trialEndsAt!).getTime() + 10 * DAY).toISOString();
    const body = { days: 10, reason: 'More time for the cheque', clientId: 'extend-1' };
    const answers = [...(await Promise.all([master.post(url, body), master.post(url, body)])), await master.post(url, body)];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    for (const answer of answers) expect(answer.json()).toMatchObject({ message: 'Subscription Extended', school: { trialEndsAt: tenDaysLater } });
    const after = await recorded(school.schoolId);
    expect(after.trialEndsAt).toBe(tenDaysLater);
    expect(after.audits).toEqual(['subscription.extend']);

    const other = await master.post(url, { ...body, days: 11 });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe(REUSED);
    expect(await recorded(school.schoolId)).toEqual(after);

    // without a key, two presses add the days twice, as before
    await master.post(url, { days: 3, reason: 'No key' });
    await master.post(url, { days: 3, reason: 'No key' });
    expect((await recorded(school.schoolId)).trialEndsAt).toBe(new Date(new Date(tenDaysLater).getTime() + 6 * DAY).toISOString());
  });

  it('Change Plan retried an hour later with its key changes the plan once: the period is not restarted', async () => {
    const school = await signUpSchool(ctx);
    const url = `/api/admin/schools/${school.schoolId}/change-plan`;
    const body = { newPlan: 'premium', isMonthly: false, reason: 'Upgrade by phone', clientId: 'change-1' };
    const first = await master.post(url, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().school).toMatchObject({ subscriptionPlan: 'premium', planStartDate: '2026-04-10T05:30:00.000Z', planEndDate: '2027-04-10T05:30:00.000Z' });
    ctx.clock.advance(HOUR);
    try {
      const again = await master.post(url, body);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({ message: 'Plan Changed', school: { subscriptionPlan: 'premium', planStartDate: '2026-04-10T05:30:00.000Z', planEndDate: '2027-04-10T05:30:00.000Z' } });
      const after = await recorded(school.schoolId);
      expect(after.planEndDate).toBe('2027-04-10T05:30:00.000Z');
      expect(after.audits).toEqual(['subscription.change-plan']);

      const monthly = await master.post(url, { ...body, isMonthly: true });
      expect(monthly.statusCode).toBe(409);
      expect(monthly.json().error).toBe(REUSED);
      expect(await recorded(school.schoolId)).toEqual(after);

      // a new key is a new change: the period restarts from now
      const next = await master.post(url, { ...body, clientId: 'change-2' });
      expect(next.json().school.planEndDate).toBe('2027-04-10T06:30:00.000Z');
    } finally {
      ctx.clock.advance(-HOUR);
    }
  });
});

describe('the plan catalogue', () => {
  it('edits prices, limits, features and the first-time discount with history; new orders only', async () => {
    const school = await signUpSchool(ctx);
    const before = await school.api.post('/api/payments/create-subscription-order', { planType: 'basic', billingCycle: 'yearly' });
    expect(before.json().price).toMatchObject({ base: '3000.00', discount: '1500.00' });

    const edit = await master.put('/api/admin/plans/basic', {
      name: 'Basic',
      monthlyPrice: '300',
      yearlyPrice: '3200.00',
      studentLimit: 150,
      features: ['Fee collection', 'Receipts'],
      firstTimeDiscountPercent: 25,
      reason: 'New price list for 2026-27',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const catalogue = (await master.get('/api/admin/plans')).json();
    const basic = catalogue.find((p: { id: string }) => p.id === 'basic');
    expect(basic).toMatchObject({ yearlyPrice: '3200.00', studentLimit: 150, firstTimeDiscountPercent: 25, features: ['Fee collection', 'Receipts'] });
    expect(basic.history[0]).toMatchObject({ changedBy: 'master@ledger.test', reason: 'New price list for 2026-27', before: { yearlyPrice: '3000.00' }, after: { yearlyPrice: '3200.00' } });
    expect((await client(ctx.app).get('/api/plans')).json().find((p: { id: string }) => p.id === 'basic')).toMatchObject({ yearlyPrice: '3200.00', studentLimit: 150 });

    // the order made before the change is still paid at its own price
    const paid = await school.api.post('/api/payments/sandbox/checkout', { orderId: before.json().orderId });
    const verify = await school.api.post('/api/payments/verify-subscription', paid.json());
    expect(verify.statusCode, verify.body).toBe(200);
    const [invoice] = await ctx.database.db.select().from(invoices).where(eq(invoices.schoolId, school.schoolId));
    expect(invoice).toMatchObject({ taxablePaise: 150_000, totalPaise: 177_000 });

    const after = await signUpSchool(ctx);
    const order = await after.api.post('/api/payments/create-subscription-order', { planType: 'basic', billingCycle: 'yearly' });
    expect(order.json().price).toMatchObject({ base: '3200.00', discount: '800.00' });

    const bad = await master.put('/api/admin/plans/basic', { name: 'Basic', monthlyPrice: '-1', yearlyPrice: '1', studentLimit: 0, features: [], firstTimeDiscountPercent: 120, reason: 'x-x-x' });
    expect(bad.statusCode).toBe(400);
    expect((await master.put('/api/admin/plans/gold', { name: 'Gold', monthlyPrice: '1', yearlyPrice: '1', studentLimit: null, features: ['x'], firstTimeDiscountPercent: 0, reason: 'x-x-x' })).statusCode).toBe(404);
  });
});
