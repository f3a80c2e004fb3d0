import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'drizzle-orm';
import type { FastifyInstance, FastifyServerOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type BuildOptions } from '../app';
import { MovableClock } from '../clock';
import { loadConfig, type Config } from '../config';
import { migrationsFolder, openPglite, openPostgres, type Database } from '../db/client';
import { createSmtpMailer, DEFAULT_SMTP_TIMEOUTS, type SmtpTimeouts } from '../mail/mailer';
import { withDatabase } from './global-setup';
import { startTestSmtp } from './smtp';

/**
 * A fresh database copied from the migrated template: PGlite by default, PostgreSQL with DATABASE_URL.
 * `logger` sees every statement sent through it (PGlite's own BEGIN and COMMIT excepted). `max`: the
 * PostgreSQL pool's connections (25 by default; PGlite is one connection whatever it says). `empty`:
 * a database with no migration applied instead (an upgrade from an older release to try).
 */
export async function openTestDatabase({ empty = false, ...options }: { logger?: Logger; max?: number; empty?: boolean } = {}): Promise<Database> {
  const url = process.env.DATABASE_URL;
  const pgTemplate = inject('pgTemplate');
  if (url && pgTemplate) {
    const name = `ledger_t_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${pgTemplate}`);
    const database = await openPostgres(withDatabase(url, name), { max: 25, ...options });
    return {
      ...database,
      async close() {
        await database.close();
        // pg's pool resolves end() before its sockets have closed; a forced drop would then kill
        // them mid-goodbye and their 57P01 errors surface as unhandled errors of the test file
        for (let i = 0; i < 100; i++) {
          const open = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (open.rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  if (empty) return openPglite(options);
  const dump = readFileSync(inject('pgliteTemplate'));
  return openPglite({ loadDataDir: new Blob([dump]), ...options });
}

/**
 * A copy of the migrations folder in `dir`, as another release has it: without the newest `drop`
 * migrations (a database to upgrade), and with `add` after them (a migration to try).
 */
export function migrationsCopy(dir: string, { drop = 0, add = [] }: { drop?: number; add?: Array<{ tag: string; sql: string }> } = {}): string {
  mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }>;
  };
  const kept = journal.entries.slice(0, journal.entries.length - drop);
  for (const entry of kept) writeFileSync(path.join(dir, `${entry.tag}.sql`), readFileSync(path.join(migrationsFolder, `${entry.tag}.sql`)));
  const last = kept.at(-1)!;
  const added = add.map((m, i) => {
    writeFileSync(path.join(dir, `${m.tag}.sql`), m.sql);
    return { ...last, idx: last.idx + 1 + i, when: last.when + 1 + i, tag: m.tag };
  });
  writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: [...kept, ...added] }));
  return dir;
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  clock: MovableClock;
  config: Config;
  smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  /** sends every mail due now (by the app clock) and resolves once they are through */
  flushMail(): Promise<number>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    now?: Date;
    env?: Record<string, string>;
    mailWorker?: BuildOptions['mailWorker'];
    messageWorker?: BuildOptions['messageWorker'];
    /** off unless asked for: a test's first read builds its school's rows itself */
    positionsKeeper?: BuildOptions['positionsKeeper'];
    messages?: BuildOptions['messages'];
    smtpTimeouts?: SmtpTimeouts;
    /** an app on this database instead of a fresh copy */
    database?: Database;
    logger?: FastifyServerOptions['logger'];
  } = {},
): Promise<TestContext> {
  const database = options.database ?? (await openTestDatabase());
  const smtp = await startTestSmtp();
  const clock = new MovableClock(options.now ?? new Date('2026-04-10T05:30:00.000Z'));
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_URL: 'http://school.test',
    SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    ENCRYPTION_KEY: 'test-encryption-key-that-is-long-enough-000',
    SMTP_URL: smtp.url,
    DATA_DIR: '/tmp/ledger-test-unused',
    ...options.env,
  });
  const app = await buildApp({
    db: database.db,
    dbKind: database.kind,
    config,
    clock,
    mailer: createSmtpMailer(smtp.url, config.mailFrom, options.smtpTimeouts ?? DEFAULT_SMTP_TIMEOUTS),
    ...(options.mailWorker ? { mailWorker: options.mailWorker } : {}),
    ...(options.messageWorker ? { messageWorker: options.messageWorker } : {}),
    ...(options.messages ? { messages: options.messages } : {}),
    positionsKeeper: options.positionsKeeper ?? { start: false },
    logger: options.logger,
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    smtp,
    flushMail: () => app.mailWorker.runOnce(),
    async close() {
      await app.close();
      await smtp.close();
      await database.close();
    },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A small client over app.inject that keeps a bearer token, like the browser's request helper. */
export function client(app: FastifyInstance, token?: string) {
  const call = (method: Method, url: string, body?: unknown): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, body?: unknown) => call('POST', url, body ?? {}),
    put: (url: string, body?: unknown) => call('PUT', url, body ?? {}),
    delete: (url: string) => call('DELETE', url),
  };
}

let counter = 0;

/**
 * Registers a school, follows the confirmation link from the real mail, signs in; returns the
 * token and ids. The way every school test starts.
 */
export async function signUpSchool(
  ctx: TestContext,
  overrides: Partial<{ schoolName: string; email: string; password: string; selectedPlan: 'basic' | 'standard' | 'premium' }> = {},
) {
  counter += 1;
  const email = overrides.email ?? `admin${counter}-${randomUUID().slice(0, 6)}@school.test`;
  const password = overrides.password ?? 'Secret-Ledger-24';
  const schoolName = overrides.schoolName ?? `Test School ${counter}`;
  const api = client(ctx.app);
  const reg = await api.post('/api/school-registration', {
    schoolName,
    email,
    phone: '9876543210',
    address: 'Main Road, Srinagar',
    password,
    selectedPlan: overrides.selectedPlan ?? 'standard',
  });
  if (reg.statusCode !== 201) throw new Error(`registration failed: ${reg.statusCode} ${reg.body}`);
  await ctx.flushMail(); // also when the test drives the mail worker by hand
  const mail = await ctx.smtp.waitFor(email, /Confirm/);
  const token = new URL(mail.links[0]!).searchParams.get('token')!;
  const confirm = await api.post('/api/auth/confirm-email', { token });
  if (confirm.statusCode !== 200) throw new Error(`confirm failed: ${confirm.body}`);
  const login = await api.post('/api/auth/login', { email, password });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const body = login.json() as { token: string; user: { id: string; schoolId: string } };
  return { email, password, schoolName, token: body.token, userId: body.user.id, schoolId: body.user.schoolId, api: client(ctx.app, body.token) };
}
