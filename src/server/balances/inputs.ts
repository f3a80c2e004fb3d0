import { sql, type SQL } from 'drizzle-orm';
import type { AccountLine } from '../../domain/fees';
import { splitArrears, type OpeningHead } from '../../domain/opening';
import type { FeeHead } from '../../domain/ledger';
import { paise, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { read, readAtOnce, readEach, type Bound, type RawRow, type ReadRows } from '../lib/read-at-once';
import { inIds } from '../lib/sql-sets';
import { classStructuresRead, sessionsRead, structuresFrom, structuresRead, type SessionRow, type StructureRow, type StudentRow } from '../fees/queries';
import type { AppliedConcession } from '../../domain/concessions';
import { approvedConcessionsRead, concessionsBy } from '../policy/concession-queries';
import { plansFrom, plansRead, type SchoolPlans } from '../policy/plans';

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
  structures: Map<string, StructureRow>;
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

/** A `StudentSet`, or one student as a statement assembled once binds them (`readsAtOnce`). */
export type StudentFilter = StudentSet | { one: Bound };

const only = (students: StudentFilter, column: string): SQL => {
  if (students === undefined) return sql``;
  if ('one' in students) return sql` and ${sql.raw(column)} = ${students.one}`;
  return sql` and ${inIds(sql.raw(column), students)}`;
};

/**
 * Up to this many students, the inputs are gathered into one statement (`readAtOnce`): a receipt, a
 * cancellation, a concession. More (a class's structure, a rollover, a whole school) are read table
 * by table, so a school's ledger lines are never built into one JSON value.
 */
export const AT_ONCE_STUDENTS = 100;

/** Whether a set of students is read in one statement (`readAtOnce`) rather than table by table. */
const readAtOnceFor = (studentIds: StudentFilter): boolean =>
  studentIds !== undefined && ('one' in studentIds || studentIds.length <= AT_ONCE_STUDENTS);

export async function loadBalanceInputs(db: Db, { schoolId, studentIds }: { schoolId: string; studentIds: StudentSet }): Promise<BalanceInputs> {
  const reads = balanceInputReads({ schoolId, studentIds });
  return balanceInputsFrom(readAtOnceFor(studentIds) ? await readAtOnce(db, reads) : await readEach(db, reads));
}

export interface GroupedLine {
  studentId: string;
  sessionId: string;
  line: AccountLine;
}

/**
 * The class structures a balance can be computed from: the year's structure of the class a student
 * sat in in each session (`compute.ts`: their enrollment there, else their class now). For the few
 * students of one statement, only those classes' structures, every year's, matched as `structureFor`
 * keys them (trimmed, in any case): the whole school's were 45 rows at 15 classes and three years,
 * 18 KB of the 40 KB a fee payment's one read sent back, built into JSON by PostgreSQL and parsed by
 * the app on every save (decision 0093). A set read table by table takes the school's few rows whole.
 */
function structuresOf(schoolId: Bound, studentIds: StudentFilter) {
  if (!readAtOnceFor(studentIds)) return structuresRead(schoolId);
  return classStructuresRead(schoolId, { enrolled: only(studentIds, 'e.student_id'), current: only(studentIds, 's.id') });
}

/**
 * The reads of `loadBalanceInputs`, to put beside others in one `readAtOnce` (a receipt's save reads
 * its student's inputs with everything else it needs). `plans` is the same read, under the same
 * name, as the fee screens' (`fees/context.ts`), so a batch holding both reads it once; the
 * structures are those of the students' classes (`structuresOf`).
 */
export function balanceInputReads({ schoolId, studentIds }: { schoolId: Bound; studentIds: StudentFilter }) {
  return {
    balanceStudents: read(
      sql`select id, class_name, section, roll_number, session_id, status, monthly_bus_fee_paise, fees_from_month from students where school_id = ${schoolId}${only(studentIds, 'id')}`,
      studentFromRow,
    ),
    sessions: sessionsRead(schoolId),
    balanceEnrollments: read(
      sql`select student_id, session_id, class_name, section, roll_number from student_enrollments
          where school_id = ${schoolId}${only(studentIds, 'student_id')}`,
      (r) => ({ studentId: String(r.student_id), sessionId: String(r.session_id), className: String(r.class_name), section: String(r.section), rollNumber: Number(r.roll_number) }),
    ),
    structures: structuresOf(schoolId, studentIds),
    balanceLines: read(
      sql`
        select l.student_id, l.session_id, l.head, l.period, sum(l.amount_paise)::text as amount, max(l.paid_on)::text as paid_on
        from receipt_lines l
        where l.school_id = ${schoolId}${only(studentIds, 'l.student_id')}
          and not exists (select 1 from receipts rc where rc.school_id = ${schoolId} and rc.status = 'cancelled' and rc.id = l.receipt_id)
        group by l.student_id, l.session_id, l.head, l.period`,
      (r): GroupedLine => ({
        studentId: String(r.student_id),
        sessionId: String(r.session_id),
        line: { head: r.head as FeeHead, period: (r.period as string | null) ?? null, amount: paise(Number(r.amount)), paidOn: String(r.paid_on) },
      }),
    ),
    balanceCarried: read(
      sql`select student_id, session_id, class_name, through_month, monthly_outstanding_paise::text as monthly, yearly_outstanding_paise::text as yearly
          from student_previous_balances where school_id = ${schoolId}${only(studentIds, 'student_id')}`,
      (r) => ({
        studentId: String(r.student_id),
        sessionId: String(r.session_id),
        className: String(r.class_name),
        throughMonth: String(r.through_month),
        monthly: paise(Number(r.monthly)),
        yearly: paise(Number(r.yearly)),
      }),
    ),
    balanceOpening: read(
      sql`select student_id, head, sum(amount_paise)::text as amount from opening_balances
          where school_id = ${schoolId} and cancelled_at is null${only(studentIds, 'student_id')} group by student_id, head`,
      (r) => ({ studentId: String(r.student_id), head: r.head as OpeningHead, amount: paise(Number(r.amount)) }),
    ),
    balanceCredit: read(
      sql`select student_id, sum(amount_paise)::text as amount from student_credit_entries
          where school_id = ${schoolId}${only(studentIds, 'student_id')} group by student_id`,
      (r) => ({ studentId: String(r.student_id), amount: paise(Number(r.amount)) }),
    ),
    balanceConcessions: approvedConcessionsRead(studentIds !== undefined && 'one' in studentIds ? { schoolId, studentId: studentIds.one } : { schoolId, studentIds }),
    plans: plansRead(schoolId),
  };
}

export type BalanceInputRows = ReadRows<ReturnType<typeof balanceInputReads>>;

export function balanceInputsFrom(rows: BalanceInputRows): BalanceInputs {
  const enrollments = new Map<string, { className: string; section: string; rollNumber: number }>();
  for (const r of rows.balanceEnrollments) enrollments.set(`${r.studentId}|${r.sessionId}`, { className: r.className, section: r.section, rollNumber: r.rollNumber });
  const lines = new Map<string, AccountLine[]>();
  for (const r of rows.balanceLines) {
    const key = `${r.studentId}|${r.sessionId}`;
    const list = lines.get(key) ?? [];
    list.push(r.line);
    lines.set(key, list);
  }
  const openingByStudent = new Map<string, Array<{ head: OpeningHead; amount: Paise }>>();
  for (const r of rows.balanceOpening) {
    const list = openingByStudent.get(r.studentId) ?? [];
    list.push({ head: r.head, amount: r.amount });
    openingByStudent.set(r.studentId, list);
  }
  const opening = new Map<string, { monthly: Paise; yearly: Paise }>();
  for (const [id, list] of openingByStudent) opening.set(id, splitArrears(list));
  return {
    students: rows.balanceStudents,
    sessions: new Map(rows.sessions.map((s) => [s.id, s])),
    activeSessionId: rows.sessions.find((s) => s.isActive)?.id ?? null,
    enrollments,
    structures: structuresFrom(rows.structures),
    lines,
    carried: rows.balanceCarried,
    opening,
    credit: new Map(rows.balanceCredit.map((r) => [r.studentId, r.amount])),
    concessions: concessionsBy(rows.balanceConcessions, (c) => `${c.studentId}|${c.sessionId}`),
    plans: plansFrom(rows.plans),
  };
}

/**
 * The inputs once a receipt's lines are written: each line added to its student's and session's
 * sums per head and month, as the grouped read would find them after the insert. A save computes
 * its running balances from this, so nothing reads the ledger again while the receipt counter is
 * held (decision 0049).
 */
export function withReceiptLines(inputs: BalanceInputs, studentId: string, added: ReadonlyArray<{ sessionId: string; line: AccountLine }>): BalanceInputs {
  const lines = new Map(inputs.lines);
  for (const { sessionId, line } of added) {
    const key = `${studentId}|${sessionId}`;
    const list = [...(lines.get(key) ?? [])];
    const at = list.findIndex((l) => l.head === line.head && l.period === line.period);
    if (at < 0) list.push({ ...line });
    else {
      const was = list[at]!;
      list[at] = { ...was, amount: paise(was.amount + line.amount), paidOn: was.paidOn > line.paidOn ? was.paidOn : line.paidOn };
    }
    lines.set(key, list);
  }
  return { ...inputs, lines };
}

/** The few student columns a balance needs, from a raw row (both drivers answer snake_case). */
function studentFromRow(r: RawRow): BalanceStudent {
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
