import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, type TestContext } from '../test/harness';
import { seedDemoSchool, type DemoResult } from './seed-demo';

/**
 * `npm run seed:demo` writes a school through the API as a clerk would: it must keep working as the
 * rules tighten (ruling 26 refuses overpayment; creating a session no longer promotes anyone).
 */

let ctx: TestContext;
let demo: DemoResult;
beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2026-11-22T06:00:00.000Z') });
  demo = await seedDemoSchool(ctx.app, ctx.database.db, {
    email: 'principal@demo.test',
    password: 'a demo password 123',
    schoolName: 'Demo School',
    students: 30,
    now: ctx.clock.now(),
    log: () => {},
  });
}, 240_000);
afterAll(() => ctx.close());

describe('the demo school', () => {
  it('is written in full: last year rolled over by a start, this year\'s fees, balances carried and partly cleared', async () => {
    expect(demo.students).toBeGreaterThan(25);
    expect(demo.receipts).toBeGreaterThan(30);
    const login = await client(ctx.app).post('/api/auth/login', { email: demo.email, password: demo.password });
    const api = client(ctx.app, login.json().token);
    const sessions = (await api.get('/api/academic-sessions')).json() as Array<{ sessionName: string; isActive: boolean; isPromotionCompleted: boolean }>;
    expect(sessions.map((s) => [s.sessionName, s.isActive, s.isPromotionCompleted])).toEqual([
      ['2026-2027', true, true],
      ['2025-2026', false, false],
    ]);
    const balances = (await api.get('/api/student-previous-balances?includeSettled=true')).json() as unknown[];
    expect(balances.length).toBeGreaterThan(0);
  });
});
