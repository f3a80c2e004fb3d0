import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, boolean } from 'drizzle-orm/pg-core';
import { CONCESSION_KINDS, CONCESSION_STATUSES, type ConcessionHead } from '../../../domain/concessions';
import { FINE_WAIVER_STATUSES } from '../../../domain/fines';
import { schools, users } from './platform';
import { academicSessions, students } from './students';

/**
 * Fee policy (issue 16, decision 0047): concession types and a student's concessions, waivers of
 * late fines, the school's fee rules (late fine, Tally mapping) and instalment plans. None of these
 * is money received: the ledger stays the receipts; these change what is due.
 */

export const concessionTypes = pgTable(
  'concession_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    name: text('name').notNull(),
    kind: text('kind', { enum: CONCESSION_KINDS }).notNull(),
    /** hundredths of a percent (percent) or paise per month per head (amount) */
    value: bigint('value', { mode: 'number' }).notNull(),
    heads: jsonb('heads').$type<ConcessionHead[]>().notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('concession_types_school_name_unique').on(t.schoolId, sql`lower(${t.name})`),
    check('concession_types_value_positive', sql`${t.value} > 0 and (${t.kind} <> 'percent' or ${t.value} <= 10000)`),
  ],
);

export const concessions = pgTable(
  'concessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id),
    typeId: uuid('type_id').notNull().references(() => concessionTypes.id),
    fromMonth: text('from_month').notNull(),
    toMonth: text('to_month'),
    status: text('status', { enum: CONCESSION_STATUSES }).notNull().default('requested'),
    reason: text('reason').notNull(),
    decisionReason: text('decision_reason'),
    /** `tuition:2025-04`, `exam`: heads and months already paid when approved, left as they were */
    excluded: jsonb('excluded').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    requestedBy: uuid('requested_by').references(() => users.id),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('concessions_school_student_session_idx').on(t.schoolId, t.studentId, t.sessionId),
    index('concessions_school_status_idx').on(t.schoolId, t.status),
    check('concessions_months_ordered', sql`${t.toMonth} is null or ${t.toMonth} >= ${t.fromMonth}`),
  ],
);

export const fineWaivers = pgTable(
  'fine_waivers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id),
    /** the instalment key: `2025-04` for a month, `Q1`, `H2`, `I1` under a plan */
    instalment: text('instalment').notNull(),
    status: text('status', { enum: FINE_WAIVER_STATUSES }).notNull().default('requested'),
    reason: text('reason').notNull(),
    decisionReason: text('decision_reason'),
    /** the fine of the instalment when the waiver was approved, for the record */
    amountPaise: bigint('amount_paise', { mode: 'number' }),
    requestedBy: uuid('requested_by').references(() => users.id),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('fine_waivers_school_student_session_idx').on(t.schoolId, t.studentId, t.sessionId),
    // one approved waiver per instalment: a second approval would not waive more
    uniqueIndex('fine_waivers_approved_unique').on(t.schoolId, t.studentId, t.sessionId, t.instalment).where(sql`status = 'approved'`),
  ],
);

/** A school's settings of issue 16: one row, each part JSON shaped by its domain schema. */
export const feeRules = pgTable('fee_rules', {
  schoolId: uuid('school_id').primaryKey().references(() => schools.id),
  lateFine: jsonb('late_fine'),
  tallyMapping: jsonb('tally_mapping'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Instalment plans: `scope` is a class name, or '' for the school's default. */
export const instalmentPlans = pgTable(
  'instalment_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    scope: text('scope').notNull(),
    plan: jsonb('plan').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('instalment_plans_school_scope_unique').on(t.schoolId, t.scope)],
);
