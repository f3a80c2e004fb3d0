import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform';

/**
 * The second factor of a master administrator's sign-in (RFC 6238 TOTP, decision 0035). The shared
 * secret is kept encrypted with the field cipher (as Aadhaar numbers are); `enabledAt` stays null
 * until the administrator has proved the authenticator with a first code.
 */
export const userTotp = pgTable('user_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  /** FieldCipher text of the base32 secret */
  secretCipher: text('secret_cipher').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** the 30-second step of the last accepted code: a code works once, and never an older one */
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every call the payment provider made to the webhook, valid or not: the System tab shows the last
 * one, and a run of bad signatures shows a wrong webhook secret. Platform-wide, so no school id.
 */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    provider: text('provider').notNull(),
    /** e.g. payment.captured; null when the body could not be read */
    event: text('event'),
    /** invalid_signature, ignored, or what the payment became (activated, already_paid, …) */
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('payment_webhook_events_received_idx').on(t.receivedAt)],
);
