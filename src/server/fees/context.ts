import { and, eq } from 'drizzle-orm';
import { allocateCarriedPayment } from '../../domain/fees';
import { formatINR, type Paise } from '../../domain/money';
import { isBalanceHead, monthLabel } from '../../domain/ledger';
import type { AppliedConcession } from '../../domain/concessions';
import type { Db } from '../db/client';
import { studentConcessions } from '../policy/concession-queries';
import { loadPlans, planFor } from '../policy/plans';
import { planSchedule, type Instalment, type InstalmentPlan } from '../../domain/instalments';
import { sessionMonths } from '../../domain/sessions';
import { readTogether } from '../lib/reads';
import { classFeeStructures, previousBalances } from '../db/schema';
import { badRequest, conflict } from '../lib/errors';
import {
  accountOf,
  structureAmounts,
  carriedBalances,
  findActiveSession,
  findSessionById,
  findStudentOr404,
  loadStructures,
  placementIn,
  requireSessionByYear,
  structureFor,
  studentSessionLines,
  type DetailedLine,
  type Placement,
  type ReceiptWithLines,
  type PreviousBalanceRow,
  type SessionRow,
  type StudentRow,
} from './queries';
import type { NewLine } from './writer';

/** Everything a fee screen needs about one student in one session, read in a handful of queries. */
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

export async function loadStudentSession(
  db: Db,
  { schoolId, studentId, academicYear }: { schoolId: string; studentId: string; academicYear?: string | null },
): Promise<StudentSession> {
  // the student and a named session are independent reads: ask for both at once
  const [student, named] = await readTogether(
    db,
    () => findStudentOr404(db, { schoolId, studentId }),
    () => (academicYear ? requireSessionByYear(db, { schoolId, year: academicYear }) : Promise.resolve(undefined)),
  );
  const session = named ?? (await defaultSession(db, student));
  const [placement, structures, lines, carried, granted, plans] = await readTogether(
    db,
    () => placementIn(db, student, session),
    () => loadStructures(db, { schoolId }),
    () => studentSessionLines(db, { schoolId, studentId, sessionId: session.id }),
    () =>
      db
        .select()
        .from(previousBalances)
        .where(and(eq(previousBalances.schoolId, schoolId), eq(previousBalances.studentId, studentId), eq(previousBalances.sessionId, session.id)))
        .limit(1)
        .then((rows) => rows[0]),
    () => studentConcessions(db, { schoolId, sessionId: session.id, studentId }),
    () => loadPlans(db, schoolId),
  );
  if (!placement) throw badRequest(`${student.name} was not enrolled in the ${session.name} session`);
  return {
    student,
    session,
    placement,
    structure: structureFor(structures, placement.className, session.name),
    lines,
    carried,
    concessions: granted,
    plan: planFor(plans, placement.className),
  };
}

/** The student's own session; for a student never placed in one, the school's active session. */
export async function defaultSession(db: Db, student: StudentRow): Promise<SessionRow> {
  const own = student.sessionId ? await findSessionById(db, { schoolId: student.schoolId, id: student.sessionId }) : undefined;
  const session = own ?? (await findActiveSession(db, { schoolId: student.schoolId }));
  if (!session) throw badRequest('Create an academic session under Session Management first.');
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
  const rows = (await carriedBalances(db, { schoolId, studentId: student.id })).filter((r) => r.remaining > 0);
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
  const added = written.lines
    .filter((l) => l.sessionId === ctx.session.id && !isBalanceHead(l.head))
    .map((l) => ({
      id: l.id,
      head: l.head,
      period: l.period,
      amount: l.amountPaise as Paise,
      paidOn: l.paidOn,
      createdAt: l.createdAt,
      receiptId: written.receipt.id,
      receiptNumber: written.receipt.receiptNumber,
      clientId: written.receipt.clientId,
    }));
  return [...ctx.lines, ...added];
}
