import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, max, or, sql } from 'drizzle-orm';
import type { MessageChannel } from '../../domain/reminders';
import type { Db } from '../db/client';
import { messageOutbox } from '../db/schema';
import { OutboxWorker, type OutboxWorkerOptions } from '../lib/outbox-worker';
import { ProviderError, type MessageProvider } from './provider';

export type MessageRow = typeof messageOutbox.$inferSelect;

export interface QueuedMessage {
  schoolId: string;
  studentId: string;
  channel: MessageChannel;
  to: string;
  body: string;
  templateValues: string[];
  linkId: string | null;
  linkUrl: string | null;
  origin: MessageRow['origin'];
  createdBy: string | null;
  now: Date;
}

/** Bumped on every queued message; the app nudges its sender after a response that queued some (as for mail). */
let queuedGeneration = 0;

/**
 * Writes messages to the outbox, in the caller's transaction (ruling 31): a rolled-back change
 * sends nothing, a committed one cannot lose its message. Never talks to a provider.
 */
export async function queueMessages(tx: Db, messages: QueuedMessage[]): Promise<MessageRow[]> {
  if (messages.length === 0) return [];
  const rows = await tx
    .insert(messageOutbox)
    .values(messages.map((m) => ({ ...m, toNumber: m.to, createdAt: m.now, status: 'queued' as const })))
    .returning();
  queuedGeneration += 1;
  return rows;
}

export interface MessageWorkerOptions extends OutboxWorkerOptions {
  db: Db;
  provider: MessageProvider;
}

/**
 * Sends the message outbox in the background, the way MailWorker sends mail (decision 0014): one
 * due row at a time, claimed with SKIP LOCKED and leased, sent with a time limit, then `sent`, or
 * the error recorded and a retry scheduled with backoff; a permanent refusal or the last attempt
 * makes it `failed`, which the student's message log and the System tab show.
 */
export class MessageWorker extends OutboxWorker<MessageRow> {
  private readonly db: Db;
  private readonly provider: MessageProvider;
  protected readonly readFailure = 'the message sender could not read the outbox';

  constructor(options: MessageWorkerOptions) {
    super(options, { sendTimeoutMs: 30_000 }, () => queuedGeneration);
    this.db = options.db;
    this.provider = options.provider;
  }

  protected async claim(): Promise<MessageRow | undefined> {
    const now = this.clock.now();
    const due = this.db
      .select({ id: messageOutbox.id })
      .from(messageOutbox)
      .where(
        or(
          and(eq(messageOutbox.status, 'queued'), or(isNull(messageOutbox.nextAttemptAt), lte(messageOutbox.nextAttemptAt, now))),
          and(eq(messageOutbox.status, 'sending'), lte(messageOutbox.nextAttemptAt, now)),
        ),
      )
      .orderBy(asc(messageOutbox.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await this.db
      .update(messageOutbox)
      .set({ status: 'sending', attempts: sql`${messageOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + this.leaseMs) })
      .where(inArray(messageOutbox.id, due))
      .returning();
    return row;
  }

  protected async deliver(row: MessageRow): Promise<void> {
    let providerMessageId: string | null;
    try {
      ({ providerMessageId } = await this.sendWithTimeout(row));
    } catch (error) {
      await this.recordFailure(row, error);
      return;
    }
    // a delivery report can arrive before this update: never step back from delivered
    await this.db
      .update(messageOutbox)
      .set({ status: sql`case when ${messageOutbox.status} = 'delivered' then 'delivered' else 'sent' end`, sentAt: this.clock.now(), nextAttemptAt: null, providerMessageId })
      .where(eq(messageOutbox.id, row.id));
  }

  private async sendWithTimeout(row: MessageRow) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.sendTimeoutMs);
    const timeout = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(new ProviderError(`no answer within ${this.sendTimeoutMs / 1000} s`, false)));
    });
    try {
      return await Promise.race([
        this.provider.send({ id: row.id, channel: row.channel, to: row.toNumber, body: row.body, templateValues: row.templateValues }, controller.signal),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async recordFailure(row: MessageRow, error: unknown): Promise<void> {
    const message = errorText(error);
    const permanent = error instanceof ProviderError && error.permanent;
    const delay = permanent ? undefined : this.retryDelay(row.attempts);
    const giveUp = delay === undefined;
    const now = this.clock.now();
    await this.db
      .update(messageOutbox)
      .set({ status: giveUp ? 'failed' : 'queued', nextAttemptAt: giveUp ? null : new Date(now.getTime() + delay), lastError: message, lastFailedAt: now })
      .where(eq(messageOutbox.id, row.id));
    const details = { messageId: row.id, channel: row.channel, attempts: row.attempts, error: message };
    if (giveUp) this.log.error(details, permanent ? 'the provider refused the message' : 'the message could not be sent; giving up');
    else this.log.warn({ ...details, retryInMs: delay }, 'the message could not be sent; will retry');
  }
}

/** The error as kept and shown: providers sometimes quote the number, so long digit runs are masked. */
function errorText(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\d{6,}(\d{4})/g, 'XXXXXX$1');
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

export interface MessageOutboxHealth {
  /** waiting to be sent, including those being sent right now */
  pending: number;
  failed: number;
  lastFailureAt: Date | null;
  lastError: string | null;
}

/** What the master administrator's System tab shows of the message backlog. */
export async function messageOutboxHealth(db: Db): Promise<MessageOutboxHealth> {
  const [counts] = await db
    .select({
      pending: count(sql`case when ${messageOutbox.status} in ('queued', 'sending') then 1 end`),
      failed: count(sql`case when ${messageOutbox.status} = 'failed' then 1 end`),
      lastFailureAt: max(messageOutbox.lastFailedAt),
    })
    .from(messageOutbox)
    .where(or(inArray(messageOutbox.status, ['queued', 'sending', 'failed']), isNotNull(messageOutbox.lastFailedAt)));
  const [failure] = counts?.lastFailureAt
    ? await db
        .select({ error: messageOutbox.lastError })
        .from(messageOutbox)
        .where(isNotNull(messageOutbox.lastFailedAt))
        .orderBy(desc(messageOutbox.lastFailedAt))
        .limit(1)
    : [];
  return {
    pending: Number(counts?.pending ?? 0),
    failed: Number(counts?.failed ?? 0),
    lastFailureAt: counts?.lastFailureAt ? new Date(counts.lastFailureAt) : null,
    lastError: failure?.error ?? null,
  };
}
