import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMasterAdmin } from '../auth/master-admin';
import { auditLog } from '../db/schema';
import { client, createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
let master: ReturnType<typeof client>;
let masterSessionId: string;
const MASTER = { email: 'master@ledger.test', password: 'MasterPass123' };
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36';

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T06:00:00.000Z') });
  await ensureMasterAdmin(ctx.database.db, { ...MASTER, now: ctx.clock.now() });
  const login = await client(ctx.app).post('/api/auth/admin-login', MASTER);
  master = client(ctx.app, login.json().token);
  masterSessionId = (await ctx.app.deps.tokens.verify(login.json().token, ctx.clock.now()))!.sid;
});
afterAll(() => ctx.close());

const signIn = (email: string, password: string, ip: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip, headers: { 'user-agent': BROWSER } });

describe('sign-in history', () => {
  it('lists sign-ins with IP and browser, newest first, filtered by result, address and India dates', async () => {
    const school = await signUpSchool(ctx);
    expect((await signIn(school.email, 'wrong-password-1', '203.0.113.7')).statusCode).toBe(401);
    expect((await signIn(school.email, school.password, '203.0.113.7')).statusCode).toBe(200);

    const failed = (await master.get(`/api/admin/security/sign-ins?result=failure&email=${encodeURIComponent(school.email)}`)).json();
    expect(failed.total).toBe(1);
    expect(failed.items[0]).toMatchObject({ email: school.email, success: false, reason: 'bad_credentials', ip: '203.0.113.7', userAgent: BROWSER, schoolName: school.schoolName });
    expect(failed.failedLastDay).toBeGreaterThanOrEqual(1);

    const all = (await master.get(`/api/admin/security/sign-ins?email=${encodeURIComponent(school.email)}`)).json();
    expect(all.items.map((i: { success: boolean }) => i.success)).toEqual([true, false, true]);

    // 06:00 UTC on 22 Nov is 22 Nov in India; nothing on 21 Nov
    expect((await master.get('/api/admin/security/sign-ins?from=2026-11-22&to=2026-11-22')).json().total).toBeGreaterThanOrEqual(3);
    expect((await master.get('/api/admin/security/sign-ins?from=2026-11-21&to=2026-11-21')).json().total).toBe(0);
    expect((await master.get('/api/admin/security/sign-ins?pageSize=1&page=2')).json()).toMatchObject({ page: 2, pageSize: 1 });
  });

  it('refuses bad filters with a clear 400', async () => {
    const cases: Array<[string, string]> = [
      ['/api/admin/security/sign-ins?from=2026-13-01', 'from must be a date written as YYYY-MM-DD'],
      ['/api/admin/security/sign-ins?from=2026-11-22&to=2026-11-01', 'From date must be on or before to date'],
      ['/api/admin/security/sign-ins?result=maybe', 'result must be success or failure'],
      ['/api/admin/security/sign-ins?page=0', 'page starts at 1'],
      ['/api/admin/audit-log?schoolId=42', 'schoolId must be a school id'],
      ['/api/admin/audit-log?to=yesterday', 'to must be a date written as YYYY-MM-DD'],
      ['/api/admin/audit-log?pageSize=500', 'pageSize must be 1 to 200'],
      ['/api/admin/security/sessions?schoolId=x', 'schoolId must be a school id'],
    ];
    for (const [url, message] of cases) {
      const res = await master.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toBe(message);
    }
  });
});

describe('sessions', () => {
  it('lists live sessions and revokes one at once (the session-check cache forgets it), audited with the reason', async () => {
    const school = await signUpSchool(ctx);
    // a request first, so the token's check is remembered (decision 0013)
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(200);
    const sessions = (await master.get(`/api/admin/security/sessions?schoolId=${school.schoolId}`)).json();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ email: school.email, role: 'school_admin', kind: 'session', schoolName: school.schoolName, current: false });
    const own = (await master.get('/api/admin/security/sessions')).json().find((s: { id: string }) => s.id === masterSessionId);
    expect(own.current).toBe(true);

    const url = `/api/admin/security/sessions/${sessions[0].id}/revoke`;
    expect((await master.post(url, {})).json().error).toBe('Please give a reason');
    const revoked = await master.post(url, { reason: 'lost laptop' });
    expect(revoked.json()).toEqual({ message: 'Session signed out' });
    expect((await school.api.get('/api/auth/me')).statusCode).toBe(401);
    expect((await master.post(url, { reason: 'again' })).statusCode).toBe(404);
    expect((await master.get(`/api/admin/security/sessions?schoolId=${school.schoolId}`)).json()).toEqual([]);

    const audit = (await master.get(`/api/admin/audit-log?schoolId=${school.schoolId}&action=session.revoke`)).json();
    expect(audit.total).toBe(1);
    expect(audit.items[0]).toMatchObject({ userEmail: MASTER.email, entityId: sessions[0].id, after: { reason: 'lost laptop' } });
  });
});

describe('locks', () => {
  it('shows the address+IP the throttle holds and unlocks it, audited', async () => {
    const school = await signUpSchool(ctx);
    const ip = '198.51.100.23';
    for (let i = 0; i < 5; i++) await signIn(school.email, `wrong-password-${i}`, ip);
    expect((await signIn(school.email, school.password, ip)).statusCode).toBe(429);

    const locks = (await master.get('/api/admin/security/locks')).json();
    const lock = locks.find((l: { ip: string | null; kind: string }) => l.ip === ip && l.kind === 'account-ip');
    expect(lock).toMatchObject({ email: school.email, failures: 5 });
    expect(new Date(lock.lockedUntil).getTime()).toBeGreaterThan(ctx.clock.now().getTime());
    expect((await master.get('/api/admin/system-health')).json().authentication.lockedCount).toBeGreaterThanOrEqual(1);

    expect((await master.post('/api/admin/security/locks/unlock', { key: lock.key })).statusCode).toBe(400);
    expect((await master.post('/api/admin/security/locks/unlock', { key: 'signin-ip:192.0.2.99', reason: 'x-ray' })).statusCode).toBe(404);
    expect((await master.post('/api/admin/security/locks/unlock', { key: lock.key, reason: 'called the office' })).json()).toEqual({ message: 'Unlocked' });
    expect((await signIn(school.email, school.password, ip)).statusCode).toBe(200);
    expect((await master.get('/api/admin/security/locks')).json().some((l: { key: string }) => l.key === lock.key)).toBe(false);

    const audit = (await master.get(`/api/admin/audit-log?action=signin.unlock&schoolId=${school.schoolId}`)).json();
    expect(audit.items[0]).toMatchObject({ entityId: lock.key, after: { reason: 'called the office', email: school.email, ip } });
  });
});

describe('audit log', () => {
  it('filters by school, acting user, action and India date, with paging and the list of actions', async () => {
    const a = await signUpSchool(ctx);
    const b = await signUpSchool(ctx);
    await ctx.database.db.insert(auditLog).values([
      { schoolId: a.schoolId, userId: a.userId, action: 'expense.create', entity: 'expense', entityId: 'e1', createdAt: new Date('2026-11-20T20:00:00Z') },
      { schoolId: a.schoolId, userId: a.userId, action: 'receipt.cancel', entity: 'receipt', entityId: 'r1', createdAt: new Date('2026-11-21T10:00:00Z') },
      { schoolId: b.schoolId, userId: b.userId, action: 'receipt.cancel', entity: 'receipt', entityId: 'r2', createdAt: new Date('2026-11-21T11:00:00Z') },
    ]);
    const ids = (q: string) => master.get(`/api/admin/audit-log?${q}`).then((r) => r.json().items.map((i: { entityId: string }) => i.entityId));
    expect(await ids(`schoolId=${a.schoolId}`)).toEqual(['r1', 'e1']);
    expect(await ids(`action=receipt.cancel&schoolId=${b.schoolId}`)).toEqual(['r2']);
    expect(await ids(`user=${encodeURIComponent(b.email.toUpperCase())}`)).toEqual(['r2']);
    // 20:00 UTC on 20 Nov is 01:30 on 21 Nov in India
    expect(await ids(`schoolId=${a.schoolId}&from=2026-11-21&to=2026-11-21`)).toEqual(['r1', 'e1']);
    expect(await ids(`schoolId=${a.schoolId}&to=2026-11-20`)).toEqual([]);
    const page = (await master.get(`/api/admin/audit-log?schoolId=${a.schoolId}&pageSize=1&page=2`)).json();
    expect(page).toMatchObject({ total: 2, page: 2, pageSize: 1, items: [{ entityId: 'e1', schoolName: a.schoolName }] });
    expect((await master.get('/api/admin/audit-log/actions')).json()).toEqual(expect.arrayContaining(['expense.create', 'receipt.cancel']));
  });
});
