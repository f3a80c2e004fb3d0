import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const FORGOT = 'If an account exists for that email, we have sent instructions to reset your password. The link expires in 60 minutes.';

describe('forgot and reset password', () => {
  it('mails a single-use link; the new password works, the old one and other sessions do not', async () => {
    const school = await signUpSchool(ctx);
    const otherDevice = school.api;
    const api = client(ctx.app);

    const forgot = await api.post('/api/auth/forgot-password', { email: school.email.toUpperCase() });
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json()).toEqual({
      message: 'If an account exists for that email, we have sent instructions to reset your password. The link expires in 60 minutes.',
    });
    const mail = await ctx.smtp.waitFor(school.email, /Reset your/);
    const link = new URL(mail.links[0]!);
    expect(`${link.origin}${link.pathname}`).toBe('http://school.test/reset-password');

    const reset = await api.post('/api/auth/reset-password', { token: tokenOf(mail.links[0]!), newPassword: 'Fresh-start-12' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe('Password reset successful. You can now sign in with your new password.');

    expect((await otherDevice.get('/api/auth/me')).statusCode).toBe(401);
    expect((await api.post('/api/auth/login', { email: school.email, password: school.password })).statusCode).toBe(401);
    expect((await api.post('/api/auth/login', { email: school.email, password: 'Fresh-start-12' })).statusCode).toBe(200);

    const reuse = await api.post('/api/auth/reset-password', { token: tokenOf(mail.links[0]!), newPassword: 'Another-pass-12' });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toBe('This password reset link is invalid or has expired. Please request a new one.');
  });

  it('gives the same answer for an unknown address and sends nothing', async () => {
    const before = ctx.smtp.inbox.length;
    const res = await client(ctx.app).post('/api/auth/forgot-password', { email: 'nobody@nowhere.test' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('resetToken');
    await new Promise((r) => setTimeout(r, 300));
    expect(ctx.smtp.inbox.length).toBe(before);
  });

  it('lets a link expire after 60 minutes', async () => {
    const school = await signUpSchool(ctx);
    await client(ctx.app).post('/api/auth/forgot-password', { email: school.email });
    const mail = await ctx.smtp.waitFor(school.email, /Reset your/);
    ctx.clock.advance(61 * 60_000);
    const res = await client(ctx.app).post('/api/auth/reset-password', { token: tokenOf(mail.links[0]!), newPassword: 'Fresh-start-12' });
    ctx.clock.advance(-61 * 60_000);
    expect(res.statusCode).toBe(400);
  });

  it('checks the new password against the one password policy', async () => {
    const short = await client(ctx.app).post('/api/auth/reset-password', { token: 'whatever', newPassword: '12345' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('Password must be at least 10 characters long');
    const common = await client(ctx.app).post('/api/auth/reset-password', { token: 'whatever', newPassword: 'Password123' });
    expect(common.json().error).toBe('This password is one of the most commonly used passwords. Please choose a less common one.');
  });

  it('a new reset link voids the earlier one', async () => {
    const school = await signUpSchool(ctx);
    const api = client(ctx.app);
    await api.post('/api/auth/forgot-password', { email: school.email });
    const first = tokenOf((await ctx.smtp.waitFor(school.email, /Reset your/)).links[0]!);
    await api.post('/api/auth/forgot-password', { email: school.email });
    await expect.poll(() => ctx.smtp.inbox.filter((m) => m.to.includes(school.email) && /Reset your/.test(m.subject)).length).toBe(2);
    const second = tokenOf((await ctx.smtp.waitFor(school.email, /Reset your/)).links[0]!);
    expect(second).not.toBe(first);
    const old = await api.post('/api/auth/reset-password', { token: first, newPassword: 'Fresh-start-12' });
    expect(old.statusCode).toBe(400);
    expect(old.json().error).toBe('This password reset link is invalid or has expired. Please request a new one.');
    expect((await api.post('/api/auth/reset-password', { token: second, newPassword: 'Fresh-start-12' })).statusCode).toBe(200);
  });

  it('a password change voids reset links mailed before it', async () => {
    const school = await signUpSchool(ctx);
    await client(ctx.app).post('/api/auth/forgot-password', { email: school.email });
    const token = tokenOf((await ctx.smtp.waitFor(school.email, /Reset your/)).links[0]!);
    const changed = await school.api.post('/api/auth/change-password', { currentPassword: school.password, newPassword: 'Changed-pass-12' });
    expect(changed.statusCode).toBe(200);
    const reset = await client(ctx.app).post('/api/auth/reset-password', { token, newPassword: 'Attacker-pass-12' });
    expect(reset.statusCode).toBe(400);
    expect((await client(ctx.app).post('/api/auth/login', { email: school.email, password: 'Changed-pass-12' })).statusCode).toBe(200);
  });

  it('every password reset request and completion is audited', async () => {
    const school = await signUpSchool(ctx);
    const api = client(ctx.app);
    await api.post('/api/auth/forgot-password', { email: school.email });
    await api.post('/api/auth/forgot-password', { email: 'stranger@nowhere.test' });
    const token = tokenOf((await ctx.smtp.waitFor(school.email, /Reset your/)).links[0]!);
    await api.post('/api/auth/reset-password', { token, newPassword: 'Audited-pass-12' });
    const rows = await ctx.database.db.execute(
      sql`select action, user_id, school_id, entity_id, after->>'email' as email, ip from audit_log
          where action like 'password.reset%' and (user_id = ${school.userId} or after->>'email' = 'stranger@nowhere.test') order by id`,
    );
    expect(rows.rows).toEqual([
      { action: 'password.reset_requested', user_id: school.userId, school_id: school.schoolId, entity_id: school.userId, email: school.email, ip: '127.0.0.1' },
      { action: 'password.reset_requested', user_id: null, school_id: null, entity_id: null, email: 'stranger@nowhere.test', ip: '127.0.0.1' },
      { action: 'password.reset', user_id: school.userId, school_id: school.schoolId, entity_id: school.userId, email: null, ip: '127.0.0.1' },
    ]);
  });
});

describe('limits on recovery mail', () => {
  it('50 reset requests for one address in under a second send three mails; the rest are refused alike for real and unknown addresses', async () => {
    const school = await signUpSchool(ctx);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        ctx.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: school.email }, remoteAddress: `203.0.113.${i + 1}` }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(47);
    expect(refused[0]!.json().error).toBe('Too many requests for this email address. Please try again in 15 minutes.');
    const resetMails = () => ctx.smtp.inbox.filter((m) => m.to.includes(school.email) && /Reset your/.test(m.subject)).length;
    await expect.poll(resetMails).toBe(3);
    await ctx.flushMail();
    expect(resetMails()).toBe(3);
    const queued = await ctx.database.db.execute(sql`select count(*)::int as n from mail_outbox where to_address = ${school.email} and kind = 'reset-password'`);
    expect(queued.rows[0]).toEqual({ n: 3 });

    const unknown = await Promise.all(
      Array.from({ length: 4 }, () => ctx.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'ghost@nowhere.test' }, remoteAddress: '203.0.113.200' })),
    );
    expect(unknown.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 429]);
  });

  it('one IP may ask for 20 recovery mails in 15 minutes, across addresses and across both kinds of link', async () => {
    const ip = '192.0.2.50';
    const ask = (url: string, i: number) => ctx.app.inject({ method: 'POST', url, payload: { email: `person${i}@ip-limit.test` }, remoteAddress: ip });
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push(await ask(i % 2 ? '/api/auth/resend-confirmation' : '/api/auth/forgot-password', i));
    expect(answers.slice(0, 20).every((a) => a.statusCode === 200)).toBe(true);
    expect(answers[20]!.statusCode).toBe(429);
    ctx.clock.advance(15 * 60_000);
    expect((await ask('/api/auth/forgot-password', 99)).statusCode).toBe(200);
    ctx.clock.advance(-15 * 60_000);
  });
});

describe('answers that do not reveal an account', () => {
  /** Median of several timed calls, alternating the two kinds so a busy machine slows both alike. */
  async function medians(calls: Array<() => Promise<{ statusCode: number; body: string }>>, rounds: number) {
    const times: number[][] = calls.map(() => []);
    const bodies: string[][] = calls.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let c = 0; c < calls.length; c++) {
        // let the mail of the previous call reach the in-process SMTP server first
        await new Promise((resolve) => setTimeout(resolve, 60));
        const started = performance.now();
        const res = await calls[c]!();
        times[c]!.push(performance.now() - started);
        bodies[c]!.push(`${res.statusCode} ${res.body}`);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return { medians: times.map(median), bodies };
  }

  it('forgot-password and resend-confirmation answer a real and an unknown address alike and in the same time', async () => {
    const school = await signUpSchool(ctx);
    await client(ctx.app).post('/api/school-registration', { schoolName: 'Unconfirmed School', email: 'waiting@school.test', phone: '9999999999', password: 'Waiting-pass-12' });
    let n = 0;
    // a fresh IP each call keeps the per-IP limit out of the measurement; the clock moves past the per-address window
    const call = (url: string, email: string) => () => {
      n += 1;
      ctx.clock.advance(16 * 60_000);
      return ctx.app.inject({ method: 'POST', url, payload: { email }, remoteAddress: `10.9.${Math.floor(n / 250)}.${n % 250}` });
    };
    for (const [url, real] of [
      ['/api/auth/forgot-password', school.email],
      ['/api/auth/resend-confirmation', 'waiting@school.test'],
    ] as const) {
      const { medians: [realMs, unknownMs], bodies } = await medians([call(url, real), call(url, `nobody-${url.length}@nowhere.test`)], 9);
      expect(new Set([...bodies[0]!, ...bodies[1]!]).size).toBe(1);
      expect(bodies[0]![0]).toMatch(/^200 /);
      // generous for a loaded machine, yet far below what the old answers showed (SMTP and the token written only for a real address)
      expect(Math.abs(realMs! - unknownMs!)).toBeLessThan(60);
    }
    ctx.clock.advance(-n * 16 * 60_000);
  });
});
describe('forgot password in development', () => {
  it('a default development install hands the reset link only to a request from this machine', async () => {
    // SMTP_URL unset: the app would use the outbox (the harness still delivers to its test server)
    const dev = await createTestApp({ env: { NODE_ENV: 'development', SMTP_URL: '' } });
    const withSmtp = await createTestApp({ env: { NODE_ENV: 'development' } });
    try {
      const other = await signUpSchool(withSmtp);
      expect((await client(withSmtp.app).post('/api/auth/forgot-password', { email: other.email })).json()).not.toHaveProperty('resetToken');

      const school = await signUpSchool(dev);
      const ask = (remoteAddress: string, headers: Record<string, string> = {}) => {
        dev.clock.advance(16 * 60_000); // past the limit of three links per address
        return dev.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: school.email }, remoteAddress, headers });
      };
      const remote = await ask('203.0.113.5');
      expect(remote.statusCode).toBe(200);
      expect(remote.json()).toEqual({ message: FORGOT });
      // a forged forwarding header does not make a remote request local, nor does a local proxy in front
      expect((await ask('203.0.113.5', { 'x-forwarded-for': '127.0.0.1' })).json()).toEqual({ message: FORGOT });
      expect((await ask('127.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).json()).toEqual({ message: FORGOT });

      const res = (await ask('127.0.0.1')).json();
      expect(res.resetToken).toEqual(expect.any(String));
      expect(res.resetUrl).toBe(`http://school.test/reset-password?token=${encodeURIComponent(res.resetToken)}`);
      const reset = await client(dev.app).post('/api/auth/reset-password', { token: res.resetToken, newPassword: 'Dev-reset-2026' });
      expect(reset.statusCode).toBe(200);
    } finally {
      await dev.close();
      await withSmtp.close();
    }
  });
});

describe('resending the confirmation', () => {
  it('mails a new working link to an unconfirmed address only', async () => {
    const api = client(ctx.app);
    await api.post('/api/school-registration', { schoolName: 'Late Confirmers', email: 'late@school.test', phone: '9999999999', password: 'Late-confirm-1' });
    await ctx.smtp.waitFor('late@school.test', /Confirm/);
    const count = ctx.smtp.inbox.filter((m) => m.to.includes('late@school.test')).length;
    const res = await api.post('/api/auth/resend-confirmation', { email: 'late@school.test' });
    expect(res.json().message).toBe('If that address is waiting for confirmation, we have sent a new confirmation link.');
    await expect.poll(() => ctx.smtp.inbox.filter((m) => m.to.includes('late@school.test')).length).toBe(count + 1);
    const newest = await ctx.smtp.waitFor('late@school.test', /Confirm/);
    expect((await api.post('/api/auth/confirm-email', { token: tokenOf(newest.links[0]!) })).statusCode).toBe(200);
    expect((await api.post('/api/auth/login', { email: 'late@school.test', password: 'Late-confirm-1' })).statusCode).toBe(200);
  });
});
