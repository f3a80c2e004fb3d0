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
  password: 'secret1',
  selectedPlan: 'standard',
};

describe('school registration', () => {
  it('checks fields in the spec order with the spec messages', async () => {
    const api = client(ctx.app);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, schoolName: '  ' }, 'School name is required'],
      [{ ...valid, email: 'no-at-sign' }, 'Valid email address is required'],
      [{ ...valid, phone: '' }, 'Phone number is required'],
      [{ ...valid, password: '12345' }, 'Password must be at least 6 characters'],
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

    const early = await api.post('/api/auth/login', { email: 'principal@greenvalley.test', password: 'secret1' });
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

    const again = await api.post('/api/auth/confirm-email', { token: link.searchParams.get('token') });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('This confirmation link is invalid or has already been used.');

    const login = await api.post('/api/auth/login', { email: 'PRINCIPAL@greenvalley.test', password: 'secret1' });
    expect(login.statusCode).toBe(200);
    const body = login.json();
    expect(body.user.role).toBe('school_admin');
    expect(body.school.name).toBe('Green Valley Public School');
    expect(body.school.subscriptionStatus).toBe('trial');
    expect(body.school.subscriptionPlan).toBe('standard');
    expect(body.school.trialStatus).toEqual({ isExpired: false, daysRemaining: 5 });
  });

  it('refuses a second registration with the same email, whatever its case', async () => {
    const res = await client(ctx.app).post('/api/school-registration', { ...valid, email: 'PRINCIPAL@greenvalley.TEST', schoolName: 'Other' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('This email is already registered. Please use a different email address.');
  });

  it('keeps two simultaneous registrations of one email to one account', async () => {
    const body = { ...valid, email: 'race@school.test' };
    const answers = await Promise.all([1, 2, 3].map(() => client(ctx.app).post('/api/school-registration', body)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it('lets a new school in with the signUpSchool helper', async () => {
    const school = await signUpSchool(ctx);
    const me = await school.api.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user.schoolId).toBe(school.schoolId);
    expect(me.json().school.id).toBe(school.schoolId);
  });
});
