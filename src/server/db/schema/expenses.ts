import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { EXPENSE_CATEGORIES } from '../../../domain/expenses';
import { schools, users } from './platform';

/**
 * What the school spends (operations §3 Expense, ruling 20). A deleted expense is kept with
 * `deleted_at` set: the audit log names it, and reports of a past period do not silently change
 * without a trace.
 */
export const expenses = pgTable(
  'expenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    category: text('category', { enum: EXPENSE_CATEGORIES }).notNull(),
    description: text('description').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    /** the day the money was spent (India date) */
    expenseDate: date('expense_date', { mode: 'string' }).notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    updatedBy: uuid('updated_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references(() => users.id),
    /** the Add dialog's idempotency key (ruling 5): a second press or a retry of one add finds this row */
    clientId: text('client_id'),
  },
  (t) => [
    // every read is "this school's live expenses in a date range"
    index('expenses_school_date_idx').on(t.schoolId, t.expenseDate).where(sql`${t.deletedAt} is null`),
    uniqueIndex('expenses_school_client_idx').on(t.schoolId, t.clientId).where(sql`${t.clientId} is not null`),
    check('expenses_amount_range', sql`${t.amountPaise} >= 0 and ${t.amountPaise} <= 10000000000`),
    check(
      'expenses_category_known',
      sql.raw(`category in (${EXPENSE_CATEGORIES.map((c) => `'${c.replace(/'/g, "''")}'`).join(', ')})`),
    ),
  ],
);

/**
 * A counter per school, raised after every successful write a school makes (see
 * docs/decisions/0011-report-queries.md): cached school stats are valid while it stays the same.
 */
export const schoolDataVersions = pgTable('school_data_versions', {
  schoolId: uuid('school_id').primaryKey().references(() => schools.id),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});
