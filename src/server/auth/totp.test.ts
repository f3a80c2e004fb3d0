import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, type TestContext } from '../test/harness';
import { ensureMasterAdmin } from './master-admin';
import { base32Decode, base32Encode, hotp, totpCode, verifyTotp } from './totp';

describe('RFC 6238 codes', () => {
  const key = Buffer.from('12345678901234567890');
  it('match the RFC test vectors (HMAC-SHA1, 8 digits)', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
    ];
    for (const [seconds, code] of vectors) expect(hotp(key, Math.floor(seconds / 30), 8)).toBe(code);
  });

  it('reads base32 as apps show it and writes it back', () => {
    expect(base32Encode(key)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq')).toEqual(key);
    expect(base32Decode('not base32!')).toBeNull();
  });

  it('accepts the step before and after, refuses older codes and a code already used', () => {
    const secret = base32Encode(key);
    const now = new Date(1_111_111_111_000);
    expect(totpCode(secret, now)).toBe('050471');
    expect(verifyTotp(secret, '050471', now)).toBe(37037037);
    expect(verifyTotp(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now)).toBe(37037036);
    expect(verifyTotp(secret, totpCode(secret, new Date(now.getTime() - 90_000)), now)).toBeNull();
    expect(verifyTotp(secret, '050471', now, 37037037)).toBeNull();
    expect(verifyTotp(secret, '12345', now)).toBeNull();
  });
});

describe('two-step sign-in for the master administrator', () => {
  let ctx: TestContext;
  const master = { email: 'master@ledger.test', password: 'MasterPass123' };
  beforeAll(async () => {
    ctx = await createTestApp({ now: new Date('2026-11-22T06:00:00.000Z') });
    await ensureMasterAdmin(ctx.database.db, { ...master, now: ctx.clock.now() });
  });
  afterAll(() => ctx.close());

  const signIn = (body: Record<string, unknown>, ip = '10.1.0.1') =>
    ctx.app.inject({ method: 'POST', url: '/api/auth/admin-login', payload: { ...master, ...body }, remoteAddress: ip });

  it('enrols with a confirming code, then asks every sign-in for a fresh code; a wrong code counts in the throttle', async () => {
    const token = (await signIn({})).json().token as string;
    const api = client(ctx.app, token);
    expect((await api.get('/api/admin/totp')).json()).toEqual({ enabled: false, enabledAt: null, pending: false });

    const enrol = (await api.post('/api/admin/totp/enrol')).json() as { secret: string; otpauthUrl: string };
    expect(enrol.otpauthUrl).toBe(`otpauth://totp/School%20Ledger:master%40ledger.test?secret=${enrol.secret}&issuer=School+Ledger&algorithm=SHA1&digits=6&period=30`);
    // until confirmed, the password alone still signs in
    expect((await signIn({})).statusCode).toBe(200);

    const wrong = await api.post('/api/admin/totp/confirm', { code: '000000' === totpCode(enrol.secret, ctx.clock.now()) ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('That code is not right. Enter the 6-digit code your authenticator app shows now.');
    expect((await api.post('/api/admin/totp/confirm', { code: 'abc' })).json().error).toBe('Enter the 6-digit code');

    const confirmed = await api.post('/api/admin/totp/confirm', { code: totpCode(enrol.secret, ctx.clock.now()) });
    expect(confirmed.json()).toMatchObject({ enabled: true, pending: false });
    expect((await api.post('/api/admin/totp/enrol')).statusCode).toBe(409);

    // the secret is kept encrypted, not as the base32 text
    const stored = await ctx.database.db.query.userTotp.findFirst();
    expect(stored!.secretCipher).not.toContain(enrol.secret);
    expect(stored!.secretCipher.startsWith('v1.')).toBe(true);

    const noCode = await signIn({});
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toMatchObject({ error: 'Enter the 6-digit code from your authenticator app.', totpRequired: true });

    // the confirming code was spent; the next step's code works once
    ctx.clock.advance(30_000);
    const code = totpCode(enrol.secret, ctx.clock.now());
    const ok = await signIn({ code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.role).toBe('master_admin');
    const replay = await signIn({ code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('That code is not right or was already used. Enter the code your authenticator app shows now.');

    // wrong codes from one place: four free tries, then the pair must wait (decision 0016)
    const ip = '10.1.0.9';
    for (let i = 0; i < 4; i++) expect((await signIn({ code: '999999' }, ip)).statusCode).toBe(401);
    const held = await signIn({ code: '999999' }, ip);
    expect(held.statusCode).toBe(401);
    const after = await signIn({ code: totpCode(enrol.secret, new Date(ctx.clock.now().getTime() + 30_000)) }, ip);
    expect(after.statusCode).toBe(429);
    expect(after.json().error).toMatch(/^Too many failed sign-in attempts/);
    const events = await ctx.database.db.query.loginEvents.findMany({ where: (e, { eq }) => eq(e.reason, 'bad_totp') });
    expect(events.length).toBeGreaterThanOrEqual(6);

    // a school administrator's token cannot reach the enrolment
    const school = await ctx.app.inject({ method: 'GET', url: '/api/admin/totp' });
    expect(school.statusCode).toBe(401);
  });

  it('turns off only with a current code and a reason, and audits it', async () => {
    ctx.clock.advance(120_000);
    const stored = await ctx.database.db.query.userTotp.findFirst();
    const secret = ctx.app.deps.cipher.decrypt(stored!.secretCipher);
    const token = (await signIn({ code: totpCode(secret, ctx.clock.now()) }, '10.1.0.2')).json().token as string;
    const api = client(ctx.app, token);
    ctx.clock.advance(30_000);
    expect((await api.post('/api/admin/totp/disable', { code: totpCode(secret, ctx.clock.now()) })).json().error).toBe('Please give a reason');
    expect((await api.post('/api/admin/totp/disable', { code: '123456', reason: 'new phone' })).statusCode).toBe(400);
    const off = await api.post('/api/admin/totp/disable', { code: totpCode(secret, ctx.clock.now()), reason: 'new phone' });
    expect(off.json()).toEqual({ enabled: false, enabledAt: null, pending: false });
    const rows = await ctx.database.db.query.auditLog.findMany({ where: (a, { like }) => like(a.action, 'totp.%') });
    expect(rows.map((r) => [r.action, r.after])).toEqual([
      ['totp.enable', null],
      ['totp.disable', { reason: 'new phone' }],
    ]);
    expect((await signIn({}, '10.1.0.3')).statusCode).toBe(200);
  });
});
