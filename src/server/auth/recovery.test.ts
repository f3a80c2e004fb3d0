import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

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

    const reset = await api.post('/api/auth/reset-password', { token: tokenOf(mail.links[0]!), newPassword: 'Fresh123' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe('Password reset successful. You can now sign in with your new password.');

    expect((await otherDevice.get('/api/auth/me')).statusCode).toBe(401);
    expect((await api.post('/api/auth/login', { email: school.email, password: school.password })).statusCode).toBe(401);
    expect((await api.post('/api/auth/login', { email: school.email, password: 'Fresh123' })).statusCode).toBe(200);

    const reuse = await api.post('/api/auth/reset-password', { token: tokenOf(mail.links[0]!), newPassword: 'Another123' });
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
    const res = await client(ctx.app).post('/api/auth/reset-password', { token: tokenOf(mail.links[0]!), newPassword: 'Fresh123' });
    ctx.clock.advance(-61 * 60_000);
    expect(res.statusCode).toBe(400);
  });

  it('checks the new password length with the spec message', async () => {
    const res = await client(ctx.app).post('/api/auth/reset-password', { token: 'whatever', newPassword: '12345' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Password must be at least 6 characters long');
  });
});

describe('forgot password in development', () => {
  it('also answers with the token and the reset link when there is no mail server', async () => {
    // SMTP_URL unset: the app would use the outbox (the harness still delivers to its test server)
    const dev = await createTestApp({ env: { NODE_ENV: 'development', SMTP_URL: '' } });
    const withSmtp = await createTestApp({ env: { NODE_ENV: 'development' } });
    try {
      const other = await signUpSchool(withSmtp);
      expect((await client(withSmtp.app).post('/api/auth/forgot-password', { email: other.email })).json()).not.toHaveProperty('resetToken');
      const school = await signUpSchool(dev);
      const res = (await client(dev.app).post('/api/auth/forgot-password', { email: school.email })).json();
      expect(res.resetToken).toEqual(expect.any(String));
      expect(res.resetUrl).toBe(`http://school.test/reset-password?token=${encodeURIComponent(res.resetToken)}`);
      const reset = await client(dev.app).post('/api/auth/reset-password', { token: res.resetToken, newPassword: 'DevReset1' });
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
    await api.post('/api/school-registration', { schoolName: 'Late Confirmers', email: 'late@school.test', phone: '9999999999', password: 'secret1' });
    await ctx.smtp.waitFor('late@school.test', /Confirm/);
    const count = ctx.smtp.inbox.filter((m) => m.to.includes('late@school.test')).length;
    const res = await api.post('/api/auth/resend-confirmation', { email: 'late@school.test' });
    expect(res.json().message).toBe('If that address is waiting for confirmation, we have sent a new confirmation link.');
    await expect.poll(() => ctx.smtp.inbox.filter((m) => m.to.includes('late@school.test')).length).toBe(count + 1);
    const newest = await ctx.smtp.waitFor('late@school.test', /Confirm/);
    expect((await api.post('/api/auth/confirm-email', { token: tokenOf(newest.links[0]!) })).statusCode).toBe(200);
    expect((await api.post('/api/auth/login', { email: 'late@school.test', password: 'secret1' })).statusCode).toBe(200);
  });
});
