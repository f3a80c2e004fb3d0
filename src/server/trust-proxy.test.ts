import { desc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { auditLog, loginEvents } from './db/schema';
import { createTestApp, signUpSchool, type TestContext } from './test/harness';

/**
 * Issue "Trust before launch", item 17: with `trustProxy: true` anyone could write the address the
 * audit log and the sign-in history record by sending X-Forwarded-For. Requests here come from
 * 127.0.0.1 (the injected socket) and claim to be 203.0.113.9.
 */

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

const FORGED = { 'x-forwarded-for': '203.0.113.9' };

async function recordedAddresses(env: Record<string, string>) {
  ctx = await createTestApp({ env });
  const school = await signUpSchool(ctx);
  // a failed sign-in and an audited write, each claiming another address
  await ctx.app.inject({ method: 'POST', url: '/api/auth/login', headers: FORGED, payload: { email: school.email, password: 'wrong-password' } });
  const write = await ctx.app.inject({
    method: 'POST',
    url: '/api/academic-sessions',
    headers: { ...FORGED, authorization: `Bearer ${school.token}` },
    payload: { sessionName: '2027-2028', startDate: '2027-04-01', endDate: '2028-03-31' },
  });
  expect(write.statusCode).toBe(201);
  const db = ctx.database.db;
  const [signIn] = await db.select({ ip: loginEvents.ip }).from(loginEvents).where(eq(loginEvents.success, false)).orderBy(desc(loginEvents.createdAt)).limit(1);
  const [audit] = await db.select({ ip: auditLog.ip }).from(auditLog).where(eq(auditLog.action, 'academic_session.create')).limit(1);
  return { signIn: signIn?.ip, audit: audit?.ip };
}

describe('the client address behind a proxy', () => {
  it('X-Forwarded-For is ignored by default: the audit log and sign-in history keep the connecting address', async () => {
    expect(await recordedAddresses({})).toEqual({ signIn: '127.0.0.1', audit: '127.0.0.1' });
  });

  it('is honoured from the proxies TRUST_PROXY names, by hop count or by address', async () => {
    expect(await recordedAddresses({ TRUST_PROXY: '1' })).toEqual({ signIn: '203.0.113.9', audit: '203.0.113.9' });
    await ctx?.close();
    ctx = undefined;
    expect(await recordedAddresses({ TRUST_PROXY: '127.0.0.1' })).toEqual({ signIn: '203.0.113.9', audit: '203.0.113.9' });
  });

  it('is ignored when the connecting address is not one of the named proxies', async () => {
    expect(await recordedAddresses({ TRUST_PROXY: '10.0.0.0/8' })).toEqual({ signIn: '127.0.0.1', audit: '127.0.0.1' });
  });
});
