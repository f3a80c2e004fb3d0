import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions } from '../db/schema';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';
import { SessionCache, type CheckedSession } from './session-cache';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('the remembered session check', () => {
  it('refuses a session revoked by another process once the check is ten seconds old', async () => {
    const school = await signUpSchool(ctx);
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(200);
    // another app process sharing the database signs this session out
    await ctx.database.db.update(authSessions).set({ revokedAt: ctx.clock.now() }).where(eq(authSessions.userId, school.userId));
    ctx.clock.advance(5_000);
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(200);
    ctx.clock.advance(5_000);
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('refuses a session signed out through this process at once', async () => {
    const school = await signUpSchool(ctx);
    expect((await school.api.get('/api/students')).statusCode).toBe(200);
    expect((await school.api.post('/api/auth/logout', {})).statusCode).toBe(200);
    expect((await school.api.get('/api/students')).statusCode).toBe(401);
  });

  it('signs out the other sessions at once when the password changes', async () => {
    const school = await signUpSchool(ctx);
    const other = await signInAgain(school.email, school.password);
    expect((await other.get('/api/auth/me')).statusCode).toBe(200);
    const changed = await school.api.post('/api/auth/change-password', { currentPassword: school.password, newPassword: 'Another123' });
    expect(changed.statusCode).toBe(200);
    expect((await other.get('/api/auth/me')).statusCode).toBe(401);
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('judges the session expiry on every request, not only when it checks the database', async () => {
    const school = await signUpSchool(ctx);
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(authSessions).where(eq(authSessions.userId, school.userId));
    ctx.clock.set(new Date(row!.expiresAt.getTime() + 1));
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(401);
  });
});

async function signInAgain(email: string, password: string) {
  const login = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const token = (login.json() as { token: string }).token;
  return { get: (url: string) => ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }) };
}

describe('SessionCache', () => {
  const checked = (sid: string, userId: string, schoolId: string): CheckedSession => ({
    payload: { sid, uid: userId, schoolId, role: 'school_admin', kind: 'session' },
    userId,
    schoolRole: 'owner',
    email: `${userId}@school.test`,
    role: 'school_admin',
    schoolId,
    sessionExpiresAt: new Date('2026-12-01T00:00:00Z'),
    school: null,
  });
  const now = new Date('2026-11-22T10:00:00Z');

  it('does not keep what a check read while a revocation happened', () => {
    const cache = new SessionCache();
    const generation = cache.mark();
    cache.forgetUser('someone-else');
    cache.set('token-a', checked('s1', 'u1', 'school-1'), now, generation);
    expect(cache.get('token-a', now)).toBeNull();
    cache.set('token-a', checked('s1', 'u1', 'school-1'), now, cache.mark());
    expect(cache.get('token-a', now)?.userId).toBe('u1');
  });

  it('forgets by session, user and school', () => {
    const cache = new SessionCache();
    cache.set('a', checked('s1', 'u1', 'school-1'), now, cache.mark());
    cache.set('b', checked('s2', 'u2', 'school-1'), now, cache.mark());
    cache.set('c', checked('s3', 'u3', 'school-2'), now, cache.mark());
    cache.set('d', checked('s4', 'u4', 'school-3'), now, cache.mark());
    cache.forgetSession('s1');
    expect(cache.get('a', now)).toBeNull();
    cache.forgetSchool('school-1');
    expect(cache.get('b', now)).toBeNull();
    expect(cache.get('c', now)?.userId).toBe('u3');
    cache.forgetUser('u3');
    expect(cache.get('c', now)).toBeNull();
    expect(cache.get('d', now)?.userId).toBe('u4');
  });

  it('keeps at most its limit, dropping the oldest', () => {
    const cache = new SessionCache(10_000, 2);
    for (const t of ['a', 'b', 'c']) cache.set(t, checked(t, t, 'school'), now, cache.mark());
    expect([cache.get('a', now), cache.get('b', now)?.userId, cache.get('c', now)?.userId]).toEqual([null, 'b', 'c']);
  });

  it('checks again after its time to live, or when the clock runs backwards', () => {
    const cache = new SessionCache(10_000);
    cache.set('a', checked('s', 'u', 'school'), now, cache.mark());
    expect(cache.get('a', new Date(now.getTime() + 9_999))?.userId).toBe('u');
    expect(cache.get('a', new Date(now.getTime() + 10_000))).toBeNull();
    cache.set('a', checked('s', 'u', 'school'), now, cache.mark());
    expect(cache.get('a', new Date(now.getTime() - 1))).toBeNull();
  });
});
