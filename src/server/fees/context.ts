import { sql, type SQL } from 'drizzle-orm';
import { allocateCarriedPayment } from '../../domain/fees';
import { formatINR, type Paise } from '../../domain/money';
import { monthLabel } from '../../domain/ledger';
import type { AppliedConcession } from '../../domain/concessions';
import type { Db } from '../db/client';
import { approvedConcessionsRead, concessionsBy } from '../policy/concession-queries';
import { planFor, plansFrom, plansRead } from '../policy/plans';
import { planSchedule, type Instalment, type InstalmentPlan } from '../../domain/instalments';
import { sessionMonths } from '../../domain/sessions';
import { read, readAtOnce, tableRead, type Bound, type ReadRows } from '../lib/read-at-once';
import { academicSessions, classFeeStructures, previousBalances, studentEnrollments, students } from '../db/schema';
import { badRequest, conflict, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import {
  accountOf,
  structureAmounts,
  carriedBalances,
  findActiveSession,
  findSessionById,
  placementOutside,
  sessionKeys,
  sessionLinesOf,
  sessionMatching,
  structureFor,
  structuresFrom,
  studentStructuresRead,
  studentSessionLinesRead,
  studentRead,
  type CarriedRow,
  type DetailedLine,
  type Placement,
  type ReceiptWithLines,
  type PreviousBalanceRow,
  type SessionRow,
  type StructureRow,
  type StudentRow,
} from './queries';
import type { NewLine } from './writer';

/** Everything a fee screen needs about one student in one session, read in one statement. */
export interface StudentSession {
  student: StudentRow;
  session: SessionRow;
  placement: Placement;
  structure: typeof classFeeStructures.$inferSelect | undefined;
  lines: DetailedLine[];
  /** set when the student's balance of this session was carried forward: the session is closed for them */
  carried: PreviousBalanceRow | undefined;
  /** approved concessions of the student in the session (issue 16) */
  concessions: AppliedConcession[];
  /** the instalment plan of the student's class in the session (decision 0048) */
  plan: InstalmentPlan;
}

/** Which student, and which session: named (any spelling, or an id), else theirs. */
export interface StudentSessionArgs {
  schoolId: string;
  studentId: string;
  academicYear?: string | null;
}

/**
 * The student's session in ONE statement (issue 14): the student, the session, their placement in it,
 * the structures, their lines, whether the session was closed for them, their concessions and the
 * plans. Independent reads go beside it in the same statement (`studentSessionReads`).
 */
export async function loadStudentSession(db: Db, args: StudentSessionArgs): Promise<StudentSession> {
  if (!isUuid(args.studentId)) throw notFound('Student not found');
  const { with: common, reads } = studentSessionReads(studentSessionKeys(args));
  return studentSessionFrom(await readAtOnce(db, reads, { with: common }), args);
}

/**
 * Which student and which session, as the reads bind them: values, or placeholders of a statement
 * assembled once (`readsAtOnce`). `year`: the named session's keys (`sessionKeys`), else the student's own.
 */
export interface StudentSessionKeys {
  schoolId: Bound;
  studentId: Bound;
  year?: { id: Bound | null; names: Bound | readonly string[] } | undefined;
  /** a year as the user gave it goes through `studentSessionKeys` first, never here */
  academicYear?: never;
}

export function studentSessionKeys({ schoolId, studentId, academicYear }: StudentSessionArgs): StudentSessionKeys {
  return { schoolId, studentId, year: academicYear ? sessionKeys(academicYear) : undefined };
}

/** The common table naming the session a fee screen shows, for reads beside the student's session. */
export const FEE_SESSION = sql`(select id from fee_session)`;

/**
 * The reads of `loadStudentSession`, to put beside others in one `readAtOnce` (with its common
 * table `fee_session`, which `FEE_SESSION` names). `studentId` must be a uuid (`isUuid`). A
 * statement that reads the same rows in another read of its own leaves some out (`withoutReads`)
 * and fills them in from there: a save its placement and structures (`placementAndStructuresFrom`),
 * fee status its lines (`sessionLinesOf`).
 */
export function studentSessionReads({ schoolId, studentId, year }: StudentSessionKeys) {
  return {
    with: { fee_session: feeSessionSql({ schoolId, studentId, year }) },
    reads: {
      student: studentRead({ schoolId, studentId }),
      session: tableRead(academicSessions, sql`select * from fee_session`),
      placement: read(
        sql`select class_name, section, roll_number from ${studentEnrollments}
            where school_id = ${schoolId} and student_id = ${studentId} and session_id = ${FEE_SESSION} limit 1`,
        (r): Placement => ({ className: String(r.class_name), section: String(r.section), rollNumber: Number(r.roll_number) }),
      ),
      // not `structures` (what a save reads beside these for the balances: every class the student sat in)
      studentStructures: studentStructuresRead({ schoolId, studentId, sessionId: FEE_SESSION }),
      lines: studentSessionLinesRead({ schoolId, studentId, sessionId: FEE_SESSION }),
      closedBy: tableRead(
        previousBalances,
        sql`select * from ${previousBalances} where school_id = ${schoolId} and student_id = ${studentId} and session_id = ${FEE_SESSION} limit 1`,
      ),
      concessions: approvedConcessionsRead({ schoolId, sessionId: FEE_SESSION, studentId }),
      plans: plansRead(schoolId),
    },
  };
}

/**
 * The placement and the structures of `studentSessionReads`, from a save's balance inputs read
 * beside them (decision 0101): the student's enrollment in the session shown (at most one: unique
 * per student and session) and every year's structures of every class they sat in and of their
 * current class, a superset of the two classes `studentStructuresRead` reads, from which
 * `structureFor` picks the same row.
 */
export function placementAndStructuresFrom(rows: {
  session: readonly SessionRow[];
  balanceEnrollments: ReadonlyArray<Placement & { sessionId: string }>;
  structures: StructureRow[];
}): { placement: Placement[]; studentStructures: StructureRow[] } {
  const sessionId = rows.session[0]?.id;
  const enrolled = rows.balanceEnrollments.find((e) => e.sessionId === sessionId);
  return {
    placement: enrolled ? [{ className: enrolled.className, section: enrolled.section, rollNumber: enrolled.rollNumber }] : [],
    studentStructures: rows.structures,
  };
}

/**
 * The session: a named one (`findSessionByYear`: a session id, or the name in any spelling); else
 * the student's own session, or for a student never placed in one the school's active session.
 */
function feeSessionSql({ schoolId, studentId, year }: StudentSessionKeys): SQL {
  if (year) return sql`select * from ${academicSessions} where ${academicSessions.schoolId} = ${schoolId} and ${sessionMatching(year)} limit 1`;
  const own = sql`(select s.session_id from ${students} s where s.school_id = ${schoolId} and s.id = ${studentId})`;
  return sql`select * from ${academicSessions}
             where ${academicSessions.schoolId} = ${schoolId} and (${academicSessions.id} = ${own} or ${academicSessions.isActive})
             order by coalesce(${academicSessions.id} = ${own}, false) desc limit 1`;
}

/** The student's session from its reads, refused as `loadStudentSession` refuses it. */
export function studentSessionFrom(rows: ReadRows<ReturnType<typeof studentSessionReads>['reads']>, { academicYear }: StudentSessionArgs): StudentSession {
  const student = rows.student[0];
  if (!student) throw notFound('Student not found');
  const session = rows.session[0];
  if (!session) {
    if (academicYear) throw badRequest(`Academic session ${academicYear} was not found. Create it under Session Management first.`);
    throw badRequest(NO_SESSION_MESSAGE);
  }
  const placement = rows.placement[0] ?? placementOutside(student, session);
  if (!placement) throw badRequest(`${student.name} was not enrolled in the ${session.name} session`);
  return {
    student,
    session,
    placement,
    structure: structureFor(structuresFrom(rows.studentStructures), placement.className, session.name),
    lines: rows.lines,
    carried: rows.closedBy[0],
    concessions: concessionsBy(rows.concessions, (c) => c.studentId).get(student.id) ?? [],
    plan: planFor(plansFrom(rows.plans), placement.className),
  };
}

const NO_SESSION_MESSAGE = 'Create an academic session under Session Management first.';

/** The student's own session; for a student never placed in one, the school's active session. */
export async function defaultSession(db: Db, student: StudentRow): Promise<SessionRow> {
  const own = student.sessionId ? await findSessionById(db, { schoolId: student.schoolId, id: student.sessionId }) : undefined;
  const session = own ?? (await findActiveSession(db, { schoolId: student.schoolId }));
  if (!session) throw badRequest(NO_SESSION_MESSAGE);
  return session;
}

/** `defaultSession` from the school's sessions, already read. */
export function defaultSessionOf(student: StudentRow, sessions: Iterable<SessionRow>): SessionRow {
  const all = [...sessions];
  const session = (student.sessionId ? all.find((s) => s.id === student.sessionId) : undefined) ?? all.find((s) => s.isActive);
  if (!session) throw badRequest(NO_SESSION_MESSAGE);
  return session;
}

export function accountFor(ctx: StudentSession, asOfMonth: string) {
  return accountOf({
    session: ctx.session,
    className: ctx.placement.className,
    busFee: ctx.student.monthlyBusFeePaise as Paise,
    feesFrom: ctx.student.feesFromMonth,
    structure: ctx.structure,
    lines: ctx.lines,
    concessions: ctx.concessions,
    plan: ctx.plan,
    asOfMonth: ctx.carried ? ctx.carried.throughMonth : asOfMonth,
  });
}

/** The student's instalments of the session under their class's plan, or null under the monthly plan. */
export function scheduleFor(ctx: StudentSession): Instalment[] | null {
  return planSchedule(ctx.structure ? structureAmounts(ctx.structure) : null, ctx.plan, {
    months: sessionMonths(ctx.session.startDate, ctx.session.endDate),
    busFee: ctx.student.monthlyBusFeePaise as Paise,
  });
}

/** Fee screens may write only into a session that is still open for the student. */
export function assertOpenForFees(ctx: StudentSession): void {
  if (ctx.student.status === 'passout') {
    throw conflict(`${ctx.student.name} has left the school (passouts). Their dues can be collected as previous balance through Record Fee Payment.`);
  }
  if (ctx.carried) {
    throw conflict(
      `The ${ctx.session.name} session is closed for ${ctx.student.name}: its balance was carried forward. Collect it as previous balance.`,
    );
  }
}

export function structureMissingMessage(className: string, year: string): string {
  return `Fee Structure Missing for ${className} (${year}). Add it under Fee Structure before saving fees.`;
}

/** No payment is dated after today (India's date). */
export function checkNotFuture(date: string, { today, what }: { today: string; what: string }): void {
  if (date > today) throw badRequest(`The date for ${what} (${date}) cannot be in the future`);
}

/** A payment date must fall in the session and not after today (India's date). */
export function checkPaidOn(date: string, { session, today, what }: { session: SessionRow; today: string; what: string }): void {
  checkNotFuture(date, { today, what });
  if (date < session.startDate || date > session.endDate) {
    throw badRequest(
      `The date for ${what} (${date}) is outside the ${session.name} session (${session.startDate} to ${session.endDate})`,
    );
  }
}

/** Lines paying the student's carried balances, oldest first; refused when more than is owed. */
export async function carriedPaymentLines(
  db: Db,
  { schoolId, student, amount, paidOn }: { schoolId: string; student: StudentRow; amount: Paise; paidOn: string },
): Promise<NewLine[]> {
  return carriedPaymentLinesOf(await carriedBalances(db, { schoolId, studentId: student.id }), { student, amount, paidOn });
}

/** `carriedPaymentLines` from the student's carried balances, already read (`carriedReads`). */
export function carriedPaymentLinesOf(carried: readonly CarriedRow[], { student, amount, paidOn }: { student: StudentRow; amount: Paise; paidOn: string }): NewLine[] {
  const rows = carried.filter((r) => r.remaining > 0);
  const owed = rows.reduce((s, r) => s + r.remaining, 0);
  if (owed === 0) throw badRequest(`There is no previous balance pending for ${student.name}`);
  // keyed by position: the opening arrears and a session's carried balance may name the same session
  const split = allocateCarriedPayment(rows.map((r, i) => ({ sessionId: String(i), remaining: r.remaining })), amount);
  if (!split) {
    throw badRequest(
      `The previous balance payment (${formatINR(amount)}) is more than the balance pending (${formatINR(owed as Paise)})`,
    );
  }
  return split.map((s) => {
    const row = rows[Number(s.sessionId)]!;
    return row.kind === 'opening'
      ? { head: 'opening_balance' as const, period: null, amount: s.amount, paidOn, sessionId: row.sessionId }
      : { head: 'previous_balance' as const, period: null, amount: s.amount, paidOn, sessionId: row.sessionId, academicYear: row.academicYear };
  });
}

export const monthWhat = (head: 'tuition' | 'bus', key: string) => `the ${head === 'tuition' ? 'tuition' : 'bus'} fee of ${monthLabel(key)}`;

/** The student's lines of the session after a save: what was there plus the new receipt's own lines. */
export function linesAfter(ctx: StudentSession, written: ReceiptWithLines): DetailedLine[] {
  return [...ctx.lines, ...sessionLinesOf([written], ctx.session.id)];
}
