import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSubscriptionNotices } from './billing/notices';
import { loadConfig } from './config';
import { openPostgres, type Database } from './db/client';
import { reminderSettings, schools } from './db/schema';
import type { MessageProvider } from './messages/provider';
import { runDueSchedules } from './reminders/schedule';
import { rowsOf } from './lib/sql-rows';
import { queueMail } from './mail/outbox';
import { withDatabase } from './test/global-setup';
import { openTestDatabase } from './test/harness';
import { startTestSmtp } from './test/smtp';
import { ROOT } from './web/static';
import { freePort } from './test/ports';

/**
 * Issue 14 item 4 (decision 0043): two real app processes, as `npm start` runs them, on one
 * PostgreSQL database. Each caches the session check and the school figures; what one process
 * changes must be honoured by the other within a second, and the mail outbox must be sent once
 * with both processes' workers polling it. Runs only with DATABASE_URL (vitest.config.ts leaves
 * this file out of the embedded-database run: two processes cannot open one embedded database).
 */

const PROMPT_MS = 1_000;
const ADMIN = { email: 'owner@ledger.test', password: 'Master-Ledger-2026' };

interface AppProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
}

const children: ChildProcess[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-scale-'));
let database: Database;
let databaseUrl: string;
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
let a: AppProcess;
let b: AppProcess;

async function startProcess(name: string, databaseUrl: string, extra: Record<string, string> = {}): Promise<AppProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      PORT: String(port),
      DATA_DIR: path.join(dataDir, name),
      DATABASE_URL: databaseUrl,
      APP_URL: 'http://school.test',
      SESSION_SECRET: 'scale-secret-that-is-long-enough-for-hs256-signing',
      ENCRYPTION_KEY: 'scale-encryption-key-that-is-long-enough-000',
      SMTP_URL: smtp.url,
      SERVE_WEB: 'false',
      PAYMENTS_PROVIDER: 'sandbox',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`app process ${name} stopped while starting:\n${output}`);
    if ((await fetch(`${url}/api/health`).then((r) => r.status, () => 0)) === 200) break;
    if (Date.now() > deadline) throw new Error(`app process ${name} did not answer within 90 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, child, output: () => output };
}

async function call(app: AppProcess, method: string, route: string, token?: string, body?: unknown): Promise<{ status: number; json: () => Record<string, unknown> }> {
  const res = await fetch(`${app.url}${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: () => JSON.parse(text) as Record<string, unknown> };
}

/** How long until `check` holds, polled every 25 ms; fails past `limitMs` with what it last saw. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const began = performance.now();
  for (;;) {
    if (await check()) return performance.now() - began;
    if (performance.now() - began > limitMs * 3) throw new Error(`not within ${limitMs * 3} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const signIn = async (app: AppProcess, email: string, password: string) => {
  const res = await call(app, 'POST', '/api/auth/login', undefined, { email, password });
  expect(res.status).toBe(200);
  return res.json().token as string;
};

const me = async (app: AppProcess, token: string) => (await call(app, 'GET', '/api/auth/me', token)).status;

beforeAll(async () => {
  smtp = await startTestSmtp();
  database = await openTestDatabase();
  const [row] = rowsOf<{ name: string }>(await database.db.execute(sql`select current_database() as name`));
  const url = withDatabase(process.env.DATABASE_URL!, row!.name);
  databaseUrl = url;
  [a, b] = await Promise.all([startProcess('a', url, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }), startProcess('b', url)]);
}, 180_000);

afterAll(async () => {
  // a graceful stop, as a service manager would ask; then whatever is left goes
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
        }),
    ),
  );
  await smtp?.close();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('two app processes on one PostgreSQL database', () => {
  let email: string;
  let password = 'Secret-Ledger-24';
  let schoolId: string;

  it('a school registered on one process confirms and signs in on the other, its confirmation mail sent once', { timeout: 60_000 }, async () => {
    email = `scale-${Date.now()}@school.test`;
    const reg = await call(a, 'POST', '/api/school-registration', undefined, {
      schoolName: 'Two Process School',
      email,
      phone: '9876543210',
      address: 'Main Road, Srinagar',
      password,
      selectedPlan: 'standard',
    });
    expect(reg.status).toBe(201);
    const mail = await smtp.waitFor(email, /Confirm/, 15_000);
    const token = new URL(mail.links[0]!).searchParams.get('token')!;
    expect((await call(b, 'POST', '/api/auth/confirm-email', undefined, { token })).status).toBe(200);
    const login = await call(b, 'POST', '/api/auth/login', undefined, { email, password });
    expect(login.status).toBe(200);
    schoolId = (login.json().user as { schoolId: string }).schoolId;
    // both processes poll the outbox; the row was claimed by one of them
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(smtp.countTo(email)).toBe(1);
  });

  it('a sign-out on B is honoured by A within a second, though A had just checked the session', async () => {
    const token = await signIn(a, email, password);
    expect(await me(a, token)).toBe(200);
    expect(await me(b, token)).toBe(200);
    expect((await call(b, 'POST', '/api/auth/logout', token)).status).toBe(200);
    const took = await within(PROMPT_MS, async () => (await me(a, token)) === 401);
    expect(took).toBeLessThan(PROMPT_MS);
  });

  it('a password change on A ends the other sessions on B within a second', async () => {
    const kept = await signIn(a, email, password);
    const other = await signIn(b, email, password);
    expect(await me(b, other)).toBe(200);
    const next = 'Changed-Ledger-25';
    expect((await call(a, 'POST', '/api/auth/change-password', kept, { currentPassword: password, newPassword: next })).status).toBe(200);
    password = next;
    const took = await within(PROMPT_MS, async () => (await me(b, other)) === 401);
    expect(took).toBeLessThan(PROMPT_MS);
    expect(await me(b, kept)).toBe(200);
  });

  it('a plan change made on A (the school set to expired) makes B refuse its writes within a second', async () => {
    const token = await signIn(b, email, password);
    // a write with an empty body: refused for its body (400) while the plan runs, for the plan (402) once it has ended
    expect((await call(b, 'POST', '/api/students', token, {})).status).toBe(400);
    const adminLogin = await call(a, 'POST', '/api/auth/admin-login', undefined, ADMIN);
    expect(adminLogin.status).toBe(200);
    const admin = adminLogin.json().token as string;
    const changed = await call(a, 'PUT', `/api/admin/schools/${schoolId}/plan`, admin, { plan: 'standard', status: 'expired', reason: 'Two-process test' });
    expect(changed.status).toBe(200);
    const took = await within(PROMPT_MS, async () => (await call(b, 'POST', '/api/students', token, {})).status === 402);
    expect(took).toBeLessThan(PROMPT_MS);
    // and back, so the school can write again for the figures below
    expect((await call(a, 'PUT', `/api/admin/schools/${schoolId}/plan`, admin, { plan: 'standard', status: 'active', reason: 'Two-process test' })).status).toBe(200);
    await within(PROMPT_MS, async () => (await call(b, 'POST', '/api/students', token, {})).status === 400);
  });

  it("a change saved on A shows in B's school figures within a second", async () => {
    const token = await signIn(a, email, password);
    const count = async () => (await call(b, 'GET', '/api/stats/school', token)).json().totalStudents as number;
    const before = await count();
    const student = { name: 'Asha Khan', class: 'Class 1', section: 'A', fatherName: 'Ravi Khan', mobileNumber: '9876543210', monthlyBusFee: '0.00' };
    expect((await call(a, 'POST', '/api/students', token, student)).status).toBe(201);
    const took = await within(PROMPT_MS, async () => (await count()) === before + 1);
    expect(took).toBeLessThan(PROMPT_MS);
  });

  it('twenty queued mails are each sent once with both processes sending', { timeout: 60_000 }, async () => {
    // a slow mail server keeps both workers busy at once, each claiming rows the other skips
    smtp.slowDown(150);
    const to = Array.from({ length: 20 }, (_, i) => `parent${i}-${Date.now()}@school.test`);
    for (const address of to) await queueMail(database.db, { kind: 'test', to: address, subject: 'Fee reminder', text: 'Please pay.' });
    await expect.poll(() => to.filter((address) => smtp.countTo(address) > 0).length, { timeout: 40_000, interval: 250 }).toBe(20);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(to.map((address) => smtp.countTo(address))).toEqual(Array(20).fill(1));
    const rows = rowsOf<{ status: string; attempts: number }>(
      await database.db.execute(sql`select status, attempts from mail_outbox where kind = 'test'`),
    );
    expect(rows).toEqual(Array(20).fill({ status: 'sent', attempts: 1 }));
  });
});

describe('scheduled jobs started by two processes at the same moment', () => {
  it('the subscription notices job queues each notice and its mail once', async () => {
    // a second pool stands for the other process's job: both run at the same instant, on their own connections
    const other = await openPostgres(databaseUrl, { max: 4 });
    try {
      const now = new Date();
      const inserted = await database.db
        .insert(schools)
        .values(
          Array.from({ length: 5 }, (_, i) => ({
            name: `Ending Trial ${i}`,
            email: `trial${i}-${Date.now()}@school.test`,
            subscriptionPlan: 'standard',
            subscriptionStatus: 'trial' as const,
            trialEndsAt: new Date(now.getTime() + 6 * 3600_000),
          })),
        )
        .returning({ id: schools.id });
      const config = loadConfig({ NODE_ENV: 'test', APP_URL: 'http://school.test', DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'y'.repeat(32) });
      const [first, second] = await Promise.all([runSubscriptionNotices(database.db, config, now), runSubscriptionNotices(other.db, config, now)]);
      expect(first.queued + second.queued).toBe(5);
      const ids = inserted.map((s) => s.id);
      const counts = rowsOf<{ notices: number; mails: number }>(
        await database.db.execute(sql`
          select (select count(*)::int from subscription_notices where school_id in ${ids}) as notices,
                 (select count(*)::int from mail_outbox where school_id in ${ids} and kind = 'trial-renewal-1d') as mails`),
      );
      expect(counts).toEqual([{ notices: 5, mails: 5 }]);
    } finally {
      await other.close();
    }
  });
});

describe('the monthly reminder schedule started by two processes at the same moment', () => {
  it("runs each school's month once", async () => {
    const other = await openPostgres(databaseUrl, { max: 4 });
    try {
      const now = new Date();
      const [school] = await database.db
        .insert(schools)
        .values({ name: 'Reminding School', email: `remind-${Date.now()}@school.test`, subscriptionPlan: 'premium', subscriptionStatus: 'active', planStartDate: now, planEndDate: new Date(now.getTime() + 30 * 86_400_000) })
        .returning({ id: schools.id });
      await database.db.insert(reminderSettings).values({ schoolId: school!.id, enabled: true, dayOfMonth: 1, channel: 'sms' });
      const provider: MessageProvider = { name: 'none', channels: ['sms'], send: () => Promise.reject(new Error('not in this test')) };
      const [first, second] = await Promise.all([runDueSchedules(database.db, provider, now), runDueSchedules(other.db, provider, now)]);
      expect([...first, ...second].filter((run) => run.schoolId === school!.id)).toHaveLength(1);
      expect(await runDueSchedules(other.db, provider, now)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('WORKERS=2 npm start', () => {
  it('serves one port from two app processes and stops them all on SIGTERM, exit 0, port freed', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        PORT: String(port),
        WORKERS: '2',
        MAX_HEAP_MB: '384',
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(dataDir, 'cluster'),
        SERVE_WEB: 'false',
        PAYMENTS_PROVIDER: 'sandbox',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 90_000;
    while (!output.includes('School Ledger is running')) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`WORKERS=2 did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(output).toContain(`School Ledger is running on http://localhost:${port} (database: PostgreSQL, 2 app processes;`);
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    // npm → the primary → its two workers
    const primary = execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)]).toString().trim().split(/\s+/)[0]!;
    const workers = execFileSync('ps', ['-o', 'pid=', '--ppid', primary]).toString().trim().split(/\s+/).filter(Boolean);
    expect(workers.length).toBeGreaterThanOrEqual(2);
    for (const pid of [primary, ...workers]) {
      const args = execFileSync('ps', ['-o', 'args=', '-p', pid]).toString();
      // every app process runs with npm start's heap limit, MAX_HEAP_MB here (decision 0063)
      expect(args).toContain('--max-old-space-size=384 ');
      // and with semi-spaces of 16 MB by default, YOUNG_SPACE_MB unset here: 32 held the mixed load's
      // server over its 400 MB (decisions 0077, 0078)
      expect(args).toContain('--max-semi-space-size=16 ');
      // and with V8's pretenuring off: node-postgres' answers kept in the old generation held each
      // page's JSON through the young one's collections (decision 0099)
      expect(args).toContain('--no-allocation-site-pretenuring ');
    }
    // and with two malloc arenas, not glibc's eight per core (decision 0070)
    for (const pid of [primary, ...workers]) expect(readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')).toContain('MALLOC_ARENA_MAX=2');

    child.kill('SIGTERM'); // to npm, which passes it on, as a service manager's stop does
    expect(await exited).toBe(0);
    expect(output).toContain('the app processes finish their requests in progress, then stop');
    expect(output).toContain('School Ledger stopped.');
    expect(await fetch(`http://127.0.0.1:${port}/api/health`).then(() => 'answered', () => 'refused')).toBe('refused');
  });
});
