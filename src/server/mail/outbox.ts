import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, min, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import type { Mailer, MailMessage } from './mailer';

export type { MailMessage } from './mailer';

/** A mail to queue: the message, what kind of mail it is, and optionally the school it concerns. */
export interface OutboxMessage extends MailMessage {
  /** a short label such as 'confirm-email' or 'reset-password' */
  kind: string;
  schoolId?: string | null;
  /** the app clock's time of the change; the database's time when left out */
  now?: Date;
}

/**
 * Bumped on every queued mail. The app compares it after each response (by then the request's
 * transaction has committed) to wake its worker at once instead of at the next poll.
 */
let queuedGeneration = 0;

/**
 * Writes a mail to the outbox. Pass the transaction of the change that causes the mail: a rolled
 * back change then sends nothing, and a committed one cannot lose its mail. Never talks to SMTP.
 */
export async function queueMail(db: Db, message: OutboxMessage): Promise<string> {
  const [row] = await db
    .insert(mailOutbox)
    .values({
      schoolId: message.schoolId ?? null,
      kind: message.kind,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      ...(message.now ? { createdAt: message.now } : {}),
    })
    .returning({ id: mailOutbox.id });
  queuedGeneration += 1;
  return row!.id;
}

/** Waits after the 1st, 2nd, … failed attempt; after the last one the mail is marked failed. */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];

export interface MailWorkerOptions {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  /** how often to look for due mail when nothing nudges the worker */
  pollMs?: number;
  /** one delay per retry; attempts = delays + 1 */
  retryDelaysMs?: readonly number[];
  /** the longest one send may take before it counts as failed */
  sendTimeoutMs?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * Sends the outbox in the background: picks due rows one at a time (a row taken by one worker is
 * invisible to the others), sends each through the mailer, marks it sent, or records the error and
 * schedules a retry with backoff; after the last attempt the row is `failed`.
 */
export class MailWorker {
  private readonly db: Db;
  private readonly mailer: Mailer;
  private readonly clock: Clock;
  private readonly pollMs: number;
  private readonly retryDelaysMs: readonly number[];
  private readonly sendTimeoutMs: number;
  /** a row being sent stays claimed this long; a worker that died mid-send is taken over after it */
  private readonly leaseMs: number;
  private readonly log: NonNullable<MailWorkerOptions['log']>;

  private started = false;
  private closing = false;
  private timer: NodeJS.Timeout | undefined;
  private active: Promise<number> | null = null;
  private pending: Promise<number> | null = null;
  private seenGeneration = queuedGeneration;

  constructor(options: MailWorkerOptions) {
    this.db = options.db;
    this.mailer = options.mailer;
    this.clock = options.clock;
    this.pollMs = options.pollMs ?? 5_000;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.sendTimeoutMs = options.sendTimeoutMs ?? 60_000;
    this.leaseMs = this.sendTimeoutMs + 60_000;
    this.log = options.log ?? { warn: () => {}, error: () => {} };
  }

  get maxAttempts(): number {
    return this.retryDelaysMs.length + 1;
  }

  start(): void {
    if (this.started || this.closing) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops polling and waits for the mail being sent (if any); sends nothing more afterwards. */
  async stop(): Promise<void> {
    this.closing = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([this.active, this.pending]);
  }

  /** Look for due mail now rather than at the next poll. */
  nudge(): void {
    if (this.started && !this.closing) this.schedule(0);
  }

  /** Nudges the worker when mail was queued since it last looked: called after every response. */
  nudgeIfQueued(): void {
    if (this.seenGeneration === queuedGeneration) return;
    this.seenGeneration = queuedGeneration;
    this.nudge();
  }

  /**
   * Sends every mail due now and resolves with how many were attempted. A call during a run waits
   * for it and then runs again, so mail queued just before the call is included.
   */
  runOnce(): Promise<number> {
    if (this.pending) return this.pending;
    if (!this.active) {
      this.active = this.drain().finally(() => {
        this.active = null;
      });
      return this.active;
    }
    this.pending = this.active
      .catch(() => 0)
      .then(() => {
        this.pending = null;
        return this.runOnce();
      });
    return this.pending;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = undefined;
    this.runOnce()
      .catch((error: unknown) => this.log.error({ err: error }, 'the mail worker could not read the outbox'))
      .finally(() => {
        if (!this.closing && !this.timer) this.schedule(this.pollMs);
      });
  }

  private async drain(): Promise<number> {
    let attempted = 0;
    this.seenGeneration = queuedGeneration;
    while (!this.closing) {
      const row = await this.claim();
      if (!row) break;
      attempted += 1;
      await this.deliver(row);
    }
    return attempted;
  }

  /** Takes the oldest due row in one statement; SKIP LOCKED keeps two workers off the same row. */
  private async claim(): Promise<OutboxRow | undefined> {
    const now = this.clock.now();
    const due = this.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        or(
          and(eq(mailOutbox.status, 'queued'), or(isNull(mailOutbox.nextAttemptAt), lte(mailOutbox.nextAttemptAt, now))),
          and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.nextAttemptAt, now)),
        ),
      )
      .orderBy(asc(mailOutbox.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await this.db
      .update(mailOutbox)
      .set({
        status: 'sending',
        attempts: sql`${mailOutbox.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + this.leaseMs),
      })
      .where(inArray(mailOutbox.id, due))
      .returning();
    return row;
  }

  private async deliver(row: OutboxRow): Promise<void> {
    try {
      await this.sendWithTimeout({ to: row.to, subject: row.subject, text: row.text, ...(row.html ? { html: row.html } : {}) });
    } catch (error) {
      await this.recordFailure(row, error);
      return;
    }
    await this.db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: this.clock.now(), nextAttemptAt: null, text: '', html: null })
      .where(eq(mailOutbox.id, row.id));
  }

  private async recordFailure(row: OutboxRow, error: unknown): Promise<void> {
    const message = errorText(error);
    const delay = this.retryDelaysMs[row.attempts - 1];
    const giveUp = delay === undefined;
    await this.db
      .update(mailOutbox)
      .set({
        status: giveUp ? 'failed' : 'queued',
        nextAttemptAt: giveUp ? null : new Date(this.clock.now().getTime() + delay),
        lastError: message,
        lastFailedAt: this.clock.now(),
      })
      .where(eq(mailOutbox.id, row.id));
    const details = { mailId: row.id, kind: row.kind, to: maskEmail(row.to), attempts: row.attempts, error: message };
    if (giveUp) this.log.error(details, 'mail could not be sent; giving up');
    else this.log.warn({ ...details, retryInMs: delay }, 'mail could not be sent; will retry');
  }

  private async sendWithTimeout(message: MailMessage): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`sending took longer than ${this.sendTimeoutMs / 1000} s`)), this.sendTimeoutMs);
    });
    try {
      await Promise.race([this.mailer.send(message), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The error as kept and shown: SMTP replies often quote the recipient, so addresses are masked. */
function errorText(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/[^\s<>()"',;:]+@[^\s<>()"',;:]+/g, maskEmail);
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

/** `head@school.test` → `h***@school.test`: enough for the administrator to recognise, not to harvest. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

export interface MailOutboxHealth {
  /** waiting to be sent, including those being sent right now */
  queued: number;
  failed: number;
  oldestQueuedAt: Date | null;
  lastFailure: { at: Date; error: string; to: string; status: OutboxRow['status'] } | null;
}

/** What the master administrator sees of the outbox: is mail going out, and if not, why. */
export async function mailOutboxHealth(db: Db): Promise<MailOutboxHealth> {
  const [counts] = await db
    .select({
      queued: count(sql`case when ${mailOutbox.status} in ('queued', 'sending') then 1 end`),
      failed: count(sql`case when ${mailOutbox.status} = 'failed' then 1 end`),
      oldestQueuedAt: min(sql<Date>`case when ${mailOutbox.status} in ('queued', 'sending') then ${mailOutbox.createdAt} end`),
    })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ['queued', 'sending', 'failed']));
  const [failure] = await db
    .select({ at: mailOutbox.lastFailedAt, error: mailOutbox.lastError, to: mailOutbox.to, status: mailOutbox.status })
    .from(mailOutbox)
    .where(isNotNull(mailOutbox.lastFailedAt))
    .orderBy(desc(mailOutbox.lastFailedAt))
    .limit(1);
  return {
    queued: Number(counts?.queued ?? 0),
    failed: Number(counts?.failed ?? 0),
    oldestQueuedAt: counts?.oldestQueuedAt ? new Date(counts.oldestQueuedAt) : null,
    lastFailure: failure ? { at: failure.at!, error: failure.error!, to: maskEmail(failure.to), status: failure.status } : null,
  };
}
