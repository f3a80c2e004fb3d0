import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const valid = {
  schoolName: 'Green Valley Public School',
  email: 'Principal@GreenValley.test',
  phone: '9876543210',
  address: 'Rajbagh, Srinagar',
  password: 'Dal-Lake-2026',
  selectedPlan: 'standard',
};

describe('school registration', () => {
  it('checks fields in the spec order with the spec messages', async () => {
    const api = client(ctx.app);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, schoolName: '  ' }, 'School name is required'],
      [{ ...valid, email: 'no-at-sign' }, 'Valid email address is required'],
      [{ ...valid, phone: '' }, 'Phone number is required'],
      [{ ...valid, password: '12345' }, 'Password must be at least 10 characters long'],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/api/school-registration', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(message);
    }
    expect(ctx.smtp.inbox).toHaveLength(0);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/school-registration',
      headers: { 'content-type': 'application/json' },
      payload: '{"schoolName": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('The request body is not valid JSON');
  });

  it('refuses over-long strings', async () => {
    const res = await client(ctx.app).post('/api/school-registration', { ...valid, schoolName: 'x'.repeat(201) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('School name is too long');
  });

  it('mails a confirmation link; sign-in waits for it; the trial starts at confirmation', async () => {
    const api = client(ctx.app);
    const res = await api.post('/api/school-registration', { ...valid, unknownField: 'ignored' });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toMatch(/5-day free trial starts once your email is confirmed/);

    const early = await api.post('/api/auth/login', { email: 'principal@greenvalley.test', password: 'Dal-Lake-2026' });
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toBe(
      'Please confirm your email address before signing in. Check your inbox for a confirmation email.',
    );

    const mail = await ctx.smtp.waitFor('principal@greenvalley.test', /Confirm your email/);
    expect(mail.subject).toBe('Confirm your email for Green Valley Public School');
    const link = new URL(mail.links[0]!);
    expect(`${link.origin}${link.pathname}`).toBe('http://school.test/confirm-email');

    ctx.clock.advanceDays(2); // the trial clock must not start at registration
    const confirmedAt = ctx.clock.now();
    const confirm = await api.post('/api/auth/confirm-email', { token: link.searchParams.get('token') });
    expect(confirm.statusCode).toBe(200);
    expect(new Date(confirm.json().trialEndsAt).getTime()).toBe(confirmedAt.getTime() + 5 * 86_400_000);

    // a second click on the confirmation link of a confirmed account says so, and changes nothing
    const again = await api.post('/api/auth/confirm-email', { token: link.searchParams.get('token') });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: 'Your email address is already confirmed. You can sign in.', trialEndsAt: null });
    const forged = await api.post('/api/auth/confirm-email', { token: 'x'.repeat(43) });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe('This confirmation link is invalid or has already been used.');

    const login = await api.post('/api/auth/login', { email: 'PRINCIPAL@greenvalley.test', password: 'Dal-Lake-2026' });
    expect(login.statusCode).toBe(200);
    const body = login.json();
    expect(body.user.role).toBe('school_admin');
    expect(body.school.name).toBe('Green Valley Public School');
    expect(body.school.subscriptionStatus).toBe('trial');
    expect(body.school.subscriptionPlan).toBe('standard');
    expect(body.school.trialStatus).toEqual({ isExpired: false, daysRemaining: 5 });
  });

  it('registration does not say an address is already registered: same answer as a new one, and the owner is mailed a notice', async () => {
    const api = client(ctx.app);
    const first = await api.post('/api/school-registration', { ...valid, email: 'owner@taken.test' });
    await ctx.smtp.waitFor('owner@taken.test', /Confirm your email/);
    const again = await api.post('/api/school-registration', { ...valid, email: 'OWNER@taken.TEST', schoolName: 'Other' });
    const fresh = await api.post('/api/school-registration', { ...valid, email: 'someone.new@taken.test', schoolName: 'Other' });
    expect([again.statusCode, fresh.statusCode]).toEqual([201, 201]);
    expect(again.json()).toEqual(fresh.json());
    expect(again.json()).toEqual(first.json());
    const notice = await ctx.smtp.waitFor('owner@taken.test', /already have a School Ledger account/);
    expect(notice.links).toEqual(['http://school.test/login', 'http://school.test/forgot-password']);
    // still one account, whose password did not change
    const users = await ctx.database.db.execute(sql`select count(*)::int as n from users where lower(email) = 'owner@taken.test'`);
    expect(users.rows[0]).toEqual({ n: 1 });
  });

  it('keeps simultaneous registrations of one email to one account, each answered alike', async () => {
    const body = { ...valid, email: 'race@school.test' };
    const answers = await Promise.all([1, 2, 3].map(() => client(ctx.app).post('/api/school-registration', body)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    const users = await ctx.database.db.execute(sql`select count(*)::int as n from users where email = 'race@school.test'`);
    expect(users.rows[0]).toEqual({ n: 1 });
  });

  it('lets a new school in with the signUpSchool helper', async () => {
    const school = await signUpSchool(ctx);
    const me = await school.api.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user.schoolId).toBe(school.schoolId);
    expect(me.json().school.id).toBe(school.schoolId);
  });
});
