import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { FEE_HEADS, PAYMENT_MODES, RECEIPT_PREFIXES, RECEIPT_SOURCES } from '../../../domain/ledger';
import { schools, users } from './platform';
import { academicSessions, students } from './students';

/**
 * The fee ledger (rulings 1–5, 9). Receipts and their lines are written once: a database trigger
 * (migration `ledger_guards`) refuses to change or delete a line and allows a receipt only the one
 * move from live to cancelled.
 */

/** The last receipt number handed out per school, prefix and academic year (ruling 4): gapless. */
export const receiptCounters = pgTable(
  'receipt_counters',
  {
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    prefix: text('prefix', { enum: RECEIPT_PREFIXES }).notNull(),
    /** `2025-2026` */
    academicYear: text('academic_year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.prefix, t.academicYear] })],
);

export const receipts = pgTable(
  'receipts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    /** `MON/2025-26/000042` */
    receiptNumber: text('receipt_number').notNull(),
    prefix: text('prefix', { enum: RECEIPT_PREFIXES }).notNull(),
    academicYear: text('academic_year').notNull(),
    sequence: integer('sequence').notNull(),
    /** monthly grid, yearly cards, Record Fee Payment, online gateway, opening entries (months paid before go-live) */
    source: text('source', { enum: RECEIPT_SOURCES }).notNull(),
    studentId: uuid('student_id').notNull().references(() => students.id),
    /** the session the receipt is numbered in */
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id),
    /** the student as the receipt shows them, kept as at the day of payment */
    studentName: text('student_name').notNull(),
    className: text('class_name').notNull(),
    section: text('section').notNull(),
    rollNumber: integer('roll_number').notNull(),
    paymentMode: text('payment_mode', { enum: PAYMENT_MODES }).notNull().default('cash'),
    chequeNumber: text('cheque_number'),
    bankName: text('bank_name'),
    upiReference: text('upi_reference'),
    transactionReference: text('transaction_reference'),
    receivedBy: text('received_by').notNull(),
    receivedByUserId: uuid('received_by_user_id').references(() => users.id),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull(),
    /** idempotency key (ruling 5), unique per school */
    clientId: text('client_id'),
    /** what the request asked for, so a reused clientId with other content is refused */
    requestHash: text('request_hash'),
    status: text('status', { enum: ['live', 'cancelled'] }).notNull().default('live'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    cancelReason: text('cancel_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('receipts_school_number_unique').on(t.schoolId, t.receiptNumber),
    uniqueIndex('receipts_school_sequence_unique').on(t.schoolId, t.prefix, t.academicYear, t.sequence),
    uniqueIndex('receipts_school_client_unique').on(t.schoolId, t.clientId).where(sql`${t.clientId} is not null`),
    index('receipts_school_student_idx').on(t.schoolId, t.studentId, t.receivedAt),
    index('receipts_school_received_idx').on(t.schoolId, t.receivedAt),
    // the few opening receipts, so "income of the day" can leave them out without reading every receipt
    index('receipts_school_opening_idx').on(t.schoolId, t.id).where(sql`${t.source} = 'opening'`),
    check('receipts_total_positive', sql`${t.totalPaise} > 0`),
    check(
      'receipts_cancel_complete',
      sql`(${t.status} = 'live' and ${t.cancelledAt} is null) or (${t.status} = 'cancelled' and ${t.cancelledAt} is not null and ${t.cancelReason} is not null)`,
    ),
  ],
);

export const receiptLines = pgTable(
  'receipt_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    receiptId: uuid('receipt_id').notNull().references(() => receipts.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    /** the session whose fees the line pays (for previous_balance: the session the balance was left in) */
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id),
    head: text('head', { enum: FEE_HEADS }).notNull(),
    /** `2025-04` for tuition and bus, null for the rest */
    period: text('period'),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    paidOn: date('paid_on', { mode: 'string' }).notNull(),
    /** the line's place on its receipt, as entered */
    position: smallint('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('receipt_lines_school_student_session_idx').on(t.schoolId, t.studentId, t.sessionId, t.head),
    index('receipt_lines_school_session_idx').on(t.schoolId, t.sessionId),
    index('receipt_lines_school_receipt_idx').on(t.schoolId, t.receiptId),
    check('receipt_lines_amount_positive', sql`${t.amountPaise} > 0 and ${t.amountPaise} <= 1000000000`),
    check('receipt_lines_period_format', sql`${t.period} is null or ${t.period} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

/**
 * A student's balance left in a session they moved out of (ruling 9): written at promotion,
 * rollover, discharge and graduation, and paid off by previous_balance lines naming that session.
 */
export const previousBalances = pgTable(
  'student_previous_balances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id),
    academicYear: text('academic_year').notNull(),
    className: text('class_name').notNull(),
    monthlyOutstandingPaise: bigint('monthly_outstanding_paise', { mode: 'number' }).notNull(),
    yearlyOutstandingPaise: bigint('yearly_outstanding_paise', { mode: 'number' }).notNull(),
    /** the last month the balance counts (`YYYY-MM`): the session's last month, or the month of leaving */
    throughMonth: text('through_month').notNull(),
    reason: text('reason', { enum: ['promotion', 'rollover', 'discharge', 'graduation'] }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    /** set when a cancelled receipt of the closed session put dues back */
    adjustedAt: timestamp('adjusted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('student_previous_balances_student_session_unique').on(t.schoolId, t.studentId, t.sessionId),
    check('student_previous_balances_non_negative', sql`${t.monthlyOutstandingPaise} >= 0 and ${t.yearlyOutstandingPaise} >= 0`),
  ],
);

/** Students who left: graduated out of Class 12 or discharged. Their dues stay collectable. */
export const passouts = pgTable(
  'passouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    name: text('name').notNull(),
    rollNumber: integer('roll_number').notNull(),
    lastClass: text('last_class').notNull(),
    section: text('section').notNull(),
    /** the session they left from */
    sessionId: uuid('session_id').references(() => academicSessions.id),
    graduationYear: integer('graduation_year').notNull(),
    passoutDate: date('passout_date', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: ['graduated', 'discharged'] }).notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('passouts_school_student_unique').on(t.schoolId, t.studentId),
    index('passouts_school_year_idx').on(t.schoolId, t.graduationYear),
  ],
);

/**
 * Income of each day per head (decision 0089): what the live receipt lines of a day add up to, for
 * the lines that are income (ruling 2, decision 0027: not of a cancelled receipt, not an opening
 * entry), and the part of it paid from students' credit (receipts of mode credit, ruling 27). The
 * financial report's totals sum these rows for its period instead of every line of the period.
 *
 * Kept by database triggers (migration 0043), not by the writers: a line's insert adds it, a
 * receipt's cancellation takes its lines back out. Lines never change (migration 0004), so the sums
 * are exact. A day's head is spread over `slot`s (the student's id hashed to 0–15), so two clerks
 * taking fees at once seldom wait for the same row; readers sum the slots. verify-ledger recomputes
 * every day from the lines.
 */
export const incomeDays = pgTable(
  'income_days',
  {
    schoolId: uuid('school_id').notNull().references(() => schools.id, { onDelete: 'cascade' }),
    paidOn: date('paid_on', { mode: 'string' }).notNull(),
    head: text('head', { enum: FEE_HEADS }).notNull(),
    slot: smallint('slot').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    /** of `amount_paise`, what receipts of mode credit paid */
    creditPaise: bigint('credit_paise', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.paidOn, t.head, t.slot] })],
);
