import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, min, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { OutboxWorker, type OutboxWorkerOptions } from '../lib/outbox-worker';
import { mailOutbox, type MailAttachmentRef } from '../db/schema';
import type { MailAttachment, Mailer, MailMessage } from './mailer';

export type { MailMessage } from './mailer';

/** A mail to queue: the message, what kind of mail it is, and optionally the school it concerns. */
export interface OutboxMessage extends Omit<MailMessage, 'attachments'> {
  /** a document rendered and attached when the mail is sent (see MailWorkerOptions.attachment) */
  attachment?: MailAttachmentRef;
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
      attachment: message.attachment ?? null,
      ...(message.now ? { createdAt: message.now } : {}),
    })
    .returning({ id: mailOutbox.id });
  queuedGeneration += 1;
  return row!.id;
}

export { DEFAULT_RETRY_DELAYS_MS } from '../lib/outbox-worker';

export interface MailWorkerOptions extends OutboxWorkerOptions {
  db: Db;
  mailer: Mailer;
  /** renders a queued mail's attachment at send time; a failure counts as a failed attempt (retried) */
  attachment?: (ref: MailAttachmentRef) => Promise<MailAttachment>;
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * Sends the outbox in the background: picks due rows one at a time (a row taken by one worker is
 * invisible to the others), sends each through the mailer, marks it sent, or records the error and
 * schedules a retry with backoff; after the last attempt the row is `failed`. The loop itself is
 * the one every outbox shares (`OutboxWorker`).
 */
export class MailWorker extends OutboxWorker<OutboxRow> {
  private readonly db: Db;
  private readonly mailer: Mailer;
  private readonly attachment: MailWorkerOptions['attachment'];
  protected readonly readFailure = 'the mail worker could not read the outbox';

  constructor(options: MailWorkerOptions) {
    super(options, { sendTimeoutMs: 60_000 }, () => queuedGeneration);
    this.db = options.db;
    this.mailer = options.mailer;
    this.attachment = options.attachment;
  }

  /** Takes the oldest due row in one statement; SKIP LOCKED keeps two workers off the same row. */
  protected async claim(): Promise<OutboxRow | undefined> {
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

  protected async deliver(row: OutboxRow): Promise<void> {
    try {
      const attachments = row.attachment ? [await this.render(row.attachment)] : [];
      await this.sendWithTimeout({ to: row.to, subject: row.subject, text: row.text, ...(row.html ? { html: row.html } : {}), ...(attachments.length ? { attachments } : {}) });
    } catch (error) {
      await this.recordFailure(row, error);
      return;
    }
    await this.db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: this.clock.now(), nextAttemptAt: null, text: '', html: null })
      .where(eq(mailOutbox.id, row.id));
  }

  private async render(ref: MailAttachmentRef): Promise<MailAttachment> {
    if (!this.attachment) throw new Error(`no renderer for a ${ref.kind} attachment`);
    return this.attachment(ref);
  }

  private async recordFailure(row: OutboxRow, error: unknown): Promise<void> {
    const message = errorText(error);
    const delay = this.retryDelay(row.attempts);
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
