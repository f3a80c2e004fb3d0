import { sql } from 'drizzle-orm';
import { bigint, check, date, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { CHEQUE_STATUSES } from '../../../domain/cheques';
import { receipts } from './ledger';
import { schools, users } from './platform';

/** A teacher's classes/sections and subjects (ruling 32): results and marks routes filter to them. */
export const teacherAssignments = pgTable(
  'teacher_assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    userId: uuid('user_id').notNull().references(() => users.id),
    className: text('class_name').notNull(),
    /** null: every section of the class */
    section: text('section'),
    /** empty: every subject of the class */
    subjects: jsonb('subjects').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('teacher_assignments_school_user_idx').on(t.schoolId, t.userId)],
);

/**
 * One collector's closing of one day (docs/decisions/0046): the counted notes, the cash the
 * receipts expected, and the difference; saved once, then only acknowledged.
 */
export const cashClosings = pgTable(
  'cash_closings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    userId: uuid('user_id').notNull().references(() => users.id),
    /** the India date closed */
    day: date('day').notNull(),
    counts: jsonb('counts').$type<Record<string, number>>().notNull(),
    countedPaise: bigint('counted_paise', { mode: 'number' }).notNull(),
    expectedPaise: bigint('expected_paise', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    closedAt: timestamp('closed_at', { withTimezone: true }).notNull(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('cash_closings_school_user_day_unique').on(t.schoolId, t.userId, t.day),
    index('cash_closings_school_day_idx').on(t.schoolId, t.day),
  ],
);

/**
 * Where a cheque receipt stands. Kept beside the receipt because a saved receipt is never edited;
 * a bounce also cancels the receipt (with `bounced` here marking why), so every balance re-opens.
 */
export const cheques = pgTable(
  'cheques',
  {
    receiptId: uuid('receipt_id')
      .primaryKey()
      .references(() => receipts.id),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    status: text('status', { enum: CHEQUE_STATUSES }).notNull(),
    depositedOn: date('deposited_on'),
    clearedOn: date('cleared_on'),
    bouncedOn: date('bounced_on'),
    bounceReason: text('bounce_reason'),
    bankChargesPaise: bigint('bank_charges_paise', { mode: 'number' }),
    updatedBy: uuid('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cheques_school_status_idx').on(t.schoolId, t.status),
    check('cheques_bounce_complete', sql`${t.status} <> 'bounced' or (${t.bouncedOn} is not null and ${t.bounceReason} is not null)`),
  ],
);
