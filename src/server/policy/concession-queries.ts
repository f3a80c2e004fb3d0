import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { AppliedConcession, ConcessionHead } from '../../domain/concessions';
import type { Db } from '../db/client';
import { concessions, concessionTypes } from '../db/schema';

/**
 * Approved concessions of a session as `computeSessionAccount` reads them, per student, in one
 * query whatever the number of students (decision 0047).
 */
export async function approvedConcessions(
  db: Db,
  { schoolId, sessionId, studentIds }: { schoolId: string; sessionId: string; studentIds?: readonly string[] },
): Promise<Map<string, AppliedConcession[]>> {
  const where: SQL[] = [eq(concessions.schoolId, schoolId), eq(concessions.sessionId, sessionId), eq(concessions.status, 'approved')];
  if (studentIds) {
    if (studentIds.length === 0) return new Map();
    where.push(inArray(concessions.studentId, [...studentIds]));
  }
  const rows = await db
    .select({
      id: concessions.id,
      studentId: concessions.studentId,
      fromMonth: concessions.fromMonth,
      toMonth: concessions.toMonth,
      excluded: concessions.excluded,
      name: concessionTypes.name,
      kind: concessionTypes.kind,
      value: concessionTypes.value,
      heads: concessionTypes.heads,
    })
    .from(concessions)
    .innerJoin(concessionTypes, eq(concessionTypes.id, concessions.typeId))
    .where(and(...where))
    .orderBy(concessions.decidedAt, concessions.id);
  const out = new Map<string, AppliedConcession[]>();
  for (const r of rows) {
    const list = out.get(r.studentId) ?? [];
    list.push({
      id: r.id,
      name: r.name,
      kind: r.kind,
      value: Number(r.value),
      heads: r.heads as ConcessionHead[],
      fromMonth: r.fromMonth,
      toMonth: r.toMonth,
      excluded: r.excluded,
    });
    out.set(r.studentId, list);
  }
  return out;
}

export async function studentConcessions(db: Db, { schoolId, sessionId, studentId }: { schoolId: string; sessionId: string; studentId: string }) {
  return (await approvedConcessions(db, { schoolId, sessionId, studentIds: [studentId] })).get(studentId) ?? [];
}
