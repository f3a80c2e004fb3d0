import { sql } from 'drizzle-orm';
import { classOrderSql } from '../../students/class-order';
import { duplicateKeySql } from '../../students/duplicate-key';
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { schools } from './platform';

/** Academic sessions (ruling 8): `2025-2026`, April to March by default, exactly one active per school. */
export const academicSessions = pgTable(
  'academic_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    name: text('name').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    isActive: boolean('is_active').notNull().default(false),
    isPromotionCompleted: boolean('is_promotion_completed').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('academic_sessions_school_name_unique').on(t.schoolId, t.name),
    uniqueIndex('academic_sessions_one_active').on(t.schoolId).where(sql`${t.isActive}`),
  ],
);

/**
 * A start of the next session (promotion, issue 11): who moved, from where, and what was carried,
 * kept so the start can be undone until the new session's first receipt.
 */
export const sessionRollovers = pgTable(
  'session_rollovers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    fromSessionId: uuid('from_session_id').notNull().references(() => academicSessions.id),
    toSessionId: uuid('to_session_id').notNull().references(() => academicSessions.id),
    /** the last month whose dues were carried (`YYYY-MM`) */
    throughMonth: text('through_month').notNull(),
    /** every student as they were before: [{ id, className, section, rollNumber, sessionId, graduated }] */
    moved: jsonb('moved').notNull(),
    summary: jsonb('summary').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    startedBy: uuid('started_by'),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    undoneBy: uuid('undone_by'),
  },
  (t) => [index('session_rollovers_school_to_idx').on(t.schoolId, t.toSessionId)],
);

/**
 * A student: the person, and their current placement (class, section, roll number, session),
 * kept equal to their newest enrollment so the everyday lookups need no join.
 */
export const students = pgTable(
  'students',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    admissionNumber: text('admission_number'),
    name: text('name').notNull(),
    /** canonical class name (ruling 7): Nursery, LKG, UKG, Class 1 … Class 12 */
    className: text('class_name').notNull(),
    section: text('section').notNull().default('A'),
    rollNumber: integer('roll_number').notNull(),
    sessionId: uuid('session_id').references(() => academicSessions.id),
    fatherName: text('father_name').notNull().default(''),
    motherName: text('mother_name').notNull().default(''),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    mobileNumber: text('mobile_number').notNull().default(''),
    /** AES-256-GCM ciphertext (ruling 24); shown masked from aadhaarLast4 */
    aadhaarEncrypted: text('aadhaar_encrypted'),
    aadhaarLast4: text('aadhaar_last4'),
    /** keyed hash of the twelve digits (FieldCipher.blindIndex): finds duplicates without decrypting */
    aadhaarHash: text('aadhaar_hash'),
    residence: text('residence').notNull().default(''),
    parentName: text('parent_name').notNull().default(''),
    parentPhone: text('parent_phone').notNull().default(''),
    parentEmail: text('parent_email').notNull().default(''),
    parentWhatsApp: text('parent_whatsapp').notNull().default(''),
    monthlyBusFeePaise: bigint('monthly_bus_fee_paise', { mode: 'number' }).notNull().default(0),
    enrollmentDate: date('enrollment_date', { mode: 'string' }),
    /**
     * `YYYY-MM`: monthly fees (tuition, bus) are due from this month of the student's session on
     * (admitted mid-year); null: from the session's first month. Defaults to the enrollment month.
     */
    feesFromMonth: text('fees_from_month'),
    /** active, passout (graduated or discharged: in the Passouts tab with their dues) */
    status: text('status', { enum: ['active', 'passout'] }).notNull().default('active'),
    enableSmsReminders: boolean('enable_sms_reminders').notNull().default(true),
    enableWhatsappReminders: boolean('enable_whatsapp_reminders').notNull().default(true),
    reminderPreference: text('reminder_preference', { enum: ['sms', 'whatsapp', 'both'] }).notNull().default('both'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** the Add Student dialog's idempotency key (ruling 5): a second press or a retry finds this student */
    clientId: text('client_id'),
  },
  (t) => [
    uniqueIndex('students_school_client_idx').on(t.schoolId, t.clientId).where(sql`${t.clientId} is not null`),
    index('students_school_class_section_roll_idx').on(t.schoolId, t.status, t.className, t.section, t.rollNumber),
    index('students_school_name_idx').on(t.schoolId, t.name),
    // the students page: a page of 50 in class order read off the index, not a sort of the whole school;
    // with the class and id after the sort keys, the offset is passed in an index-only scan (listStudents;
    // PostgreSQL reads an expression off an index-only scan only when its column is there too); with the
    // admission number too, a lookup by name walking it tests each student without reading the row (decision 0081)
    index('students_school_class_order_idx').on(t.schoolId, t.status, classOrderSql(t.className), t.section, t.rollNumber, t.name, t.className, t.id, t.admissionNumber),
    // the lookup by admission number, any case (the name part of the lookup has a trigram index on PostgreSQL)
    index('students_school_admission_lower_idx').on(t.schoolId, sql`lower(${t.admissionNumber})`),
    // an import's duplicate check, batch by batch under its lock: the rows' own keys, not every student of their classes (decision 0110)
    index('students_school_duplicate_key_idx').on(t.schoolId, duplicateKeySql(t.name, t.fatherName, t.className)),
    index('students_school_aadhaar_hash_idx').on(t.schoolId, t.aadhaarHash).where(sql`${t.aadhaarHash} is not null`),
    uniqueIndex('students_school_admission_unique').on(t.schoolId, t.admissionNumber).where(sql`${t.admissionNumber} is not null`),
    check('students_fees_from_month_format', sql`${t.feesFromMonth} is null or ${t.feesFromMonth} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

/**
 * Where a student sat in each session: results and fee status of an old session read the class
 * of that session from here, not the student's class today.
 */
export const studentEnrollments = pgTable(
  'student_enrollments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id),
    className: text('class_name').notNull(),
    section: text('section').notNull(),
    rollNumber: integer('roll_number').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('student_enrollments_student_session_unique').on(t.schoolId, t.studentId, t.sessionId),
    uniqueIndex('student_enrollments_roll_unique').on(t.schoolId, t.sessionId, t.className, t.section, t.rollNumber),
    // a session's students in class order (Nursery … Class 12), section and roll: the students list of
    // a named academic year reads its page off this instead of sorting the whole session (decision 0084)
    index('student_enrollments_school_session_class_order_idx').on(t.schoolId, t.sessionId, classOrderSql(t.className), t.section, t.rollNumber, t.studentId),
  ],
);

/** The last roll number handed out per school, session, class and section (ruling 10): never reused. */
export const rollCounters = pgTable(
  'roll_counters',
  {
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id),
    className: text('class_name').notNull(),
    section: text('section').notNull(),
    lastRoll: integer('last_roll').notNull(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.sessionId, t.className, t.section] })],
);

/** What a class pays in a session: tuition per month, the yearly heads once (operations §3). */
export const classFeeStructures = pgTable(
  'class_fee_structures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    className: text('class_name').notNull(),
    /** `2025-2026` */
    academicYear: text('academic_year').notNull(),
    monthlyTuitionFeePaise: bigint('monthly_tuition_fee_paise', { mode: 'number' }).notNull().default(0),
    yearlyFeePaise: bigint('yearly_fee_paise', { mode: 'number' }).notNull().default(0),
    examFeePaise: bigint('exam_fee_paise', { mode: 'number' }).notNull().default(0),
    booksFeePaise: bigint('books_fee_paise', { mode: 'number' }).notNull().default(0),
    uniformFeePaise: bigint('uniform_fee_paise', { mode: 'number' }).notNull().default(0),
    miscFeePaise: bigint('misc_fee_paise', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('class_fee_structures_school_class_year_unique').on(t.schoolId, t.className, t.academicYear)],
);
