import { and, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { indiaMonthKey } from '../../domain/ledger';
import { paise } from '../../domain/money';
import { indiaDate } from '../../domain/sessions';
import type { Db } from '../db/client';
import { readTogether } from '../lib/reads';
import { auditLog, passouts, studentBalances, students } from '../db/schema';
import { outstandingOfMany, recordCarried, type Carried } from '../fees/balances';
import { money, rupees } from '../fees/dto';
import { findActiveSession, findSessionById, throughMonth, type SessionRow, type StudentRow } from '../fees/queries';
import { refreshBalances } from '../balances/refresh';

export type PassoutRow = typeof passouts.$inferSelect;

export const passoutDto = z.object({
  id: z.string(),
  studentId: z.string(),
  name: z.string(),
  rollNumber: z.number().int(),
  lastClass: z.string(),
  section: z.string(),
  outstandingMonthlyFees: money.describe('still owed, monthly heads, over every balance carried for the student'),
  outstandingYearlyFees: money,
  totalOutstanding: money,
  passoutDate: z.string().describe('YYYY-MM-DD'),
  graduationYear: z.number().int(),
  kind: z.enum(['graduated', 'discharged']),
  reason: z.string(),
});
export type PassoutDto = z.infer<typeof passoutDto>;

/** Passouts with what they still owe (their carried balances less what was paid since), newest year first, by name. */
export async function listPassouts(db: Db, { schoolId, graduationYear }: { schoolId: string; graduationYear?: number }): Promise<PassoutDto[]> {
  const [rows, carried] = await readTogether(
    db,
    () =>
      db
        .select()
        .from(passouts)
        .where(and(eq(passouts.schoolId, schoolId), graduationYear ? eq(passouts.graduationYear, graduationYear) : undefined))
        .orderBy(desc(passouts.graduationYear)),
    // what each still owes, from the running balances (decision 0041): no ledger read
    () =>
      db
        .select({ studentId: studentBalances.studentId, monthly: studentBalances.carriedMonthlyRemaining, yearly: studentBalances.carriedYearlyRemaining })
        .from(studentBalances)
        .innerJoin(passouts, and(eq(passouts.schoolId, studentBalances.schoolId), eq(passouts.studentId, studentBalances.studentId)))
        .where(and(eq(studentBalances.schoolId, schoolId), graduationYear ? eq(passouts.graduationYear, graduationYear) : undefined)),
  );
  const owed = new Map(carried.map((c) => [c.studentId, { monthly: Number(c.monthly), yearly: Number(c.yearly) }]));
  // names in the order a person expects: "Student 2" before "Student 10"
  const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  rows.sort((a, b) => b.graduationYear - a.graduationYear || byName.compare(a.name, b.name) || a.rollNumber - b.rollNumber);
  return rows.map((p) => {
    const o = owed.get(p.studentId) ?? { monthly: 0, yearly: 0 };
    return {
      id: p.id,
      studentId: p.studentId,
      name: p.name,
      rollNumber: p.rollNumber,
      lastClass: p.lastClass,
      section: p.section,
      outstandingMonthlyFees: rupees(o.monthly),
      outstandingYearlyFees: rupees(o.yearly),
      totalOutstanding: rupees(paise(o.monthly + o.yearly)),
      passoutDate: p.passoutDate,
      graduationYear: p.graduationYear,
      kind: p.kind,
      reason: p.reason,
    };
  });
}

export interface Leaving {
  kind: 'graduated' | 'discharged';
  graduationYear: number;
  reason: (s: StudentRow) => string;
  now: Date;
  userId: string | null;
  ip: string | null;
}

/**
 * Moves active students to passouts (discharge, a class's graduation): their open session's
 * outstanding up to this month (ruling 6, "till date") is carried as a balance that stays
 * collectable, a passout row is written and the student leaves the active list. A fixed number of
 * statements per session the students are in (normally one), whatever their number.
 */
export async function moveToPassouts(tx: Db, { schoolId, people, leaving }: { schoolId: string; people: StudentRow[]; leaving: Leaving }): Promise<Carried[]> {
  if (people.length === 0) return [];
  const today = indiaDate(leaving.now);
  const active = await findActiveSession(tx, { schoolId });
  const bySession = new Map<string | null, StudentRow[]>();
  for (const s of people) bySession.set(s.sessionId ?? active?.id ?? null, [...(bySession.get(s.sessionId ?? active?.id ?? null) ?? []), s]);
  const carried: Carried[] = [];
  const sessionOf = new Map<string, SessionRow>();
  for (const [sessionId, group] of bySession) {
    const session = sessionId ? await findSessionById(tx, { schoolId, id: sessionId }) : undefined;
    if (!session) continue;
    sessionOf.set(session.id, session);
    const through = throughMonth(session, indiaMonthKey(leaving.now));
    const rows = await outstandingOfMany(tx, { schoolId, session, people: group, throughMonth: through });
    await recordCarried(tx, { schoolId, session, rows, throughMonth: through, reason: leaving.kind === 'graduated' ? 'graduation' : 'discharge', at: leaving.now });
    carried.push(...rows);
  }
  await tx
    .insert(passouts)
    .values(
      people.map((s) => ({
        schoolId,
        studentId: s.id,
        name: s.name,
        rollNumber: s.rollNumber,
        lastClass: s.className,
        section: s.section,
        sessionId: s.sessionId ?? active?.id ?? null,
        graduationYear: leaving.graduationYear,
        passoutDate: today,
        kind: leaving.kind,
        reason: leaving.reason(s),
        createdAt: leaving.now,
      })),
    )
    .onConflictDoNothing();
  await tx
    .update(students)
    .set({ status: 'passout', updatedAt: leaving.now })
    .where(and(eq(students.schoolId, schoolId), inArray(students.id, people.map((s) => s.id))));
  await refreshBalances(tx, { schoolId, studentIds: people.map((s) => s.id) });
  const owed = new Map(carried.map((c) => [c.studentId, c]));
  await tx.insert(auditLog).values(
    people.map((s) => ({
      schoolId,
      userId: leaving.userId,
      action: leaving.kind === 'graduated' ? 'student.graduate' : 'student.discharge',
      entity: 'student',
      entityId: s.id,
      before: { status: 'active', className: s.className, section: s.section, rollNumber: s.rollNumber, sessionId: s.sessionId },
      after: {
        status: 'passout',
        kind: leaving.kind,
        graduationYear: leaving.graduationYear,
        reason: leaving.reason(s),
        carriedBalance: owed.has(s.id)
          ? { monthlyOutstandingPaise: owed.get(s.id)!.monthly, yearlyOutstandingPaise: owed.get(s.id)!.yearly, academicYear: sessionOf.get(s.sessionId ?? active?.id ?? '')?.name ?? null }
          : null,
      },
      ip: leaving.ip,
      createdAt: leaving.now,
    })),
  );
  return carried;
}
