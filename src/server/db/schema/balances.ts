import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { schools } from './platform';
import { academicSessions, students } from './students';

/**
 * Running balances (issue 14, decision 0041): ruling 6's figures per student and session, kept in
 * the same transaction as every write that changes them (`refreshBalances`), so whole-school screens
 * read arithmetic over these rows instead of the ledger. Derived data: `npm run verify-ledger`
 * recomputes every row from the receipts and reports any difference.
 *
 * One row per session the student sat in (their enrollments, their own session, or the school's
 * active session for a student never placed in one). Months are indexed from the session's first
 * month (`first_key`): `monthly_owed[k]` is the monthly outstanding with month k as the horizon, so
 * a screen answers for any month without the lines; a horizon before the session owes nothing.
 *
 * Both tables keep room on their pages for a row's next version (fillfactor 80 here, 90 for
 * `student_balances`), set by migration 0042: Drizzle cannot say it here (decision 0085).
 */
export const studentSessionBalances = pgTable(
  'student_session_balances',
  {
    schoolId: uuid('school_id').notNull().references(() => schools.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull().references(() => students.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id, { onDelete: 'cascade' }),
    className: text('class_name').notNull(),
    section: text('section').notNull(),
    rollNumber: integer('roll_number').notNull(),
    firstKey: text('first_key').notNull(),
    lastKey: text('last_key').notNull(),
    /** the first month tuition and bus are due: the session's, or the student's fees-from month when later */
    startKey: text('start_key').notNull(),
    tuitionPaise: bigint('tuition_paise', { mode: 'number' }).notNull(),
    busPaise: bigint('bus_paise', { mode: 'number' }).notNull(),
    /** the five yearly heads' expected amounts and what was received for each */
    admissionExpected: bigint('admission_expected', { mode: 'number' }).notNull(),
    examExpected: bigint('exam_expected', { mode: 'number' }).notNull(),
    booksExpected: bigint('books_expected', { mode: 'number' }).notNull(),
    uniformExpected: bigint('uniform_expected', { mode: 'number' }).notNull(),
    miscExpected: bigint('misc_expected', { mode: 'number' }).notNull(),
    admissionPaid: bigint('admission_paid', { mode: 'number' }).notNull(),
    examPaid: bigint('exam_paid', { mode: 'number' }).notNull(),
    booksPaid: bigint('books_paid', { mode: 'number' }).notNull(),
    uniformPaid: bigint('uniform_paid', { mode: 'number' }).notNull(),
    miscPaid: bigint('misc_paid', { mode: 'number' }).notNull(),
    /** what the yearly heads still owe once the session has begun */
    yearlyOwed: bigint('yearly_owed', { mode: 'number' }).notNull(),
    /** under an instalment plan splitting the yearly heads (decision 0048): what they owe with month k as the horizon; null: `yearly_owed` once the session has begun */
    yearlyOwedByMonth: bigint('yearly_owed_by_month', { mode: 'number' }).array(),
    /** under an instalment plan: with month k as the horizon, the last month k' whose fees have fallen due (−1: none); null: k itself */
    dueThrough: integer('due_through').array(),
    /** with `yearly_owed_by_month`, for the reports' reconciliation: the yearly heads' part due, its concessions and what was received against it at month k */
    yearlyDueByMonth: bigint('yearly_due_by_month', { mode: 'number' }).array(),
    yearlyGrantedByMonth: bigint('yearly_granted_by_month', { mode: 'number' }).array(),
    yearlyReceivedByMonth: bigint('yearly_received_by_month', { mode: 'number' }).array(),
    /** bit k: month k of the session has something recorded for tuition / bus */
    tuitionMask: bigint('tuition_mask', { mode: 'number' }).notNull(),
    busMask: bigint('bus_mask', { mode: 'number' }).notNull(),
    /** monthly outstanding (tuition + bus) with month k as the horizon, k = 0 … months − 1 */
    monthlyOwed: bigint('monthly_owed', { mode: 'number' }).array().notNull(),
    /** approved concessions (issue 16) on unrecorded monthly heads with month k as the horizon, and on the yearly heads */
    monthlyGranted: bigint('monthly_granted', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    yearlyGranted: bigint('yearly_granted', { mode: 'number' }).notNull().default(0),
    /**
     * the reports' reconciliation without the ledger (decision 0041): running sums by month k of what
     * tuition and bus received met of their due, and of the concessions of recorded months; and what
     * the yearly heads received met of theirs
     */
    monthlyApplied: bigint('monthly_applied', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    monthlyDiscount: bigint('monthly_discount', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    yearlyApplied: bigint('yearly_applied', { mode: 'number' }).notNull().default(0),
    /** the dashboard's collection without the ledger: what tuition and bus lines naming month k brought (running sum), and every bus line of the session */
    monthlyPaid: bigint('monthly_paid', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    busPaid: bigint('bus_paid', { mode: 'number' }).notNull().default(0),
    monthlyReceived: bigint('monthly_received', { mode: 'number' }).notNull(),
    yearlyReceived: bigint('yearly_received', { mode: 'number' }).notNull(),
    extrasReceived: bigint('extras_received', { mode: 'number' }).notNull(),
    /** every live line of the session but arrears payments */
    received: bigint('received', { mode: 'number' }).notNull(),
    /** the balance of this session was carried forward (ruling 9): closed for the student */
    closed: boolean('closed').notNull(),
    throughMonth: text('through_month'),
    carriedPaise: bigint('carried_paise', { mode: 'number' }).notNull(),
    carriedPaid: bigint('carried_paid', { mode: 'number' }).notNull(),
    carriedRemaining: bigint('carried_remaining', { mode: 'number' }).notNull(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.schoolId, t.studentId, t.sessionId] }),
    index('student_session_balances_school_session_idx').on(t.schoolId, t.sessionId),
  ],
);

/** Per student: the arrears not tied to a session's own figures, and the credit of ruling 27. */
export const studentBalances = pgTable(
  'student_balances',
  {
    schoolId: uuid('school_id').notNull().references(() => schools.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull().references(() => students.id, { onDelete: 'cascade' }),
    openingPaise: bigint('opening_paise', { mode: 'number' }).notNull(),
    openingPaid: bigint('opening_paid', { mode: 'number' }).notNull(),
    openingRemaining: bigint('opening_remaining', { mode: 'number' }).notNull(),
    /** every carried balance's remainder plus the opening arrears' remainder, and its monthly / yearly parts */
    carriedRemaining: bigint('carried_remaining', { mode: 'number' }).notNull(),
    carriedMonthlyRemaining: bigint('carried_monthly_remaining', { mode: 'number' }).notNull(),
    carriedYearlyRemaining: bigint('carried_yearly_remaining', { mode: 'number' }).notNull(),
    creditPaise: bigint('credit_paise', { mode: 'number' }).notNull(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.studentId] })],
);

/**
 * Whole-school figures per student at one month (decision 0058): what the dashboard's cards, the
 * charts' outstanding by class and the defaulters lists sum, picked from the running balances (and
 * the receipts, for revenue) at the month `school_positions.month_key` names. A write never updates
 * these rows: triggers on the tables they are read from mark the students touched
 * (`student_position_marks`), and the next reader recomputes the marked rows before it sums, so a
 * change is seen by the next request at the cost of a few rows, not of the whole school.
 *
 * One row per student of the school, any status; the position columns count only where `active`.
 */
export const studentPositions = pgTable(
  'student_positions',
  {
    // no foreign keys: checking two per row was a fifth of a 60,000-student build, and a deleted
    // student's row goes with the recompute their mark asks for (the students found are the rows kept)
    schoolId: uuid('school_id').notNull(),
    studentId: uuid('student_id').notNull(),
    /** an active student, counted in the positions (their `pos` row of `positionsCte`) */
    active: boolean('active').notNull(),
    sessionId: uuid('session_id'),
    closed: boolean('closed').notNull(),
    className: text('class_name').notNull(),
    section: text('section').notNull(),
    rollNumber: integer('roll_number').notNull(),
    /** the student as lists show them: name, the parent's phone (else the student's), the class's place in the class order (ruling 7) */
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    classRank: integer('class_rank').notNull(),
    firstKey: text('first_key'),
    startKey: text('start_key'),
    dueMonths: integer('due_months').notNull(),
    /** bit k: month k of the session (from `first_key`) has fallen due with a head expected and nothing recorded */
    dueMask: bigint('due_mask', { mode: 'number' }).notNull(),
    tuitionPaise: bigint('tuition_paise', { mode: 'number' }).notNull(),
    busPaise: bigint('bus_paise', { mode: 'number' }).notNull(),
    tuitionMask: bigint('tuition_mask', { mode: 'number' }).notNull(),
    busMask: bigint('bus_mask', { mode: 'number' }).notNull(),
    monthlyOwed: bigint('monthly_owed', { mode: 'number' }).notNull(),
    yearlyOwed: bigint('yearly_owed', { mode: 'number' }).notNull(),
    carriedOwed: bigint('carried_owed', { mode: 'number' }).notNull(),
    owed: bigint('owed', { mode: 'number' }).notNull(),
    expectedNow: bigint('expected_now', { mode: 'number' }).notNull(),
    yearlyPotential: bigint('yearly_potential', { mode: 'number' }).notNull(),
    /** bus fee received in the active session; tuition and bus received for this month's fees; Paid for last month */
    busPaidActive: bigint('bus_paid_active', { mode: 'number' }).notNull(),
    monthPaid: bigint('month_paid', { mode: 'number' }).notNull(),
    paidLast: boolean('paid_last').notNull(),
    /** every live receipt in money and credit received (ruling 27), and what came in with a payment date in this month */
    revenue: bigint('revenue', { mode: 'number' }).notNull(),
    monthIncome: bigint('month_income', { mode: 'number' }).notNull(),
    /**
     * The row as the defaulters list writes it in JSON, around the two fields a build adds (the months
     * due as text, today's fine): `{"className":…,"phone":…` and `,"monthly":"…",…,"total":"…"`.
     * Written with the row (`ensurePositions`), so a build after a change formats only the students
     * who changed, not 58,000 rows at 60,000 students (decision 0061).
     */
    listHead: text('list_head').notNull(),
    listTail: text('list_tail').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.schoolId, t.studentId] }),
    // the defaulters in class order straight off the index: no sort of 58,000 rows at 60,000 students
    index('student_positions_owing_idx')
      .on(t.schoolId, t.classRank, t.section, t.rollNumber, t.name)
      .where(sql`${t.active} and ${t.owed} > 0`),
    // the few distinct runs of months the defaulters owe, one probe each instead of a pass over
    // every owing row (decision 0095)
    index('student_positions_masks_idx')
      .on(t.schoolId, t.firstKey, t.dueMask)
      .where(sql`${t.active} and ${t.owed} > 0`),
  ],
);

/** The month a school's `student_positions` were computed for; no row (or null): rebuild them all. */
export const schoolPositions = pgTable('school_positions', {
  schoolId: uuid('school_id')
    .primaryKey()
    .references(() => schools.id, { onDelete: 'cascade' }),
  monthKey: text('month_key'),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * The school's sums of its rows, what the dashboard's cards show: set by a full build and moved by
   * each recompute by what its rows were and are now (`ensurePositions`), so the cards read one row
   */
  totalStudents: integer('total_students').notNull().default(0),
  pendingFees: bigint('pending_fees', { mode: 'number' }).notNull().default(0),
  pendingStudents: integer('pending_students').notNull().default(0),
  carriedOwed: bigint('carried_owed', { mode: 'number' }).notNull().default(0),
  expectedNow: bigint('expected_now', { mode: 'number' }).notNull().default(0),
  yearlyPotential: bigint('yearly_potential', { mode: 'number' }).notNull().default(0),
  revenue: bigint('revenue', { mode: 'number' }).notNull().default(0),
  monthIncome: bigint('month_income', { mode: 'number' }).notNull().default(0),
  busPaidActive: bigint('bus_paid_active', { mode: 'number' }).notNull().default(0),
  monthPaid: bigint('month_paid', { mode: 'number' }).notNull().default(0),
  paidLast: integer('paid_last').notNull().default(0),
});

/** Students whose `student_positions` row is out of date, written by triggers (migration 0037). */
export const studentPositionMarks = pgTable(
  'student_position_marks',
  {
    // no foreign keys: a trigger writes these in the middle of other statements (a student's delete
    // among them), and a mark for a row that is gone only costs its recompute finding nothing
    schoolId: uuid('school_id').notNull(),
    studentId: uuid('student_id').notNull(),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.studentId] })],
);
