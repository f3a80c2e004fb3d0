import { sql, type SQL } from 'drizzle-orm';
import type { AccountLine } from '../../domain/fees';
import { splitArrears, type OpeningHead } from '../../domain/opening';
import type { FeeHead } from '../../domain/ledger';
import { paise, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { readTogether } from '../lib/reads';
import { rowsOf } from '../lib/sql-rows';
import { inIds } from '../lib/sql-sets';
import { loadStructures, type SessionRow, type StudentRow } from '../fees/queries';
import { academicSessions } from '../db/schema';
import { and, eq } from 'drizzle-orm';
import type { AppliedConcession } from '../../domain/concessions';
import { approvedConcessionsOfSessions } from '../policy/concession-queries';
import { loadPlans, type SchoolPlans } from '../policy/plans';

/**
 * THE loader of what a running balance is computed from (decision 0041): for a set of students (or
 * a whole school), one read each of the students, their enrollments, the sessions, the class
 * structures, their live lines grouped per session, head and month, their carried balances,
 * opening arrears and credit entries. `compute.ts` turns it into rows with the domain function.
 *
 * Issue 16 plugs in HERE: approved concessions are one more read below (keyed like `lines`, per
 * student and session) and one more field of the domain input in `compute.ts`, so verify-ledger
 * recomputes them the same way; instalment plans likewise (one read, `planFor` per class). Late fines are not a due of the stored rows (a fine paid is
 * income, head `fine`, counted in `received` like fee status counts it).
 */
export type BalanceStudent = Pick<StudentRow, 'id' | 'className' | 'section' | 'rollNumber' | 'sessionId' | 'status' | 'feesFromMonth'> & {
  monthlyBusFeePaise: number;
};

export interface BalanceInputs {
  students: BalanceStudent[];
  sessions: Map<string, SessionRow>;
  activeSessionId: string | null;
  /** `student|session` → the class, section and roll the student had there */
  enrollments: Map<string, { className: string; section: string; rollNumber: number }>;
  structures: Awaited<ReturnType<typeof loadStructures>>;
  /** `student|session` → live lines (summed per head and month), arrears heads included */
  lines: Map<string, AccountLine[]>;
  carried: Array<{ studentId: string; sessionId: string; className: string; throughMonth: string; monthly: Paise; yearly: Paise }>;
  /** opening arrears per student, split as ruling 9 splits a carried balance */
  opening: Map<string, { monthly: Paise; yearly: Paise }>;
  credit: Map<string, Paise>;
  /** `student|session` → approved concessions (issue 16, decision 0047), as fee status passes them */
  concessions: Map<string, AppliedConcession[]>;
  /** the school's instalment plans (decision 0048): each session is computed with its class's plan's due dates */
  plans: SchoolPlans;
}

/** `undefined`: every student of the school. */
export type StudentSet = readonly string[] | undefined;

const only = (ids: StudentSet, column: string): SQL =>
  ids === undefined ? sql`` : sql` and ${inIds(sql.raw(column), ids)}`;

export async function loadBalanceInputs(db: Db, { schoolId, studentIds }: { schoolId: string; studentIds: StudentSet }): Promise<BalanceInputs> {
  const [studentRows, sessionRows, enrollmentRows, structures, lineRows, carriedRows, openingRows, creditRows, concessions, plans] = await readTogether(
    db,
    () => db.execute(sql`select id, class_name, section, roll_number, session_id, status, monthly_bus_fee_paise, fees_from_month from students where school_id = ${schoolId}${only(studentIds, 'id')}`),
    () => db.select().from(academicSessions).where(and(eq(academicSessions.schoolId, schoolId))),
    () =>
      db.execute(sql`select student_id, session_id, class_name, section, roll_number from student_enrollments
                     where school_id = ${schoolId}${only(studentIds, 'student_id')}`),
    () => loadStructures(db, { schoolId }),
    () =>
      db.execute(sql`
        select l.student_id, l.session_id, l.head, l.period, sum(l.amount_paise)::text as amount, max(l.paid_on)::text as paid_on
        from receipt_lines l
        where l.school_id = ${schoolId}${only(studentIds, 'l.student_id')}
          and not exists (select 1 from receipts rc where rc.school_id = ${schoolId} and rc.status = 'cancelled' and rc.id = l.receipt_id)
        group by l.student_id, l.session_id, l.head, l.period`),
    () =>
      db.execute(sql`select student_id, session_id, class_name, through_month, monthly_outstanding_paise::text as monthly, yearly_outstanding_paise::text as yearly
                     from student_previous_balances where school_id = ${schoolId}${only(studentIds, 'student_id')}`),
    () =>
      db.execute(sql`select student_id, head, sum(amount_paise)::text as amount from opening_balances
                     where school_id = ${schoolId} and cancelled_at is null${only(studentIds, 'student_id')} group by student_id, head`),
    () =>
      db.execute(sql`select student_id, sum(amount_paise)::text as amount from student_credit_entries
                     where school_id = ${schoolId}${only(studentIds, 'student_id')} group by student_id`),
    () => approvedConcessionsOfSessions(db, { schoolId, studentIds }),
    () => loadPlans(db, schoolId),
  );
  const students = rowsOf<Record<string, unknown>>(studentRows).map(studentFromRow);
  const sessions = new Map(sessionRows.map((s) => [s.id, s]));
  const enrollments = new Map<string, { className: string; section: string; rollNumber: number }>();
  for (const r of rowsOf<{ student_id: string; session_id: string; class_name: string; section: string; roll_number: number }>(enrollmentRows)) {
    enrollments.set(`${r.student_id}|${r.session_id}`, { className: r.class_name, section: r.section, rollNumber: Number(r.roll_number) });
  }
  const lines = new Map<string, AccountLine[]>();
  for (const r of rowsOf<{ student_id: string; session_id: string; head: FeeHead; period: string | null; amount: string; paid_on: string }>(lineRows)) {
    const key = `${r.student_id}|${r.session_id}`;
    const list = lines.get(key) ?? [];
    list.push({ head: r.head, period: r.period, amount: paise(Number(r.amount)), paidOn: r.paid_on });
    lines.set(key, list);
  }
  const carried = rowsOf<{ student_id: string; session_id: string; class_name: string; through_month: string; monthly: string; yearly: string }>(carriedRows).map((r) => ({
    studentId: r.student_id,
    sessionId: r.session_id,
    className: r.class_name,
    throughMonth: r.through_month,
    monthly: paise(Number(r.monthly)),
    yearly: paise(Number(r.yearly)),
  }));
  const openingByStudent = new Map<string, Array<{ head: OpeningHead; amount: Paise }>>();
  for (const r of rowsOf<{ student_id: string; head: OpeningHead; amount: string }>(openingRows)) {
    const list = openingByStudent.get(r.student_id) ?? [];
    list.push({ head: r.head, amount: paise(Number(r.amount)) });
    openingByStudent.set(r.student_id, list);
  }
  const opening = new Map<string, { monthly: Paise; yearly: Paise }>();
  for (const [id, rows] of openingByStudent) opening.set(id, splitArrears(rows));
  const credit = new Map(rowsOf<{ student_id: string; amount: string }>(creditRows).map((r) => [r.student_id, paise(Number(r.amount))]));
  return {
    students,
    sessions,
    activeSessionId: sessionRows.find((s) => s.isActive)?.id ?? null,
    enrollments,
    structures,
    lines,
    carried,
    opening,
    credit,
    concessions,
    plans,
  };
}

/** The few student columns a balance needs, from a raw row (both drivers answer snake_case). */
function studentFromRow(r: Record<string, unknown>): BalanceStudent {
  return {
    id: String(r.id),
    className: String(r.class_name),
    section: String(r.section),
    rollNumber: Number(r.roll_number),
    sessionId: (r.session_id as string | null) ?? null,
    status: r.status as StudentRow['status'],
    monthlyBusFeePaise: Number(r.monthly_bus_fee_paise ?? 0),
    feesFromMonth: (r.fees_from_month as string | null) ?? null,
  };
}
