import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Grade, type MarkHalves } from '../../domain/results';
import type { Db } from '../db/client';
import { academicSessions, results, studentEnrollments, students, subjects } from '../db/schema';
import { notFound } from '../lib/errors';

/** Reads of sessions, class rosters and marks. Writes of marks are in bulk-save.ts. */

export interface SessionRef {
  id: string;
  name: string;
}

export async function findSessionByName(db: Db, { schoolId, name }: { schoolId: string; name: string }): Promise<SessionRef | undefined> {
  const [row] = await db
    .select({ id: academicSessions.id, name: academicSessions.name })
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.name, name)))
    .limit(1);
  return row;
}

export async function requireSession(db: Db, { schoolId, name }: { schoolId: string; name: string }): Promise<SessionRef> {
  const session = await findSessionByName(db, { schoolId, name });
  if (!session) throw notFound(`Academic session ${name} not found`);
  return session;
}

export interface RosterStudent {
  id: string;
  name: string;
  admissionNumber: string | null;
  fatherName: string;
  motherName: string;
  dateOfBirth: string | null;
  residence: string;
  className: string;
  section: string;
  rollNumber: number;
}

/**
 * The students who sat in a class and section in a session, by roll number: read from the
 * enrollments, so a promoted student's old session still lists them in their old class.
 */
export async function listRoster(
  db: Db,
  { schoolId, sessionId, className, section, rollNumber }: { schoolId: string; sessionId: string; className: string; section: string; rollNumber?: number },
): Promise<RosterStudent[]> {
  const conditions = [
    eq(studentEnrollments.schoolId, schoolId),
    eq(studentEnrollments.sessionId, sessionId),
    eq(studentEnrollments.className, className),
    eq(studentEnrollments.section, section),
  ];
  if (rollNumber !== undefined) conditions.push(eq(studentEnrollments.rollNumber, rollNumber));
  return db
    .select({
      id: students.id,
      name: students.name,
      admissionNumber: students.admissionNumber,
      fatherName: students.fatherName,
      motherName: students.motherName,
      dateOfBirth: students.dateOfBirth,
      residence: students.residence,
      className: studentEnrollments.className,
      section: studentEnrollments.section,
      rollNumber: studentEnrollments.rollNumber,
    })
    .from(studentEnrollments)
    .innerJoin(students, and(eq(students.id, studentEnrollments.studentId), eq(students.schoolId, studentEnrollments.schoolId)))
    .where(and(...conditions))
    .orderBy(asc(studentEnrollments.rollNumber), asc(students.name));
}

export interface StoredResult {
  id: string;
  studentId: string;
  subjectId: string;
  subject: string;
  marks: MarkHalves;
  faHalves: number;
  totalHalves: number;
  grade: Grade;
  remarks: string;
  updatedAt: Date;
}

/** The marks of some students in a session, with each subject's current name. */
export async function listResults(
  db: Db,
  { schoolId, sessionId, studentIds }: { schoolId: string; sessionId: string; studentIds: string[] },
): Promise<StoredResult[]> {
  if (studentIds.length === 0) return [];
  const rows = await db
    .select({ r: results, subject: subjects.name })
    .from(results)
    .innerJoin(subjects, and(eq(subjects.id, results.subjectId), eq(subjects.schoolId, results.schoolId)))
    .where(and(eq(results.schoolId, schoolId), eq(results.sessionId, sessionId), inArray(results.studentId, studentIds)));
  return rows.map(({ r, subject }) => ({
    id: r.id,
    studentId: r.studentId,
    subjectId: r.subjectId,
    subject,
    marks: {
      f1: r.f1Halves, f2: r.f2Halves, f3: r.f3Halves, f4: r.f4Halves, f5: r.f5Halves, f6: r.f6Halves, ca: r.caHalves, sa: r.saHalves,
    },
    faHalves: r.faHalves,
    totalHalves: r.totalHalves,
    grade: r.grade as Grade,
    remarks: r.remarks,
    updatedAt: r.updatedAt,
  }));
}

/** How many result rows a school has in a session (for tests and the audit trail). */
export async function countResults(db: Db, { schoolId, sessionId }: { schoolId: string; sessionId?: string }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(results)
    .where(sessionId ? and(eq(results.schoolId, schoolId), eq(results.sessionId, sessionId)) : eq(results.schoolId, schoolId));
  return row?.n ?? 0;
}
