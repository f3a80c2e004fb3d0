import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';
import type { TokenPayload } from './tokens';

let ctx: TestContext;
let routes: Array<{ method: string; path: string }>;
beforeAll(async () => {
  ctx = await createTestApp();
  const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })));
});
afterAll(() => ctx.close());

const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');

/** Writes a school whose plan ended may still make (ruling 14): paying, its own account, and reads sent as POST. */
const ALLOWED_WHEN_EXPIRED = new Set([
  'POST /api/payments/create-subscription-order',
  'POST /api/payments/verify-subscription',
  'POST /api/payments/sandbox/checkout',
  'POST /api/auth/complete-onboarding',
  'POST /api/auth/change-password',
  'POST /api/auth/change-email',
  'POST /api/students/{id}/reveal-aadhaar',
  'POST /api/generate-receipt-number',
  // ruling 25: the school's data stays its own to take away
  'POST /api/exports',
]);
/** Signed in differently or not at all: not a school session's business. */
const notSchoolRoutes = (method: string, path: string) =>
  path.startsWith('/api/admin') ||
  path.startsWith('/api/pay/') ||
  [
    'POST /api/school-registration',
    'POST /api/auth/login',
    'POST /api/auth/admin-login',
    'POST /api/auth/remember-login',
    'POST /api/auth/confirm-email',
    'POST /api/auth/confirm-email-change',
    'POST /api/auth/resend-confirmation',
    'POST /api/auth/forgot-password',
    'POST /api/auth/reset-password',
    // an invitee setting a password from the mailed link (ruling 32) has no session yet
    'POST /api/staff/accept-invite',
    'POST /api/payments/webhook',
    // providers' delivery reports of reminder messages, not a school's session
    'POST /api/messages/webhook/whatsapp',
    'POST /api/messages/webhook/sms/{token}',
    // would end the very session the sweep uses
    'POST /api/auth/logout',
  ].includes(`${method} ${path}`);

async function expiredSession() {
  const school = await signUpSchool(ctx);
  ctx.clock.advanceDays(6);
  const login = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password });
  return { school, login };
}

describe('proving who pays (ruling 29) with the read-only session of ruling 14', () => {
  it('a school id alone yields no token: the old quick-login route is gone (404)', async () => {
    const school = await signUpSchool(ctx);
    const tries = await Promise.all(Array.from({ length: 25 }, () => client(ctx.app).post('/api/auth/quick-login', { schoolId: school.schoolId })));
    expect(tries.map((r) => r.statusCode)).toEqual(Array(25).fill(404));
    expect(tries.some((r) => r.body.includes('token'))).toBe(false);
    expect(routes.some((r) => r.path.includes('quick'))).toBe(false);
  });

  it('a payment-only token issued before the change is not accepted as a session', async () => {
    const school = await signUpSchool(ctx);
    const now = ctx.clock.now();
    const [row] = await ctx.database.db
      .insert(authSessions)
      .values({ userId: school.userId, schoolId: school.schoolId, kind: 'quick' as 'session', createdAt: now, expiresAt: new Date(now.getTime() + 900_000) })
      .returning();
    const payload = { sid: row!.id, uid: school.userId, schoolId: school.schoolId, role: 'school_admin', kind: 'quick' } as unknown as TokenPayload;
    const token = await ctx.app.deps.tokens.sign(payload, new Date(now.getTime() + 900_000), now);
    const api = client(ctx.app, token);
    expect((await api.get('/api/auth/me')).statusCode).toBe(401);
    expect((await api.post('/api/payments/create-subscription-order', { planType: 'basic' })).statusCode).toBe(401);
  });

  it('an ended trial signs in with its password to a read-only session: 200 with requiresPayment and schoolId', async () => {
    const { school, login } = await expiredSession();
    try {
      expect(login.statusCode).toBe(200);
      expect(login.json()).toMatchObject({ success: true, requiresPayment: true, schoolId: school.schoolId, school: { isExpired: true } });
      expect(typeof login.json().token).toBe('string');
      // a wrong password still gets nothing
      const wrong = await client(ctx.app).post('/api/auth/login', { email: school.email, password: 'Wrong12345' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).not.toHaveProperty('schoolId');
      // a remember-me sign-in is read-only the same way
      ctx.clock.advanceDays(-6);
      const remembered = await client(ctx.app).post('/api/auth/login', { email: school.email, password: school.password, rememberMe: true });
      ctx.clock.advanceDays(6);
      const again = await client(ctx.app).post('/api/auth/remember-login', { rememberToken: remembered.json().rememberToken });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ requiresPayment: true, schoolId: school.schoolId });
    } finally {
      ctx.clock.advanceDays(-6);
    }
  });

  it('every school write answers 402 to a read-only session, and every read keeps working', async () => {
    const { login } = await expiredSession();
    try {
      const token = login.json().token as string;
      const wrong: string[] = [];
      let writes = 0;
      for (const { method, path } of routes) {
        if (notSchoolRoutes(method, path)) continue;
        const res = await ctx.app.inject({
          method: method as 'GET',
          url: concrete(path),
          headers: { authorization: `Bearer ${token}` },
          ...(method === 'GET' ? {} : { payload: {} }),
        });
        const key = `${method} ${path}`;
        if (method === 'GET') {
          if (res.statusCode === 402 || res.statusCode === 401) wrong.push(`${key} → ${res.statusCode} (a read must work)`);
        } else if (ALLOWED_WHEN_EXPIRED.has(key)) {
          if (res.statusCode === 402) wrong.push(`${key} → 402 (allowed when expired)`);
        } else {
          writes += 1;
          if (res.statusCode !== 402) wrong.push(`${key} → ${res.statusCode} (a write must answer 402)`);
          else expect(res.json()).toMatchObject({ requiresPayment: true });
        }
      }
      expect(wrong).toEqual([]);
      expect(writes).toBeGreaterThan(20);
    } finally {
      ctx.clock.advanceDays(-6);
    }
  });
});
