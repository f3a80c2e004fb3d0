import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionCache, type CheckedSession } from '../auth/session-cache';
import type { Database } from '../db/client';
import { withDatabase } from '../test/global-setup';
import { createTestApp, openTestDatabase, signUpSchool } from '../test/harness';
import { listenOnPostgres, NotifyBus, notifyBus, type BusListener, type BusMessage } from './notify-bus';
import { rowsOf } from './sql-rows';

/**
 * The bus between app processes (decision 0043) on a real PostgreSQL server: two buses stand for
 * two processes. Only with DATABASE_URL (vitest.config.ts).
 */

// a database of its own: notifications are per database, and the lost-connection case below
// ends a connection it finds there
let database: Database;
let url: string;
const listeners: BusListener[] = [];
beforeAll(async () => {
  database = await openTestDatabase();
  const [row] = rowsOf<{ name: string }>(await database.db.execute(sql`select current_database() as name`));
  url = withDatabase(process.env.DATABASE_URL!, row!.name);
});
afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close()));
  await database.close();
});

async function processBus(on = url): Promise<{ bus: NotifyBus; heard: BusMessage[]; warnings: string[] }> {
  const bus = new NotifyBus();
  const heard: BusMessage[] = [];
  const warnings: string[] = [];
  bus.subscribe((m) => heard.push(m));
  listeners.push(await listenOnPostgres(on, bus, { retryMs: 50, log: { warn: (t) => warnings.push(t) } }));
  return { bus, heard, warnings };
}

const session = (sid: string, userId: string): CheckedSession => ({
  payload: { sid, uid: userId, schoolId: 's1', role: 'school_admin', kind: 'session' } as CheckedSession['payload'],
  userId,
  email: 'a@school.test',
  role: 'school_admin',
  schoolRole: 'owner',
  schoolId: 's1',
  sessionExpiresAt: new Date('2030-01-01'),
  school: null,
});

/**
 * pg 8 warns (once per process) when a query is sent to a client still running one, and pg 9 will
 * refuse it: the warning is caught, and since it comes once per process, the queries at once on one
 * client are counted too.
 */
function watchQueries(): { readonly most: number; warnings: string[]; stop(): void } {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => {
    if (warning.message.includes('already executing a query')) warnings.push(warning.message);
  };
  process.on('warning', onWarning);
  const query = pg.Client.prototype.query;
  const running = new Map<unknown, number>();
  let most = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const n = (running.get(this) ?? 0) + 1;
    running.set(this, n);
    most = Math.max(most, n);
    const result = (query as (...a: unknown[]) => unknown).apply(this, args);
    void Promise.resolve(result)
      .finally(() => running.set(this, running.get(this)! - 1))
      .catch(() => {});
    return result;
  } as typeof query;
  return {
    get most() {
      return most;
    },
    warnings,
    stop() {
      pg.Client.prototype.query = query;
      process.off('warning', onWarning);
    },
  };
}

describe('the notify bus on PostgreSQL', () => {
  it("carries one process's message to the other, not back to itself", async () => {
    const one = await processBus();
    const two = await processBus();
    one.bus.publish({ kind: 'user', id: 'u1' });
    await expect.poll(() => two.heard, { timeout: 1_000 }).toContainEqual({ kind: 'user', id: 'u1' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(one.heard).toEqual([]);
  });

  it("a sign-out in one process's session cache empties the entry in the other's", async () => {
    const one = await processBus();
    const two = await processBus();
    const cacheOne = new SessionCache(10_000, 100, one.bus);
    const cacheTwo = new SessionCache(10_000, 100, two.bus);
    const now = new Date();
    cacheTwo.set('token-1', session('sid-1', 'u1'), now, cacheTwo.mark());
    cacheTwo.set('token-2', session('sid-2', 'u1'), now, cacheTwo.mark());
    cacheOne.forgetSession('sid-1');
    await expect.poll(() => cacheTwo.get('token-1', now), { timeout: 1_000 }).toBeNull();
    expect(cacheTwo.get('token-2', now)?.payload.sid).toBe('sid-2');
  });

  it('a lost connection resets the caches and, once back, tells the other processes to reset theirs', async () => {
    const one = await processBus();
    const two = await processBus();
    const cacheOne = new SessionCache(10_000, 100, one.bus);
    const at = new Date();
    cacheOne.set('token', session('sid', 'u1'), at, cacheOne.mark());

    // the listening connection of `two`, the newest one
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where application_name = 'school-ledger-notify' and datname = $1
           and backend_start = (select max(backend_start) from pg_stat_activity where application_name = 'school-ledger-notify' and datname = $1)`,
        [new URL(url).pathname.slice(1)],
      );
    } finally {
      await admin.end();
    }
    await expect.poll(() => two.heard.some((m) => m.kind === 'reset'), { timeout: 2_000 }).toBe(true);
    expect(two.warnings.join('\n')).toContain('Lost the change notifications from other app processes');
    await expect.poll(() => two.bus.reliable, { timeout: 3_000 }).toBe(true);
    // what `two` changed while it was deaf may have been missed: `one` is told to forget everything
    await expect.poll(() => one.heard.some((m) => m.kind === 'reset'), { timeout: 2_000 }).toBe(true);
    expect(cacheOne.get('token', at)).toBeNull();
  });

  it('a burst of messages is told one statement at a time, every one in order', async () => {
    const watch = watchQueries();
    try {
      const one = await processBus();
      const two = await processBus();
      const sent = Array.from({ length: 40 }, (_, k): BusMessage => ({ kind: 'data', schoolId: `school-${k}` }));
      for (const message of sent) one.bus.publish(message);
      await expect.poll(() => two.heard.length, { timeout: 2_000 }).toBe(sent.length);
      expect(two.heard).toEqual(sent);
    } finally {
      watch.stop();
    }
    expect(watch.most).toBe(1);
    expect(watch.warnings).toEqual([]);
  });

  it('twenty saves at once in an app whose bus is on PostgreSQL send no query to a busy connection', async () => {
    const app = await createTestApp();
    const [row] = rowsOf<{ name: string }>(await app.database.db.execute(sql`select current_database() as name`));
    const appUrl = withDatabase(process.env.DATABASE_URL!, row!.name);
    // the process-wide bus that every write publishes on, as main.ts attaches it, and another process's
    const listener = await listenOnPostgres(appUrl, notifyBus);
    const other = await processBus(appUrl);
    const watch = watchQueries();
    try {
      const school = await signUpSchool(app);
      const saves = await Promise.all(
        Array.from({ length: 20 }, (_, k) => school.api.post('/api/expenses', { category: 'Rent', amount: String(100 + k), date: '2026-04-09', description: `rent ${k}` })),
      );
      expect(saves.map((r) => r.statusCode)).toEqual(saves.map(() => 201));
      await expect.poll(() => other.heard.filter((m) => m.kind === 'data').length, { timeout: 2_000 }).toBeGreaterThan(0);
    } finally {
      watch.stop();
      await listener.close();
      await app.close();
    }
    expect(watch.most).toBe(1);
    expect(watch.warnings).toEqual([]);
  });

  it('keeps a checked session one second, not ten, while the bus cannot deliver', () => {
    const bus = new NotifyBus();
    let listening = false;
    bus.attach({ send: () => {}, get listening() { return listening; } });
    const cache = new SessionCache(10_000, 100, bus, 1_000);
    const at = new Date('2026-04-10T05:30:00Z');
    cache.set('token', session('sid', 'u1'), at, cache.mark());
    expect(cache.get('token', new Date(at.getTime() + 1_500))).toBeNull();
    listening = true;
    cache.set('token', session('sid', 'u1'), at, cache.mark());
    expect(cache.get('token', new Date(at.getTime() + 1_500))?.userId).toBe('u1');
  });
});
