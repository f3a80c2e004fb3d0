import { and, eq, sql } from 'drizzle-orm';
import { paiseFromRupees } from '../../domain/money';
import type { Db } from '../db/client';
import { academicSessions, classFeeStructures, rollCounters, schools, studentEnrollments, students } from '../db/schema';
import { refreshBalances, refreshClassBalances } from '../balances/refresh';

/**
 * Rows for fee tests, written straight with Drizzle so a test sets up exactly the school it needs
 * (sessions, class fee structures, students with their enrollment) in a few statements.
 */

const rs = paiseFromRupees;

export async function seedSession(
  db: Db,
  { schoolId, name = '2025-2026', startDate = '2025-04-01', endDate = '2026-03-31', isActive = true }: { schoolId: string; name?: string; startDate?: string; endDate?: string; isActive?: boolean },
) {
  const [existing] = await db
    .select()
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.name, name)))
    .limit(1);
  if (existing) return existing;
  if (isActive) await db.update(academicSessions).set({ isActive: false }).where(eq(academicSessions.schoolId, schoolId));
  const [row] = await db.insert(academicSessions).values({ schoolId, name, startDate, endDate, isActive }).returning();
  return row!;
}

export interface StructureSeed {
  schoolId: string;
  className: string;
  academicYear?: string;
  /** rupees */
  tuition?: number;
  yearly?: number;
  exam?: number;
  books?: number;
  uniform?: number;
  misc?: number;
}

export async function seedStructure(db: Db, s: StructureSeed) {
  const [row] = await db
    .insert(classFeeStructures)
    .values({
      schoolId: s.schoolId,
      className: s.className,
      academicYear: s.academicYear ?? '2025-2026',
      monthlyTuitionFeePaise: rs(s.tuition ?? 0),
      yearlyFeePaise: rs(s.yearly ?? 0),
      examFeePaise: rs(s.exam ?? 0),
      booksFeePaise: rs(s.books ?? 0),
      uniformFeePaise: rs(s.uniform ?? 0),
      miscFeePaise: rs(s.misc ?? 0),
    })
    .returning();
  // fixtures write like the app does: the running balances follow (decision 0041)
  await refreshClassBalances(db, { schoolId: s.schoolId, classNames: [s.className] });
  return row!;
}

export interface StudentSeed {
  name: string;
  className: string;
  section?: string;
  /** rupees per month */
  busFee?: number;
  /** `YYYY-MM`: monthly fees from this month (admitted mid-year) */
  feesFrom?: string;
}

/** Students with their enrollment in `sessionId`, roll numbers continuing 1, 2, 3 … per class and section. */
export async function seedStudents(db: Db, { schoolId, sessionId, people }: { schoolId: string; sessionId: string; people: StudentSeed[] }) {
  const next = new Map<string, number>();
  const taken = await db
    .select({ className: studentEnrollments.className, section: studentEnrollments.section, max: sql<number>`max(${studentEnrollments.rollNumber})` })
    .from(studentEnrollments)
    .where(and(eq(studentEnrollments.schoolId, schoolId), eq(studentEnrollments.sessionId, sessionId)))
    .groupBy(studentEnrollments.className, studentEnrollments.section);
  for (const t of taken) next.set(`${t.className}|${t.section}`, Number(t.max));
  const values = people.map((p) => {
    const section = p.section ?? 'A';
    const key = `${p.className}|${section}`;
    const roll = (next.get(key) ?? 0) + 1;
    next.set(key, roll);
    return {
      schoolId,
      name: p.name,
      className: p.className,
      section,
      rollNumber: roll,
      sessionId,
      monthlyBusFeePaise: rs(p.busFee ?? 0),
      feesFromMonth: p.feesFrom ?? null,
    };
  });
  const rows: Array<typeof students.$inferSelect> = [];
  // chunks keep the statement under the driver's parameter limit for big schools (benchmarks)
  for (let i = 0; i < values.length; i += 1000) {
    rows.push(...(await db.insert(students).values(values.slice(i, i + 1000)).returning()));
  }
  for (let i = 0; i < rows.length; i += 2000) {
    await db.insert(studentEnrollments).values(
      rows.slice(i, i + 2000).map((r) => ({ schoolId, studentId: r.id, sessionId, className: r.className, section: r.section, rollNumber: r.rollNumber })),
    );
  }
  if (next.size > 0) {
    await db
      .insert(rollCounters)
      .values([...next].map(([key, lastRoll]) => ({ schoolId, sessionId, className: key.split('|')[0]!, section: key.split('|')[1]!, lastRoll })))
      .onConflictDoUpdate({
        target: [rollCounters.schoolId, rollCounters.sessionId, rollCounters.className, rollCounters.section],
        set: { lastRoll: sql`greatest(${rollCounters.lastRoll}, excluded.last_roll)` },
      });
  }
  await refreshBalances(db, { schoolId, studentIds: rows.map((r) => r.id) });
  return rows;
}

export async function seedStudent(db: Db, { schoolId, sessionId, ...person }: { schoolId: string; sessionId: string } & StudentSeed) {
  const [row] = await seedStudents(db, { schoolId, sessionId, people: [person] });
  return row!;
}

/** The usual fee test school's structure: Class 5 in 2025-2026, ₹1,500 tuition, yearly heads. */
export const CLASS5_2025 = { className: 'Class 5', tuition: 1500, yearly: 5000, exam: 800, books: 2500, uniform: 1800, misc: 400 } as const;

/** A paid plan running until `until`, so tests can move the clock past the trial and still write. */
export async function activatePlan(db: Db, { schoolId, until = new Date('2030-01-01T00:00:00.000Z') }: { schoolId: string; until?: Date }) {
  await db
    .update(schools)
    .set({ subscriptionStatus: 'active', planStartDate: new Date('2025-01-01T00:00:00.000Z'), planEndDate: until })
    .where(eq(schools.id, schoolId));
}
