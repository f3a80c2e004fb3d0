import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { OPENING_HEADS } from '../../../domain/opening';
import { schools, users } from './platform';
import { academicSessions, students } from './students';

/**
 * Arrears from the school's old register, entered when it starts using the product (decision 0027):
 * money the student owed before go-live, per head or as one lump sum. Not a receipt: nothing was
 * received. Paid off by `opening_balance` receipt lines; cancelled (never deleted) with a reason.
 */
export const openingBalances = pgTable(
  'opening_balances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    /** the session running when the arrear was entered (for the record; arrears do not close with it) */
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id),
    head: text('head', { enum: OPENING_HEADS }).notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    cancelReason: text('cancel_reason'),
  },
  (t) => [
    index('opening_balances_school_student_idx').on(t.schoolId, t.studentId),
    check('opening_balances_amount_positive', sql`${t.amountPaise} > 0 and ${t.amountPaise} <= 1000000000`),
    check(
      'opening_balances_cancel_complete',
      sql`(${t.cancelledAt} is null and ${t.cancelReason} is null) or (${t.cancelledAt} is not null and ${t.cancelReason} is not null)`,
    ),
  ],
);
