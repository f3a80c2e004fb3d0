import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { receipts } from './ledger';
import { schools, users } from './platform';
import { students } from './students';

/**
 * Parents paying online (issue 13, rulings 27 and 34): the school's own collection settings,
 * payment links, the gateway payments made through them, UPI payments waiting for the clerk, and
 * the student's credit (money that arrived for a fee already collected).
 */

/** The school's own gateway keys and UPI id. Secrets are encrypted like Aadhaar (FieldCipher). */
export const schoolPaymentSettings = pgTable('school_payment_settings', {
  schoolId: uuid('school_id').primaryKey().references(() => schools.id),
  razorpayKeyId: text('razorpay_key_id'),
  razorpayKeySecretEnc: text('razorpay_key_secret_enc'),
  razorpayWebhookSecretEnc: text('razorpay_webhook_secret_enc'),
  upiVpa: text('upi_vpa'),
  upiPayeeName: text('upi_payee_name'),
  /** the unguessable path part of the school's webhook URL, so a webhook names its school without a session */
  webhookKey: text('webhook_key').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('school_payment_settings_webhook_key_unique').on(t.webhookKey)]);

export const LINK_STATUSES = ['active', 'paid', 'cancelled'] as const;

export const paymentLinks = pgTable(
  'payment_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    /** 32 random bytes, base64url (ruling 34: ≥ 128 bits) */
    linkToken: text('link_token').notNull(),
    /** a fee head of domain/ledger.ts, or `outstanding` */
    feeType: text('fee_type').notNull(),
    feeMonth: text('fee_month'),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    description: text('description').notNull(),
    /** stored status; `expired` is computed from expiresAt */
    status: text('status', { enum: LINK_STATUSES }).notNull().default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    receiptId: uuid('receipt_id').references(() => receipts.id),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_links_token_unique').on(t.linkToken),
    index('payment_links_school_student_idx').on(t.schoolId, t.studentId, t.createdAt),
    index('payment_links_school_created_idx').on(t.schoolId, t.createdAt),
    check('payment_links_amount_positive', sql`${t.amountPaise} > 0`),
  ],
);

/**
 * One payment attempt through a link: a gateway order (razorpay, sandbox) or a confirmed direct
 * UPI transfer. Captured exactly once; what it paid is a receipt, what was beyond the dues a credit.
 */
export const onlinePayments = pgTable(
  'online_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    linkId: uuid('link_id').notNull().references(() => paymentLinks.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    provider: text('provider', { enum: ['razorpay', 'sandbox', 'upi'] }).notNull(),
    orderId: text('order_id').notNull(),
    paymentId: text('payment_id'),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    status: text('status', { enum: ['pending', 'receipted', 'credited', 'partly_credited', 'failed'] }).notNull().default('pending'),
    receiptId: uuid('receipt_id').references(() => receipts.id),
    creditPaise: bigint('credit_paise', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    capturedAt: timestamp('captured_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('online_payments_school_order_unique').on(t.schoolId, t.orderId),
    uniqueIndex('online_payments_school_payment_unique').on(t.schoolId, t.provider, t.paymentId).where(sql`${t.paymentId} is not null`),
    index('online_payments_school_captured_idx').on(t.schoolId, t.capturedAt),
    index('online_payments_school_link_idx').on(t.schoolId, t.linkId),
    check('online_payments_amount_positive', sql`${t.amountPaise} > 0`),
  ],
);

/** A parent's report of a direct UPI transfer to the school's VPA, waiting for the clerk. */
export const upiConfirmations = pgTable(
  'upi_confirmations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    linkId: uuid('link_id').notNull().references(() => paymentLinks.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    upiReference: text('upi_reference').notNull(),
    payerName: text('payer_name'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['pending', 'confirmed', 'rejected'] }).notNull().default('pending'),
    reason: text('reason'),
    onlinePaymentId: uuid('online_payment_id').references(() => onlinePayments.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('upi_confirmations_school_reference_unique').on(t.schoolId, t.upiReference),
    index('upi_confirmations_school_status_idx').on(t.schoolId, t.status, t.submittedAt),
  ],
);

export const CREDIT_KINDS = ['online_excess', 'applied', 'refund'] as const;

/**
 * The student's credit (ruling 27) as a ledger: online excess adds (positive), applying it to a fee
 * or refunding it takes away (negative). The balance is the sum; rows are never edited.
 */
export const studentCreditEntries = pgTable(
  'student_credit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    at: timestamp('at', { withTimezone: true }).notNull(),
    kind: text('kind', { enum: CREDIT_KINDS }).notNull(),
    /** signed paise: + for online excess, − for applied and refunded */
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    reason: text('reason'),
    /** refunds: cash, upi, bank_transfer, cheque */
    mode: text('mode'),
    /** the online receipt beside the excess, or the receipt the credit paid */
    receiptId: uuid('receipt_id').references(() => receipts.id),
    onlinePaymentId: uuid('online_payment_id').references(() => onlinePayments.id),
    byUserId: uuid('by_user_id').references(() => users.id),
    byName: text('by_name').notNull(),
    /** a refund's idempotency key from the Refund dialog (ruling 5): a second press finds this entry */
    clientId: text('client_id'),
  },
  (t) => [
    uniqueIndex('student_credit_entries_school_client_idx').on(t.schoolId, t.clientId).where(sql`${t.clientId} is not null`),
    index('student_credit_entries_school_student_idx').on(t.schoolId, t.studentId, t.at),
    index('student_credit_entries_school_at_idx').on(t.schoolId, t.at),
    check(
      'student_credit_entries_sign',
      sql`(${t.kind} = 'online_excess' and ${t.amountPaise} > 0) or (${t.kind} <> 'online_excess' and ${t.amountPaise} < 0)`,
    ),
    check('student_credit_entries_refund_reason', sql`${t.kind} <> 'refund' or (${t.reason} is not null and length(${t.reason}) > 0)`),
  ],
);
