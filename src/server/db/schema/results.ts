import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { schools, users } from './platform';
import { academicSessions, students } from './students';

/**
 * Each school's subject list per class (operations §9 defaults seed it). Marks point at the row,
 * so renaming a subject keeps the marks entered under its old name.
 */
export const subjects = pgTable(
  'subjects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    /** canonical class name (ruling 7) */
    className: text('class_name').notNull(),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subjects_school_class_name_unique').on(t.schoolId, t.className, sql`lower(${t.name})`),
    index('subjects_school_class_order_idx').on(t.schoolId, t.className, t.sortOrder),
  ],
);

/**
 * Marks that a class's subject list was seeded with the defaults once, so a school that removes
 * every default subject of a class does not see them come back on the next read.
 */
export const subjectListSeeds = pgTable(
  'subject_list_seeds',
  {
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    className: text('class_name').notNull(),
    seededAt: timestamp('seeded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.className] })],
);

/**
 * One student's marks in one subject in one session (operations §3 Result). Marks are stored as
 * whole half-marks (4.5 → 9) so halves are exact and no float touches them; null is "not entered".
 * FA, total and grade are computed by the server from the parts (src/domain/results.ts).
 */
export const results = pgTable(
  'results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schoolId: uuid('school_id').notNull().references(() => schools.id),
    // deleting a student (irreversible, operations §4) takes their marks with them
    studentId: uuid('student_id').notNull().references(() => students.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').notNull().references(() => academicSessions.id),
    subjectId: uuid('subject_id').notNull().references(() => subjects.id),
    f1Halves: smallint('f1_halves'),
    f2Halves: smallint('f2_halves'),
    f3Halves: smallint('f3_halves'),
    f4Halves: smallint('f4_halves'),
    f5Halves: smallint('f5_halves'),
    f6Halves: smallint('f6_halves'),
    caHalves: smallint('ca_halves'),
    saHalves: smallint('sa_halves'),
    faHalves: smallint('fa_halves').notNull(),
    totalHalves: smallint('total_halves').notNull(),
    grade: text('grade').notNull(),
    remarks: text('remarks').notNull().default(''),
    updatedBy: uuid('updated_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('results_school_student_session_subject_unique').on(t.schoolId, t.studentId, t.sessionId, t.subjectId),
    index('results_school_session_idx').on(t.schoolId, t.sessionId),
    index('results_school_subject_idx').on(t.schoolId, t.subjectId),
  ],
);
