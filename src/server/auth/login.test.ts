import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMasterAdmin } from './master-admin';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMasterAdmin(ctx.database.db, { email: 'master@ledger.test', password: 'MasterPass123', now: ctx.clock.now() });
});
afterAll(() => ctx.close());

describe('sign-in', () => {
  it('answers a wrong password and an unknown email alike', async () => {
    const school = await signUpSchool(ctx);
    const api = client(ctx.app);
    const wrong = await api.post('/api/auth/login', { email: school.email, password: 'nope-nope' });
    const unknown = await api.post('/api/auth/login', { email: 'ghost@school.test', password: 'nope-nope' });
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json().error).toBe('Invalid email or password');
    expect(unknown.json().error).toBe('Invalid email or password');
  });

  it('needs both fields', async () => {
    const res = await client(ctx.app).post('/api/auth/login', { email: '', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Please enter both email and password');
  });

  it('sends a master administrator to the admin portal, and keeps school administrators out of it', async () => {
    const api = client(ctx.app);
    const onSchoolLogin = await api.post('/api/auth/login', { email: 'master@ledger.test', password: 'MasterPass123' });
    expect(onSchoolLogin.statusCode).toBe(403);
    expect(onSchoolLogin.json()).toMatchObject({ adminLogin: true, error: 'Master administrators must use the dedicated admin portal.' });

    const admin = await api.post('/api/auth/admin-login', { email: 'master@ledger.test', password: 'MasterPass123' });
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toMatchObject({ success: true, user: { role: 'master_admin', schoolId: null } });

    const school = await signUpSchool(ctx);
    const refused = await api.post('/api/auth/admin-login', { email: school.email, password: school.password });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('This portal is for master administrators. School administrators sign in at /login.');
  });

  it('revokes the token on the server at logout', async () => {
    const school = await signUpSchool(ctx);
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(200);
    const out = await school.api.post('/api/auth/logout');
    expect(out.json().message).toBe('Logged out successfully');
    const after = await school.api.get('/api/auth/me');
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('Authentication required');
  });

  it('refuses a tampered or foreign token', async () => {
    const school = await signUpSchool(ctx);
    const [h, p] = school.token.split('.');
    const forged = `${h}.${p}.invalidsignature`;
    expect((await client(ctx.app, forged).get('/api/auth/me')).statusCode).toBe(401);
    expect((await client(ctx.app, 'not-a-token').get('/api/auth/me')).statusCode).toBe(401);
  });

  it('expires a session after 24 hours', async () => {
    const school = await signUpSchool(ctx);
    ctx.clock.advance(24 * 60 * 60_000 + 1000);
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(401);
    ctx.clock.advance(-(24 * 60 * 60_000 + 1000));
  });

  it('exchanges a remember-me token for a new session until it is revoked at logout', async () => {
    const school = await signUpSchool(ctx);
    const api = client(ctx.app);
    const login = (await api.post('/api/auth/login', { email: school.email, password: school.password, rememberMe: true })).json();
    expect(login.rememberToken).toEqual(expect.any(String));
    // the remember token itself is not a bearer token
    expect((await client(ctx.app, login.rememberToken).get('/api/auth/me')).statusCode).toBe(401);

    const renewed = await api.post('/api/auth/remember-login', { rememberToken: login.rememberToken });
    expect(renewed.statusCode).toBe(200);
    expect((await client(ctx.app, renewed.json().token).get('/api/auth/me')).json().user.email).toBe(school.email);

    await client(ctx.app, renewed.json().token).post('/api/auth/logout', { rememberToken: renewed.json().rememberToken });
    const again = await api.post('/api/auth/remember-login', { rememberToken: renewed.json().rememberToken });
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe('Your saved sign-in has expired. Please sign in again.');
  });

  it('a remember-me token works once: each use answers with a new one and the old one stops working', async () => {
    const school = await signUpSchool(ctx);
    const api = client(ctx.app);
    const first = (await api.post('/api/auth/login', { email: school.email, password: school.password, rememberMe: true })).json().rememberToken;
    const renewed = await api.post('/api/auth/remember-login', { rememberToken: first });
    expect(renewed.statusCode).toBe(200);
    const second = renewed.json().rememberToken as string;
    expect(second).toEqual(expect.any(String));
    expect(second).not.toBe(first);

    const replay = await api.post('/api/auth/remember-login', { rememberToken: first });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('Your saved sign-in has expired. Please sign in again.');
    expect((await api.post('/api/auth/remember-login', { rememberToken: second })).statusCode).toBe(200);
  });

  it('sign-out with no body revokes the session and the remember-me token it was opened with', async () => {
    const school = await signUpSchool(ctx);
    const login = (await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password, rememberMe: true })).json();
    const bearer = { authorization: `Bearer ${login.token}` };
    expect((await client(ctx.app, login.token).get('/api/auth/me')).statusCode).toBe(200);

    const out = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'Logged out successfully' });
    expect((await client(ctx.app, login.token).get('/api/auth/me')).statusCode).toBe(401);
    expect((await client(ctx.app).post('/api/auth/remember-login', { rememberToken: login.rememberToken })).statusCode).toBe(401);
  });

  it('sign-out with an empty JSON body revokes the session too', async () => {
    const school = await signUpSchool(ctx);
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${school.token}`, 'content-type': 'application/json' },
      payload: '',
    });
    expect(out.statusCode).toBe(200);
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('records first-login onboarding as done', async () => {
    const school = await signUpSchool(ctx);
    expect((await school.api.get('/api/auth/me')).json().user).toMatchObject({ hasSeenOnboarding: false, isFirstLogin: true });
    const done = await school.api.post('/api/auth/complete-onboarding');
    expect(done.json().user).toMatchObject({ hasSeenOnboarding: true, isFirstLogin: false });
  });
});

describe('the trial clock', () => {
  it('counts five days from confirmation, then answers 402 to writes while sign-in and reads still work', async () => {
    const school = await signUpSchool(ctx, { schoolName: 'Clockwork Public School' });
    const status = await school.api.get('/api/trial-status');
    expect(status.json()).toMatchObject({ status: 'trial', isExpired: false, daysRemaining: 5, plan: 'standard' });

    // an hour before the trial ends the administrator signs in again (sessions last a day)
    ctx.clock.advance(5 * 86_400_000 - 3_600_000);
    const late = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
    expect(late.statusCode).toBe(200);
    expect(late.json().school.daysRemaining).toBe(1);
    school.api = client(ctx.app, late.json().token);
    ctx.clock.advance(2 * 3_600_000);

    const expired = await school.api.get('/api/trial-status');
    expect(expired.statusCode).toBe(200);
    expect(expired.json()).toMatchObject({ isExpired: true, daysRemaining: 0 });

    const write = await school.api.put('/api/schools/update-info', { name: 'New Name', phone: '', address: '', schoolCode: 'CPS1' });
    expect(write.statusCode).toBe(402);
    expect(write.json()).toMatchObject({ requiresPayment: true, schoolId: school.schoolId });
    expect(write.json().error).toMatch(/renew your plan/);

    // ruling 14: the right password still signs in, to a read-only session
    const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ requiresPayment: true, schoolId: school.schoolId, school: { name: 'Clockwork Public School', isExpired: true } });
    ctx.clock.advance(-(5 * 86_400_000 + 3_600_000));
  });
});

describe('the master administrator routes', () => {
  it('lists schools and users to the master administrator only', async () => {
    const school = await signUpSchool(ctx, { schoolName: 'Listed School' });
    expect((await school.api.get('/api/admin/schools')).statusCode).toBe(403);
    const token = (await client(ctx.app).post('/api/auth/admin-login', { email: 'master@ledger.test', password: 'MasterPass123' })).json().token;
    const master = client(ctx.app, token);
    const list = (await master.get('/api/admin/schools')).json() as Array<{ name: string; subscriptionStatus: string; trialStatus: unknown }>;
    expect(list.find((s) => s.name === 'Listed School')).toMatchObject({ subscriptionStatus: 'trial', trialStatus: { isExpired: false, daysRemaining: 5 } });
    const users = (await master.get('/api/admin/users')).json() as Array<{ email: string; role: string; schoolName: string | null }>;
    expect(users.find((u) => u.email === school.email)).toMatchObject({ role: 'school_admin', schoolName: 'Listed School' });
    expect(users.find((u) => u.email === 'master@ledger.test')).toMatchObject({ role: 'master_admin', schoolName: null });
  });

  it('keeps a master administrator out of school routes', async () => {
    const token = (await client(ctx.app).post('/api/auth/admin-login', { email: 'master@ledger.test', password: 'MasterPass123' })).json().token;
    const res = await client(ctx.app, token).get('/api/trial-status');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/School Admin Access Required/);
  });
});

describe('the HTTP surface', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const res = await client(ctx.app).get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('No route for GET /api/nothing-here');
  });

  it('serves the API reference generated from the route schemas', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const p of ['/api/auth/login', '/api/school-registration', '/api/auth/reset-password', '/api/plans', '/api/schools/update-info']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('email');
  });

  it('serves the plan catalogue of ruling 11 in rupees', async () => {
    const plans = (await client(ctx.app).get('/api/plans')).json();
    expect(plans.map((p: { id: string; monthlyPrice: string; yearlyPrice: string; studentLimit: unknown; recommended: boolean }) => [p.id, p.monthlyPrice, p.yearlyPrice, p.studentLimit, p.recommended])).toEqual([
      ['basic', '250.00', '3000.00', 100, false],
      ['standard', '500.00', '6000.00', 500, true],
      ['premium', '1000.00', '12000.00', 'unlimited', false],
    ]);
  });

  it('sends security headers with a policy that allows the payment checkout script', async () => {
    const res = await client(ctx.app).get('/api/plans');
    expect(res.headers['content-security-policy']).toContain('script-src');
    expect(res.headers['content-security-policy']).toContain('https://checkout.razorpay.com');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
