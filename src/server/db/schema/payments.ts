import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { plans, schools } from './platform';

/**
 * Subscription orders and their payments (ruling 16). A row is created with the order and becomes
 * `paid` exactly once, whether the browser callback or the provider's webhook arrives first.
 */
export const subscriptionPayments = pgTable(
  'subscription_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    /** offline: a cheque, NEFT or UPI payment the master administrator recorded */
    provider: text('provider', { enum: ['razorpay', 'sandbox', 'offline'] }).notNull(),
    /** online for the providers; cheque, neft or upi for an offline payment */
    mode: text('mode', { enum: ['online', 'cheque', 'neft', 'upi'] }).notNull().default('online'),
    /** the cheque number or bank/UPI reference of an offline payment */
    reference: text('reference'),
    /** the first-time discount percent the order was priced with (a later catalogue change does not touch it) */
    discountPercent: integer('discount_percent'),
    orderId: text('order_id').notNull(),
    paymentId: text('payment_id'),
    planId: text('plan_id').notNull().references(() => plans.id),
    billingCycle: text('billing_cycle', { enum: ['monthly', 'yearly'] }).notNull(),
    basePaise: bigint('base_paise', { mode: 'number' }).notNull(),
    discountPaise: bigint('discount_paise', { mode: 'number' }).notNull(),
    gstPaise: bigint('gst_paise', { mode: 'number' }).notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    /** the quote (ruling 28): what the order buys, worked out when it was created and applied as such once paid */
    kind: text('kind', { enum: ['start', 'extend', 'upgrade', 'queue'] }),
    creditPaise: bigint('credit_paise', { mode: 'number' }).notNull().default(0),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    /** refused: paid against a quote that no longer held (e.g. a second first-time discount); to be refunded */
    status: text('status', { enum: ['created', 'paid', 'refused'] }).notNull().default('created'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('subscription_payments_order_unique').on(t.orderId),
    uniqueIndex('subscription_payments_payment_unique').on(t.paymentId),
    index('subscription_payments_school_created_idx').on(t.schoolId, t.createdAt),
  ],
);

/**
 * The operator's subscription actions already done, by the key the portal's dialog sent (ruling 5):
 * a second press of Extend, Change Plan or Record Payment, or a retry after a lost answer, finds its
 * key here (written under the school's row lock with the action) and answers what the first did.
 */
export const subscriptionRequestKeys = pgTable(
  'subscription_request_keys',
  {
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    clientId: text('client_id').notNull(),
    /** the audit action it made: subscription.extend, subscription.change-plan, subscription.offline-payment */
    action: text('action').notNull(),
    /** a fingerprint of the request's fields: the same key with other fields is refused */
    requestHash: text('request_hash').notNull(),
    /** the subscription payment an offline payment recorded (its invoice is found from it) */
    paymentId: uuid('payment_id').references(() => subscriptionPayments.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscription_request_keys_unique').on(t.schoolId, t.clientId)],
);
