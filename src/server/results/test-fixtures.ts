import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { academicSessions, studentEnrollments, students } from '../db/schema';
import { refreshBalances } from '../balances/refresh';

/**
 * Test data for results: sessions, students and their enrollments written straight into the
 * tables, so the results tests do not depend on the students API.
 */

export interface FixtureSession {
  id: string;
  name: string;
}

/**
 * A session by name (reused when the school already has it, e.g. the default session made at
 * sign-up); `isActive` makes it the one active session.
 */
export async function createSession(
  db: Db,
  { schoolId, name, isActive = false }: { schoolId: string; name: string; isActive?: boolean },
): Promise<FixtureSession> {
  if (isActive) await db.update(academicSessions).set({ isActive: false }).where(eq(academicSessions.schoolId, schoolId));
  const [existing] = await db
    .select({ id: academicSessions.id, name: academicSessions.name })
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.name, name)));
  if (existing) {
    if (isActive) await db.update(academicSessions).set({ isActive: true }).where(eq(academicSessions.id, existing.id));
    return existing;
  }
  const startYear = Number(name.slice(0, 4));
  const [row] = await db
    .insert(academicSessions)
    .values({ schoolId, name, startDate: `${startYear}-04-01`, endDate: `${startYear + 1}-03-31`, isActive })
    .returning({ id: academicSessions.id, name: academicSessions.name });
  return row!;
}

export interface FixtureStudent {
  id: string;
  name: string;
  rollNumber: number;
}

export interface StudentSpec {
  name: string;
  rollNumber?: number;
  fatherName?: string;
  motherName?: string;
  admissionNumber?: string;
  dateOfBirth?: string;
  residence?: string;
}

/** Students placed in a class and section of a session, roll numbers 1, 2, 3… unless given. */
export async function enrollStudents(
  db: Db,
  {
    schoolId,
    session,
    className,
    section = 'A',
    students: specs,
  }: { schoolId: string; session: FixtureSession; className: string; section?: string; students: StudentSpec[] },
): Promise<FixtureStudent[]> {
  if (specs.length === 0) return [];
  const rows = await db
    .insert(students)
    .values(
      specs.map((s, i) => ({
        schoolId,
        name: s.name,
        className,
        section,
        rollNumber: s.rollNumber ?? i + 1,
        sessionId: session.id,
        admissionNumber: s.admissionNumber ?? null,
        fatherName: s.fatherName ?? '',
        motherName: s.motherName ?? '',
        dateOfBirth: s.dateOfBirth ?? null,
        residence: s.residence ?? '',
      })),
    )
    .returning({ id: students.id, name: students.name, rollNumber: students.rollNumber });
  await db.insert(studentEnrollments).values(
    rows.map((r) => ({ schoolId, studentId: r.id, sessionId: session.id, className, section, rollNumber: r.rollNumber })),
  );
  await refreshBalances(db, { schoolId, studentIds: rows.map((r) => r.id) });
  return rows;
}

/** Moves students into another session's class (as promotion does), keeping the old enrollment. */
export async function promoteStudents(
  db: Db,
  { schoolId, session, className, section = 'A', students: list }: { schoolId: string; session: FixtureSession; className: string; section?: string; students: FixtureStudent[] },
): Promise<void> {
  await db.insert(studentEnrollments).values(
    list.map((s, i) => ({ schoolId, studentId: s.id, sessionId: session.id, className, section, rollNumber: i + 1 })),
  );
  await db
    .update(students)
    .set({ className, section, sessionId: session.id })
    .where(and(eq(students.schoolId, schoolId), inArray(students.id, list.map((s) => s.id))));
  await refreshBalances(db, { schoolId, studentIds: list.map((s) => s.id) });
}
