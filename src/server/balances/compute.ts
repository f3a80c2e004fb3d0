import { carriedPosition } from '../../domain/fees';
import { sessionBalance } from '../../domain/balances';
import { paise } from '../../domain/money';
import { sessionMonths } from '../../domain/sessions';
import { structureAmounts, structureFor } from '../fees/queries';
import { planTiming } from '../../domain/instalments';
import { planFor } from '../policy/plans';
import type { BalanceInputs } from './inputs';

/** One stored row of `student_session_balances`, as numbers (paise) and month keys. */
export interface SessionBalanceRow {
  studentId: string;
  sessionId: string;
  className: string;
  section: string;
  rollNumber: number;
  firstKey: string;
  lastKey: string;
  startKey: string;
  tuitionPaise: number;
  busPaise: number;
  admissionExpected: number;
  examExpected: number;
  booksExpected: number;
  uniformExpected: number;
  miscExpected: number;
  admissionPaid: number;
  examPaid: number;
  booksPaid: number;
  uniformPaid: number;
  miscPaid: number;
  yearlyOwed: number;
  yearlyOwedByMonth: number[] | null;
  dueThrough: number[] | null;
  yearlyDueByMonth: number[] | null;
  yearlyGrantedByMonth: number[] | null;
  yearlyReceivedByMonth: number[] | null;
  tuitionMask: number;
  busMask: number;
  monthlyOwed: number[];
  monthlyGranted: number[];
  yearlyGranted: number;
  monthlyApplied: number[];
  monthlyDiscount: number[];
  yearlyApplied: number;
  monthlyPaid: number[];
  busPaid: number;
  monthlyReceived: number;
  yearlyReceived: number;
  extrasReceived: number;
  received: number;
  closed: boolean;
  throughMonth: string | null;
  carriedPaise: number;
  carriedPaid: number;
  carriedRemaining: number;
}

export interface StudentBalanceRow {
  studentId: string;
  openingPaise: number;
  openingPaid: number;
  openingRemaining: number;
  carriedRemaining: number;
  carriedMonthlyRemaining: number;
  carriedYearlyRemaining: number;
  creditPaise: number;
}

export interface ComputedBalances {
  sessions: SessionBalanceRow[];
  students: StudentBalanceRow[];
}

const sum = (lines: ReadonlyArray<{ amount: number }> | undefined) => (lines ?? []).reduce((s, l) => s + l.amount, 0);

/** What the live previous-balance lines of a student's session paid (no array made per student). */
function previousPaidOf(lines: ReadonlyArray<{ head: string; amount: number }> | undefined): number {
  let paid = 0;
  if (lines) for (const l of lines) if (l.head === 'previous_balance') paid += l.amount;
  return paid;
}

/**
 * Every row of the given students from their inputs, through the domain: `sessionBalance` (ruling 6,
 * `computeSessionAccount`) per session they sat in, `carriedBalancePositions` (ruling 9) per carried
 * balance. The sessions a student sat in: each enrollment, their own session, and for a student
 * never placed in one, the school's active session while they are active (as fee status reads it).
 */
export function computeBalances(inputs: BalanceInputs): ComputedBalances {
  const carriedByKey = new Map(inputs.carried.map((c) => [`${c.studentId}|${c.sessionId}`, c]));
  const enrolledSessions = new Map<string, string[]>();
  for (const key of inputs.enrollments.keys()) {
    const [studentId, sessionId] = key.split('|') as [string, string];
    const list = enrolledSessions.get(studentId) ?? [];
    list.push(sessionId);
    enrolledSessions.set(studentId, list);
  }
  const carriedByStudent = new Map<string, BalanceInputs['carried']>();
  for (const c of inputs.carried) carriedByStudent.set(c.studentId, [...(carriedByStudent.get(c.studentId) ?? []), c]);
  const openingPaidBy = new Map<string, number>();
  for (const [key, list] of inputs.lines) {
    const paid = sum(list.filter((l) => l.head === 'opening_balance'));
    if (paid > 0) {
      const studentId = key.slice(0, key.indexOf('|'));
      openingPaidBy.set(studentId, (openingPaidBy.get(studentId) ?? 0) + paid);
    }
  }
  // the months of a session and the amounts of a structure, once per call rather than per student
  const monthsBySession = new Map<string, ReturnType<typeof sessionMonths>>();
  const monthsOf = (session: { id: string; startDate: string; endDate: string }) => {
    let months = monthsBySession.get(session.id);
    if (!months) monthsBySession.set(session.id, (months = sessionMonths(session.startDate, session.endDate)));
    return months;
  };
  const amountsByStructure = new Map<object, ReturnType<typeof structureAmounts>>();
  const amountsOf = (structure: Parameters<typeof structureAmounts>[0]) => {
    let amounts = amountsByStructure.get(structure);
    if (!amounts) amountsByStructure.set(structure, (amounts = structureAmounts(structure)));
    return amounts;
  };
  const sessions: SessionBalanceRow[] = [];
  const students: StudentBalanceRow[] = [];
  for (const st of inputs.students) {
    const ids = new Set(enrolledSessions.get(st.id) ?? []);
    if (st.sessionId) ids.add(st.sessionId);
    else if (st.status === 'active' && inputs.activeSessionId) ids.add(inputs.activeSessionId);
    for (const sessionId of ids) {
      const session = inputs.sessions.get(sessionId);
      if (!session) continue;
      const key = `${st.id}|${sessionId}`;
      const placement = inputs.enrollments.get(key) ?? { className: st.className, section: st.section, rollNumber: st.rollNumber };
      const structure = structureFor(inputs.structures, placement.className, session.name);
      const months = monthsOf(session);
      const allLines = inputs.lines.get(key) ?? [];
      const amounts = structure ? amountsOf(structure) : null;
      const busFee = paise(st.monthlyBusFeePaise);
      const b = sessionBalance({
        months,
        structure: amounts,
        busFee,
        feesFrom: st.feesFromMonth,
        lines: allLines,
        concessions: inputs.concessions.get(key),
        timing: planTiming(amounts, planFor(inputs.plans, placement.className), { months, busFee }),
      });
      const carried = carriedByKey.get(key);
      const pos = carried ? carriedPosition(carried.monthly, carried.yearly, previousPaidOf(allLines)) : undefined;
      sessions.push({
        studentId: st.id,
        sessionId,
        className: placement.className,
        section: placement.section,
        rollNumber: placement.rollNumber,
        firstKey: months[0]?.key ?? session.startDate.slice(0, 7),
        lastKey: months[months.length - 1]?.key ?? session.endDate.slice(0, 7),
        startKey: b.startKey,
        tuitionPaise: b.tuition,
        busPaise: b.bus,
        admissionExpected: b.expected.admission,
        examExpected: b.expected.exam,
        booksExpected: b.expected.books,
        uniformExpected: b.expected.uniform,
        miscExpected: b.expected.misc,
        admissionPaid: b.paid.admission,
        examPaid: b.paid.exam,
        booksPaid: b.paid.books,
        uniformPaid: b.paid.uniform,
        miscPaid: b.paid.misc,
        yearlyOwed: b.yearlyOwed,
        yearlyOwedByMonth: b.yearlyOwedByMonth,
        dueThrough: b.dueThrough,
        yearlyDueByMonth: b.yearlyDueByMonth,
        yearlyGrantedByMonth: b.yearlyGrantedByMonth,
        yearlyReceivedByMonth: b.yearlyReceivedByMonth,
        tuitionMask: b.tuitionMask,
        busMask: b.busMask,
        monthlyOwed: b.monthlyOwed,
        monthlyGranted: b.monthlyGranted,
        yearlyGranted: b.yearlyGranted,
        monthlyApplied: b.monthlyApplied,
        monthlyDiscount: b.monthlyDiscount,
        yearlyApplied: b.yearlyApplied,
        monthlyPaid: b.monthlyPaid,
        busPaid: b.busPaid,
        monthlyReceived: b.monthlyReceived,
        yearlyReceived: b.yearlyReceived,
        extrasReceived: b.extrasReceived,
        received: b.received,
        closed: carried !== undefined,
        throughMonth: carried?.throughMonth ?? null,
        carriedPaise: pos?.recorded ?? 0,
        carriedPaid: pos?.paid ?? 0,
        carriedRemaining: pos?.remaining ?? 0,
      });
    }
    // every carried balance counts for the student, even of a session they have no row for
    let monthlyRemaining = 0;
    let yearlyRemaining = 0;
    for (const c of carriedByStudent.get(st.id) ?? []) {
      const pos = carriedPosition(c.monthly, c.yearly, previousPaidOf(inputs.lines.get(`${st.id}|${c.sessionId}`)));
      monthlyRemaining += pos.monthlyRemaining;
      yearlyRemaining += pos.yearlyRemaining;
    }
    const arrears = inputs.opening.get(st.id);
    const opening = carriedPosition(arrears?.monthly ?? 0, arrears?.yearly ?? 0, openingPaidBy.get(st.id) ?? 0);
    monthlyRemaining += opening.monthlyRemaining;
    yearlyRemaining += opening.yearlyRemaining;
    students.push({
      studentId: st.id,
      openingPaise: opening.recorded,
      openingPaid: opening.paid,
      openingRemaining: opening.remaining,
      carriedRemaining: monthlyRemaining + yearlyRemaining,
      carriedMonthlyRemaining: monthlyRemaining,
      carriedYearlyRemaining: yearlyRemaining,
      creditPaise: inputs.credit.get(st.id) ?? 0,
    });
  }
  return { sessions, students };
}
