import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMasterAdmin } from './master-admin';
import { decideAttempt } from './throttle';
import { SIGN_IN_PER_ACCOUNT_IP } from './rate-limit';
import { createTestApp, signUpSchool, type TestContext } from '../test/harness';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMasterAdmin(ctx.database.db, { email: 'master@ledger.test', password: 'MasterPass123', now: ctx.clock.now() });
});
afterAll(() => ctx.close());

let ipCounter = 0;
/** A fresh address per test, so the per-IP limit of one test does not spill into the next. */
const nextIp = () => `198.51.100.${++ipCounter}`;

function signIn(app: FastifyInstance, ip: string, email: string, password: string, url = '/api/auth/login') {
  return app.inject({ method: 'POST', url, payload: { email, password }, remoteAddress: ip });
}

const lockMessage = (minutes: number) => `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

describe('the sign-in limit', () => {
  it('150 parallel guesses at one account check at most five passwords, and the right one among them is refused', async () => {
    const school = await signUpSchool(ctx);
    const ip = nextIp();
    const guesses = Array.from({ length: 150 }, (_, i) => (i === 100 ? school.password : `wrong-guess-${i}`));
    const answers = await Promise.all(guesses.map((password) => signIn(ctx.app, ip, school.email, password)));
    const statuses = answers.map((a) => a.statusCode);
    const checked = statuses.filter((s) => s !== 429).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150 - checked);
    expect(answers[100]!.statusCode).toBe(429);
    expect(answers[100]!.json().error).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    // the hash was checked only for the admitted attempts
    const events = await ctx.database.db.execute(
      sql`select count(*)::int as n from login_events where email = ${school.email} and reason = 'bad_credentials'`,
    );
    expect(events.rows[0]).toEqual({ n: checked });
  });

  it('a stranger with five wrong passwords does not lock the master administrator out', async () => {
    const stranger = nextIp();
    const owner = nextIp();
    for (let i = 0; i < 5; i++) {
      expect((await signIn(ctx.app, stranger, 'master@ledger.test', `guess-${i}`, '/api/auth/admin-login')).statusCode).toBe(401);
    }
    const held = await signIn(ctx.app, stranger, 'master@ledger.test', 'MasterPass123', '/api/auth/admin-login');
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBe('30');
    expect(held.json()).toMatchObject({ error: lockMessage(1), retryAfterSeconds: 30 });

    const real = await signIn(ctx.app, owner, 'master@ledger.test', 'MasterPass123', '/api/auth/admin-login');
    expect(real.statusCode).toBe(200);
    expect(real.json().user.role).toBe('master_admin');
  });

  it('waits grow after the fifth failure from one IP (30 s, 1 min, 2 min …) and a right password starts afresh', async () => {
    const school = await signUpSchool(ctx);
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await signIn(ctx.app, ip, school.email, `nope-${i}`)).statusCode).toBe(401);
    const waits: string[] = [];
    for (let round = 0; round < 3; round++) {
      const held = await signIn(ctx.app, ip, school.email, 'nope-again');
      expect(held.statusCode).toBe(429);
      waits.push(held.headers['retry-after'] as string);
      ctx.clock.advance(Number(held.headers['retry-after']) * 1000);
      expect((await signIn(ctx.app, ip, school.email, 'nope-again')).statusCode).toBe(401);
    }
    expect(waits).toEqual(['30', '60', '120']);
    const held = await signIn(ctx.app, ip, school.email, school.password);
    expect(held.headers['retry-after']).toBe('240');
    expect(held.json().error).toBe(lockMessage(4));
    ctx.clock.advance(240_000);
    expect((await signIn(ctx.app, ip, school.email, school.password)).statusCode).toBe(200);
    // the owner proved the password from here: four free tries again
    for (let i = 0; i < 4; i++) expect((await signIn(ctx.app, ip, school.email, `typo-${i}`)).statusCode).toBe(401);
    expect((await signIn(ctx.app, ip, school.email, school.password)).statusCode).toBe(200);
  });

  it('one IP guessing across many accounts is refused after 30 failures in a minute, the same for real and unknown addresses', async () => {
    const school = await signUpSchool(ctx);
    const ip = nextIp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(ctx.app, ip, `nobody-${i}@school.test`, 'Guess-password-1')),
    );
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(30);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(10);
    const real = await signIn(ctx.app, ip, school.email, school.password);
    const unknown = await signIn(ctx.app, ip, 'ghost@school.test', school.password);
    expect([real.statusCode, unknown.statusCode]).toEqual([429, 429]);
    expect(real.json()).toEqual(unknown.json());
    ctx.clock.advance(60_000);
    expect((await signIn(ctx.app, ip, school.email, school.password)).statusCode).toBe(200);
  });

  it('past the ceiling per account, new IPs wait but an IP the owner signed in from recently still gets in', async () => {
    const school = await signUpSchool(ctx);
    const home = nextIp();
    expect((await signIn(ctx.app, home, school.email, school.password)).statusCode).toBe(200);
    // a hundred failures from many places within the hour (as a botnet would make them)
    await ctx.database.db.execute(
      sql`insert into auth_throttle (key, count, window_start) values (${`signin-acct:${school.email}`}, 100, ${ctx.clock.now().toISOString()}::timestamptz)
          on conflict (key) do update set count = 100, window_start = excluded.window_start`,
    );
    const elsewhere = await signIn(ctx.app, nextIp(), school.email, school.password);
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.json().error).toBe(lockMessage(60));
    expect((await signIn(ctx.app, home, school.email, school.password)).statusCode).toBe(200);
  });
});

describe('the backoff rule', () => {
  it('lets four attempts through freely and holds the fifth onward for a doubling wait, at most 15 minutes', () => {
    const now = new Date('2026-04-10T05:30:00Z');
    let state;
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const d = decideAttempt(SIGN_IN_PER_ACCOUNT_IP, state, now);
      if (!d.admit) throw new Error('expected admit');
      state = d.next;
      waits.push(state.blockedUntil ? (state.blockedUntil.getTime() - now.getTime()) / 1000 : 0);
      state = { ...state, blockedUntil: null };
    }
    expect(waits).toEqual([0, 0, 0, 0, 30, 60, 120, 240, 480, 900, 900, 900]);
  });
});
