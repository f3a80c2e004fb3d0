import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { paymentLinks } from './online';
import { schools, users } from './platform';
import { students } from './students';

/**
 * Reminders by WhatsApp and SMS (ruling 35). One row per message to one family on one channel: the
 * outbox the background sender reads (ruling 31, like `mail_outbox`) and, kept after sending, the
 * student's message log (queued → sent → delivered, or failed). A "Share on WhatsApp" from the
 * clerk's own phone is logged too, as `shared`, and never sent by the server.
 */
export const messageOutbox = pgTable(
  'message_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    channel: text('channel', { enum: ['sms', 'whatsapp'] }).notNull(),
    /** `91` and ten digits */
    toNumber: text('to_number').notNull(),
    /** the words sent (the development outbox, wa.me) and the approved template's values (providers) */
    body: text('body').notNull(),
    templateValues: jsonb('template_values').$type<string[]>().notNull(),
    /** the payment link the message carries */
    linkId: uuid('link_id').references(() => paymentLinks.id),
    linkUrl: text('link_url'),
    /** who asked: a clerk from Fee Status, a bulk send to defaulters, the monthly schedule, a share from the clerk's phone */
    origin: text('origin', { enum: ['single', 'bulk', 'schedule', 'share'] }).notNull(),
    status: text('status', { enum: ['queued', 'sending', 'sent', 'delivered', 'failed', 'shared'] }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** null: due at once; while sending, the end of the sender's lease; while waiting, the backoff's end */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }),
    /** the provider's id of the message (WhatsApp `wamid…`, the SMS gateway's request id): delivery webhooks find the row by it */
    providerMessageId: text('provider_message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('message_outbox_school_student_idx').on(t.schoolId, t.studentId, t.createdAt),
    // the sender's pick query looks across schools at unsent rows only: a partial index stays small
    index('message_outbox_due_idx')
      .on(t.status, t.nextAttemptAt, t.createdAt)
      .where(sql`${t.status} in ('queued', 'sending')`),
    index('message_outbox_failures_idx').on(t.lastFailedAt).where(sql`${t.lastFailedAt} is not null`),
    uniqueIndex('message_outbox_provider_id_unique').on(t.channel, t.providerMessageId).where(sql`${t.providerMessageId} is not null`),
  ],
);

/** The optional monthly schedule of one school ("on the 5th, remind everyone who owes"). */
export const reminderSettings = pgTable(
  'reminder_settings',
  {
    schoolId: uuid('school_id').primaryKey().references(() => schools.id),
    enabled: boolean('enabled').notNull().default(false),
    dayOfMonth: integer('day_of_month').notNull().default(5),
    channel: text('channel', { enum: ['sms', 'whatsapp', 'preferred'] }).notNull().default('preferred'),
    /** `YYYY-MM` of the last month the schedule ran: it runs once per month, whatever restarts */
    lastRunMonth: text('last_run_month'),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    /** what the last run did: { queued, skipped } */
    lastRunSummary: jsonb('last_run_summary').$type<{ queued: number; skipped: number }>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('reminder_settings_day_of_month', sql`${t.dayOfMonth} between 1 and 28`)],
);
