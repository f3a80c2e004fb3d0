import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from './test/harness';

let ctx: TestContext;
let routes: Array<{ method: string; path: string }>;

/** Ruling 23: only these answer without a session token. */
const PUBLIC = new Set([
  'POST /api/school-registration',
  'POST /api/auth/login',
  'POST /api/auth/admin-login',
  'POST /api/auth/remember-login',
  'POST /api/auth/confirm-email',
  // the link mailed to the new address proves the inbox; the change was asked for with the password
  'POST /api/auth/confirm-email-change',
  'POST /api/auth/resend-confirmation',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'POST /api/auth/logout',
  // the single-use invitation token proves the inbox (ruling 32)
  'POST /api/staff/accept-invite',
  'GET /api/plans',
  // signed by the payment provider instead of a session (X-Razorpay-Signature)
  'POST /api/payments/webhook',
  // delivery reports of reminder messages: signed by Meta (X-Hub-Signature-256) or carrying the
  // gateway's secret path token; both answer 404 until configured (decision 0040)
  'GET /api/messages/webhook/whatsapp',
  'POST /api/messages/webhook/whatsapp',
  'POST /api/messages/webhook/sms/{token}',
]);
const isPublic = (method: string, path: string) => PUBLIC.has(`${method} ${path}`) || path.startsWith('/api/pay/');

beforeAll(async () => {
  ctx = await createTestApp();
  const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
  );
});
afterAll(() => ctx.close());

const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');

describe('every route that is not public needs a session', () => {
  it('answers 401 without a token', async () => {
    expect(routes.length).toBeGreaterThan(10);
    const open: string[] = [];
    for (const { method, path } of routes) {
      if (isPublic(method, path)) continue;
      const res = await ctx.app.inject({ method: method as 'GET', url: concrete(path), ...(method === 'GET' ? {} : { payload: {} }) });
      if (res.statusCode !== 401) open.push(`${method} ${path} → ${res.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it('answers 401 to a token that was revoked', async () => {
    const school = await signUpSchool(ctx);
    await school.api.post('/api/auth/logout');
    const open: string[] = [];
    for (const { method, path } of routes) {
      if (isPublic(method, path)) continue;
      const res = await ctx.app.inject({
        method: method as 'GET',
        url: concrete(path),
        headers: { authorization: `Bearer ${school.token}` },
        ...(method === 'GET' ? {} : { payload: {} }),
      });
      if (res.statusCode !== 401) open.push(`${method} ${path} → ${res.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it('never answers a 500 to an empty or malformed body', async () => {
    const school = await signUpSchool(ctx);
    const crashes: string[] = [];
    for (const { method, path } of routes) {
      if (method === 'GET' || path.includes('logout')) continue;
      for (const payload of ['{', '[]', '{"a":'.padEnd(50, 'x')]) {
        const res = await ctx.app.inject({
          method: method as 'POST',
          url: concrete(path),
          headers: { authorization: `Bearer ${school.token}`, 'content-type': 'application/json' },
          payload,
        });
        if (res.statusCode >= 500) crashes.push(`${method} ${path} ${payload.slice(0, 5)} → ${res.statusCode}`);
      }
    }
    expect(crashes).toEqual([]);
  });
});
