import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { subscriptionPayments } from './payments';
import { plans, schools, users } from './platform';

/** What an invoice names as supplier and buyer, copied when it is issued so it never changes afterwards. */
export interface InvoiceParty {
  name: string;
  address: string;
  state: string | null;
  gstin: string | null;
}

/**
 * GST tax invoices for subscription payments (ruling 33): one per paid payment, online or offline.
 * Numbers are the supplier's, gapless per financial year across all schools (invoice_counters).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    paymentId: uuid('payment_id').notNull().references(() => subscriptionPayments.id),
    number: text('number').notNull(),
    financialYear: text('financial_year').notNull(),
    sequence: integer('sequence').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    supplier: jsonb('supplier').$type<InvoiceParty & { sac: string }>().notNull(),
    buyer: jsonb('buyer').$type<InvoiceParty & { email: string }>().notNull(),
    description: text('description').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    taxablePaise: bigint('taxable_paise', { mode: 'number' }).notNull(),
    cgstPaise: bigint('cgst_paise', { mode: 'number' }).notNull(),
    sgstPaise: bigint('sgst_paise', { mode: 'number' }).notNull(),
    igstPaise: bigint('igst_paise', { mode: 'number' }).notNull(),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('invoices_school_issued_idx').on(t.schoolId, t.issuedAt),
    uniqueIndex('invoices_payment_unique').on(t.paymentId),
    uniqueIndex('invoices_year_sequence_unique').on(t.financialYear, t.sequence),
  ],
);

/** The last invoice number of each financial year: taken under the row's lock, in the invoice's transaction. */
export const invoiceCounters = pgTable('invoice_counters', {
  financialYear: text('financial_year').primaryKey(),
  lastSequence: integer('last_sequence').notNull(),
});

/** Every change of the plan catalogue, with who made it and why; orders keep the price they were made at. */
export const planHistory = pgTable(
  'plan_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    planId: text('plan_id').notNull().references(() => plans.id),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
    changedBy: uuid('changed_by').references(() => users.id),
    reason: text('reason').notNull(),
    before: jsonb('before').notNull(),
    after: jsonb('after').notNull(),
  },
  (t) => [index('plan_history_plan_changed_idx').on(t.planId, t.changedAt)],
);

/**
 * Renewal reminders and expiry notices already queued, one per school, kind and plan end date:
 * the scheduled job inserts here first and mails only when the row is new, so each mail goes once.
 */
export const subscriptionNotices = pgTable(
  'subscription_notices',
  {
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    kind: text('kind', { enum: ['renewal-7d', 'renewal-1d', 'expired'] }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('subscription_notices_unique').on(t.schoolId, t.kind, t.periodEnd)],
);
