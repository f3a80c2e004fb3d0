import { sql, type SQL } from 'drizzle-orm';
import type { AppliedConcession, ConcessionHead } from '../../domain/concessions';
import type { Db } from '../db/client';
import { read, readRows, type Bound, type Read } from '../lib/read-at-once';
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
  return concessionsBy(rows, (r) => r.studentId);
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
  return concessionsBy(rows, (r) => `${r.studentId}|${r.sessionId}`);
}

/** An approved concession with its type, as one row. */
export interface ApprovedRow {
  id: string;
  studentId: string;
  sessionId: string;
  fromMonth: string;
  toMonth: string | null;
  excluded: string[];
  name: string;
  kind: AppliedConcession['kind'];
  value: number;
  heads: ConcessionHead[];
}

/**
 * The approved concessions of a school, a session (an id, or SQL naming one) and/or students, in the
 * order they were decided: one read, to run alone or beside others (`readAtOnce`).
 */
export function approvedConcessionsRead({
  schoolId,
  sessionId,
  studentIds,
  studentId,
}: {
  schoolId: Bound;
  sessionId?: Bound | SQL;
  studentIds?: readonly string[];
  /** one student's: an equality, which a statement assembled once can take as a placeholder */
  studentId?: Bound;
}): Read<ApprovedRow> {
  const where: SQL[] = [sql`c.school_id = ${schoolId}`, sql`c.status = 'approved'`];
  if (sessionId !== undefined) where.push(sql`c.session_id = ${sessionId}`);
  if (studentIds) where.push(inIds(sql`c.student_id`, studentIds));
  if (studentId !== undefined) where.push(sql`c.student_id = ${studentId}`);
  return read(
    sql`select c.id, c.student_id, c.session_id, c.from_month, c.to_month, c.excluded, t.name, t.kind, t.value, t.heads
        from ${concessions} c join ${concessionTypes} t on t.id = c.type_id
        where ${sql.join(where, sql` and `)}
        order by c.decided_at, c.id`,
    (r) => ({
      id: String(r.id),
      studentId: String(r.student_id),
      sessionId: String(r.session_id),
      fromMonth: String(r.from_month),
      toMonth: (r.to_month as string | null) ?? null,
      excluded: (r.excluded as string[] | null) ?? [],
      name: String(r.name),
      kind: r.kind as AppliedConcession['kind'],
      value: Number(r.value),
      heads: r.heads as ConcessionHead[],
    }),
  );
}

async function approvedRows(db: Db, { schoolId, sessionId, studentIds }: { schoolId: string; sessionId?: string; studentIds?: readonly string[] }): Promise<ApprovedRow[]> {
  if (studentIds && studentIds.length === 0) return [];
  return readRows(db, approvedConcessionsRead({ schoolId, sessionId, studentIds }));
}

/** The concessions as `computeSessionAccount` takes them, grouped by the key given. */
export function concessionsBy(rows: readonly ApprovedRow[], keyOf: (r: ApprovedRow) => string): Map<string, AppliedConcession[]> {
  const out = new Map<string, AppliedConcession[]>();
  for (const r of rows) {
    const key = keyOf(r);
    const list = out.get(key) ?? [];
    list.push({
      id: r.id,
      name: r.name,
      kind: r.kind,
      value: r.value,
      heads: r.heads,
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
