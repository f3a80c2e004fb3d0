import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AppliedConcession, ConcessionHead } from '../../domain/concessions';
import type { Db } from '../db/client';
import { inIds } from '../lib/sql-sets';
import { concessions, concessionTypes } from '../db/schema';

/**
 * Approved concessions of a session as `computeSessionAccount` reads them, per student, in one
 * query whatever the number of students (decision 0047).
 */
export async function approvedConcessions(
  db: Db,
  { schoolId, sessionId, studentIds }: { schoolId: string; sessionId: string; studentIds?: readonly string[] },
): Promise<Map<string, AppliedConcession[]>> {
  const rows = await approvedRows(db, { schoolId, sessionId, studentIds });
  return groupBy(rows, (r) => r.studentId);
}

/**
 * Every session's approved concessions of a set of students (or the whole school), keyed
 * `student|session` as the running balances' loader keys its lines: one query (decision 0041).
 */
export async function approvedConcessionsOfSessions(
  db: Db,
  { schoolId, studentIds }: { schoolId: string; studentIds?: readonly string[] },
): Promise<Map<string, AppliedConcession[]>> {
  const rows = await approvedRows(db, { schoolId, studentIds });
  return groupBy(rows, (r) => `${r.studentId}|${r.sessionId}`);
}

async function approvedRows(db: Db, { schoolId, sessionId, studentIds }: { schoolId: string; sessionId?: string; studentIds?: readonly string[] }) {
  const where: SQL[] = [eq(concessions.schoolId, schoolId), eq(concessions.status, 'approved')];
  if (sessionId) where.push(eq(concessions.sessionId, sessionId));
  if (studentIds) {
    if (studentIds.length === 0) return [];
    where.push(inIds(sql`${concessions.studentId}`, studentIds));
  }
  return db
    .select({
      id: concessions.id,
      studentId: concessions.studentId,
      sessionId: concessions.sessionId,
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
}

type ApprovedRow = Awaited<ReturnType<typeof approvedRows>>[number];

function groupBy(rows: readonly ApprovedRow[], keyOf: (r: ApprovedRow) => string): Map<string, AppliedConcession[]> {
  const out = new Map<string, AppliedConcession[]>();
  for (const r of rows) {
    const key = keyOf(r);
    const list = out.get(key) ?? [];
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
    out.set(key, list);
  }
  return out;
}

export async function studentConcessions(db: Db, { schoolId, sessionId, studentId }: { schoolId: string; sessionId: string; studentId: string }) {
  return (await approvedConcessions(db, { schoolId, sessionId, studentIds: [studentId] })).get(studentId) ?? [];
}
