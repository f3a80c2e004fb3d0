import { existsSync, readFileSync, statfsSync } from 'node:fs';
import { freemem, totalmem } from 'node:os';
import path from 'node:path';
import { desc, gt, sql, and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { migrationsFolder } from '../db/client';
import { listBackups } from '../db/backups';
import { paymentWebhookEvents } from '../db/schema';
import { ROOT } from '../lib/root';
import { rowsOf } from '../lib/sql-rows';
import { mailOutboxHealth, type MailOutboxHealth } from '../mail/outbox';
import { messageOutboxHealth } from '../messages/outbox';

/**
 * The System tab's checks (ruling 22, decision 0035): each one reads the real thing — the
 * database answers a query, the migrations table, the outbox, the last webhook, the disk under
 * DATA_DIR, the process — and says ok, warning or down with the figures behind it.
 */
export type CheckStatus = 'ok' | 'warning' | 'down';

/** A query slower than this is worth a look; one that fails is down. */
const DB_SLOW_MS = 250;
/** Mail waiting longer than this means the sender is stuck or SMTP refuses. */
const MAIL_STUCK_MS = 15 * 60_000;
/** Less free disk than this under DATA_DIR and backups will soon fail. */
const DISK_LOW_BYTES = 1024 ** 3;
const DISK_LOW_SHARE = 0.05;

function readJournal(): Array<{ when: number; tag: string }> {
  try {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number; tag: string }> };
    return journal.entries;
  } catch {
    return [];
  }
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * How fast the database answers: the best of three round trips of `select 1`. The first may open a
 * pool connection (TCP, start-up, authentication) and any one may lose the CPU to other work on a
 * busy machine; neither says the database is slow, and a warning on either sent the operator
 * looking for a fault that was not there. A database that is slow is slow three times.
 */
async function databaseLatency(db: FastifyInstance['deps']['db']): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await db.execute(sql`select 1`);
    best = Math.min(best, performance.now() - started);
  }
  return Math.round(best * 10) / 10;
}

export async function databaseCheck(app: FastifyInstance) {
  const { db, dbKind } = app.deps;
  try {
    const latencyMs = await databaseLatency(db);
    const journal = readJournal();
    const applied = rowsOf<{ created_at: string | number }>(
      await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`),
    );
    const countRows = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from drizzle.__drizzle_migrations`));
    const lastWhen = applied[0] ? Number(applied[0].created_at) : null;
    const latest = journal.find((e) => e.when === lastWhen)?.tag ?? null;
    const appliedCount = Number(countRows[0]?.n ?? 0);
    return {
      status: (latencyMs > DB_SLOW_MS ? 'warning' : 'ok') as CheckStatus,
      kind: dbKind,
      latencyMs,
      migration: latest,
      migrationsApplied: appliedCount,
      migrationsKnown: journal.length,
      error: null as string | null,
    };
  } catch (error) {
    app.log.warn({ err: error }, 'database health check failed');
    return {
      status: 'down' as CheckStatus,
      kind: dbKind,
      latencyMs: null,
      migration: null,
      migrationsApplied: null,
      migrationsKnown: readJournal().length,
      error: 'The database did not answer',
    };
  }
}

export function mailStatus(health: MailOutboxHealth, now: Date): CheckStatus {
  if (health.oldestQueuedAt && now.getTime() - health.oldestQueuedAt.getTime() > MAIL_STUCK_MS) return 'down';
  if (health.failed > 0 || health.lastFailure?.status === 'queued') return 'warning';
  return 'ok';
}

export async function mailCheck(app: FastifyInstance) {
  const now = app.deps.clock.now();
  // a database that does not answer leaves the outbox unknown: down, not a 500
  const health = await mailOutboxHealth(app.deps.db).catch(() => null);
  if (!health) {
    return { status: 'down' as CheckStatus, transport: app.deps.config.smtpUrl ? ('smtp' as const) : ('development-outbox' as const), queued: 0, failed: 0, oldestQueuedAt: null, lastFailure: null };
  }
  return {
    status: mailStatus(health, now),
    transport: app.deps.config.smtpUrl ? ('smtp' as const) : ('development-outbox' as const),
    queued: health.queued,
    failed: health.failed,
    oldestQueuedAt: health.oldestQueuedAt?.toISOString() ?? null,
    lastFailure: health.lastFailure ? { ...health.lastFailure, at: health.lastFailure.at.toISOString() } : null,
  };
}

/**
 * The reminder messages (WhatsApp, SMS): how they leave and the backlog. A production server with no
 * provider refuses reminders (decision 0040), which the operator should see; failures need a look.
 */
export async function messagesCheck(app: FastifyInstance) {
  const provider = app.deps.config.messages.provider;
  const health = await messageOutboxHealth(app.deps.db).catch(() => null);
  if (!health) return { status: 'down' as CheckStatus, provider, pending: 0, failed: 0, lastFailureAt: null, lastError: null };
  const status: CheckStatus = health.failed > 0 || (provider === 'none' && app.deps.config.nodeEnv === 'production') ? 'warning' : 'ok';
  return {
    status,
    provider,
    pending: health.pending,
    failed: health.failed,
    lastFailureAt: health.lastFailureAt?.toISOString() ?? null,
    lastError: health.lastError,
  };
}

export async function paymentsCheck(app: FastifyInstance) {
  const { db, payments, clock } = app.deps;
  const now = clock.now();
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const read = async () => {
    const [last] = await db.select().from(paymentWebhookEvents).orderBy(desc(paymentWebhookEvents.receivedAt)).limit(1);
    const [bad] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(paymentWebhookEvents)
      .where(and(gt(paymentWebhookEvents.receivedAt, dayAgo), eq(paymentWebhookEvents.outcome, 'invalid_signature')));
    return { last, bad };
  };
  const { last, bad } = await read().catch(() => ({ last: undefined, bad: undefined }));
  const mode = payments.name === 'sandbox' ? ('sandbox' as const) : payments.keyId.startsWith('rzp_live_') ? ('live' as const) : ('test' as const);
  const invalid = Number(bad?.n ?? 0);
  // a sandbox in production takes no money: worth a warning even when chosen on purpose
  const status: CheckStatus = invalid > 0 || (mode === 'sandbox' && app.deps.config.nodeEnv === 'production') ? 'warning' : 'ok';
  return {
    status,
    provider: payments.name,
    mode,
    webhookSecretSet: Boolean(app.deps.config.razorpay?.webhookSecret),
    lastWebhook: last ? { at: last.receivedAt.toISOString(), event: last.event, outcome: last.outcome } : null,
    invalidWebhooksLastDay: invalid,
  };
}

/** The nearest existing folder at or above DATA_DIR (a test's DATA_DIR may not exist). */
function existingDir(dir: string): string {
  let current = path.resolve(dir);
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

export function diskCheck(app: FastifyInstance) {
  const dataDir = app.deps.config.dataDir;
  try {
    const stats = statfsSync(existingDir(dataDir));
    const freeBytes = stats.bavail * stats.bsize;
    const totalBytes = stats.blocks * stats.bsize;
    const low = freeBytes < DISK_LOW_BYTES || freeBytes < totalBytes * DISK_LOW_SHARE;
    const backups = app.deps.dbKind === 'pglite' ? listBackups(dataDir) : [];
    const newest = backups[0]?.takenAt ?? null;
    return {
      status: (low ? 'warning' : 'ok') as CheckStatus,
      dataDir,
      freeBytes,
      totalBytes,
      lastBackupAt: newest?.toISOString() ?? null,
      backups: backups.length,
    };
  } catch {
    return { status: 'down' as CheckStatus, dataDir, freeBytes: null, totalBytes: null, lastBackupAt: null, backups: 0 };
  }
}

export function processCheck(app: FastifyInstance) {
  const memory = process.memoryUsage();
  const errors = app.serverErrors.lastHour(app.deps.clock.now());
  return {
    status: (errors > 0 ? 'warning' : 'ok') as CheckStatus,
    version: app.deps.config.appVersion ?? packageVersion(),
    nodeVersion: process.version,
    environment: app.deps.config.nodeEnv,
    uptimeSeconds: Math.floor(process.uptime()),
    memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, heapTotalBytes: memory.heapTotal, systemFreeBytes: freemem(), systemTotalBytes: totalmem() },
    serverErrorsLastHour: errors,
  };
}

/** The worst of several statuses. */
export function overall(statuses: CheckStatus[]): CheckStatus {
  if (statuses.includes('down')) return 'down';
  if (statuses.includes('warning')) return 'warning';
  return 'ok';
}
