import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  CONCESSION_STATUS_LABELS,
  concessionValueText,
  describeConcessionType,
  type ConcessionDto,
  type ConcessionHead,
  type ConcessionStatus,
  type ConcessionTypeDto,
} from '../../domain/concessions';
import { computeSessionAccount, grantsByConcession } from '../../domain/fees';
import { paise, toRupeeString } from '../../domain/money';
import { sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { academicSessions, concessions, concessionTypes, studentEnrollments, students, users } from '../db/schema';
import { loadStructures, structureAmounts, structureFor } from '../fees/queries';

type TypeRow = typeof concessionTypes.$inferSelect;

export function toTypeDto(t: TypeRow): ConcessionTypeDto {
  const heads = t.heads as ConcessionHead[];
  const value = Number(t.value);
  return { id: t.id, name: t.name, kind: t.kind, value: concessionValueText(t.kind, value), description: describeConcessionType({ kind: t.kind, value, heads }), heads, active: t.active };
}

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');

/**
 * Concessions with what each takes off its session, for the lists and the register. The amount is
 * the annual horizon of the one account function with no lines: a concession depends on what is
 * due, never on what was paid (apart from the months it excludes, which it carries itself).
 */
export async function listConcessions(
  db: Db,
  { schoolId, studentId, sessionId, status, id }: { schoolId: string; studentId?: string; sessionId?: string; status?: ConcessionStatus; id?: string },
): Promise<ConcessionDto[]> {
  const where: SQL[] = [eq(concessions.schoolId, schoolId)];
  if (studentId) where.push(eq(concessions.studentId, studentId));
  if (sessionId) where.push(eq(concessions.sessionId, sessionId));
  if (status) where.push(eq(concessions.status, status));
  if (id) where.push(eq(concessions.id, id));
  const [rows, structures] = await Promise.all([
    db
      .select({
        c: concessions,
        t: concessionTypes,
        studentName: students.name,
        busFee: students.monthlyBusFeePaise,
        feesFrom: students.feesFromMonth,
        className: sql<string>`coalesce(${studentEnrollments.className}, ${students.className})`,
        session: academicSessions,
        requestedBy: requester.username,
        decidedBy: decider.username,
      })
      .from(concessions)
      .innerJoin(concessionTypes, eq(concessionTypes.id, concessions.typeId))
      .innerJoin(students, eq(students.id, concessions.studentId))
      .innerJoin(academicSessions, eq(academicSessions.id, concessions.sessionId))
      .leftJoin(
        studentEnrollments,
        and(eq(studentEnrollments.schoolId, schoolId), eq(studentEnrollments.studentId, concessions.studentId), eq(studentEnrollments.sessionId, concessions.sessionId)),
      )
      .leftJoin(requester, eq(requester.id, concessions.requestedBy))
      .leftJoin(decider, eq(decider.id, concessions.decidedBy))
      .where(and(...where))
      .orderBy(desc(concessions.requestedAt))
      .limit(2000),
    loadStructures(db, { schoolId }),
  ]);
  return rows.map((r) => {
    const structure = structureFor(structures, r.className, r.session.name);
    const account = computeSessionAccount({
      months: sessionMonths(r.session.startDate, r.session.endDate),
      asOfMonth: r.session.endDate.slice(0, 7),
      structure: structure ? structureAmounts(structure) : null,
      busFee: paise(Number(r.busFee)),
      feesFrom: r.feesFrom,
      lines: [],
      concessions: [{ id: r.c.id, name: r.t.name, kind: r.t.kind, value: Number(r.t.value), heads: r.t.heads as ConcessionHead[], fromMonth: r.c.fromMonth, toMonth: r.c.toMonth, excluded: r.c.excluded }],
    });
    return {
      id: r.c.id,
      studentId: r.c.studentId,
      studentName: r.studentName,
      className: r.className,
      academicYear: r.session.name,
      type: toTypeDto(r.t),
      fromMonth: r.c.fromMonth,
      toMonth: r.c.toMonth,
      status: r.c.status,
      statusLabel: CONCESSION_STATUS_LABELS[r.c.status],
      reason: r.c.reason,
      decisionReason: r.c.decisionReason,
      requestedBy: r.requestedBy,
      requestedAt: r.c.requestedAt.toISOString(),
      decidedBy: r.decidedBy,
      decidedAt: r.c.decidedAt?.toISOString() ?? null,
      excluded: r.c.excluded,
      amountInSession: toRupeeString(grantsByConcession(account).get(r.c.id) ?? paise(0)),
    };
  });
}
