import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { schools } from './platform';

/** What a queued mail attaches: the kind of document and its id. */
export type MailAttachmentRef = { kind: 'invoice'; id: string };

/**
 * Transactional outbox (ruling 31): a mail is a row written in the same transaction as the change
 * that causes it, and a background worker sends it. `next_attempt_at` is null for a fresh row (due at
 * once); for a row being sent it is the end of the sender's lease, after which another worker may
 * take it over (a sender that died mid-send); for a row waiting to be retried it is the backoff's end.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** the school the mail concerns; null for platform mail (e.g. the master administrator's) */
    schoolId: uuid('school_id').references(() => schools.id),
    /** a short label of what the mail is, e.g. 'confirm-email', 'reset-password' */
    kind: text('kind').notNull(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    /** emptied once sent: bodies carry single-use links that must not outlive their delivery */
    text: text('text').notNull(),
    html: text('html'),
    /**
     * A document to attach, named not stored (e.g. the tax invoice of a payment): the worker renders
     * it when it sends, from a record that never changes, so the outbox row stays small.
     */
    attachment: jsonb('attachment').$type<MailAttachmentRef>(),
    status: text('status', { enum: ['queued', 'sending', 'sent', 'failed'] }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** when the last failed attempt happened and what went wrong; kept after a later success */
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    // the worker's pick query only ever looks at unsent rows: a partial index stays small
    index('mail_outbox_due_idx')
      .on(t.status, t.nextAttemptAt, t.createdAt)
      .where(sql`${t.status} in ('queued', 'sending')`),
    index('mail_outbox_failures_idx').on(t.lastFailedAt).where(sql`${t.lastFailedAt} is not null`),
  ],
);
