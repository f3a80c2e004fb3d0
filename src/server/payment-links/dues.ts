import type { SessionAccount } from '../../domain/fees';
import { indiaMonthKey } from '../../domain/ledger';
import { paise, type Paise } from '../../domain/money';
import { indiaDate } from '../../domain/sessions';
import { studentFine } from '../policy/fines';
import type { OpenCarried } from '../../domain/payment-links';
import type { Db } from '../db/client';
import { accountFor, defaultSession, loadStudentSession, type StudentSession, scheduleFor } from '../fees/context';
import { carriedBalances, findStudentOr404, type SessionRow, type StudentRow } from '../fees/queries';

/** Everything a link needs to know about what a student owes now: the open session and carried balances. */
export interface StudentDues {
  student: StudentRow;
  /** the student's own session, open for fees; null for a passout or a session whose balance was carried */
  open: StudentSession | null;
  /** the session receipts are numbered in */
  session: SessionRow;
  account: SessionAccount | null;
  carried: OpenCarried[];
  /** today's late fine of the open session (issue 16): the figure fee status shows, from the same function */
  fine: Paise;
}

export async function loadStudentDues(db: Db, { schoolId, studentId, now }: { schoolId: string; studentId: string; now: Date }): Promise<StudentDues> {
  const student = await findStudentOr404(db, { schoolId, studentId });
  const carriedRows = await carriedBalances(db, { schoolId, studentId: student.id });
  const carried = carriedRows
    .filter((r) => r.remaining > 0)
    .sort((a, b) => a.sessionStartDate.localeCompare(b.sessionStartDate))
    .map((r) => ({ sessionId: r.sessionId, academicYear: r.academicYear, remaining: paise(r.remaining) }));
  let open: StudentSession | null = null;
  if (student.status === 'active') {
    const ctx = await loadStudentSession(db, { schoolId, studentId: student.id });
    if (!ctx.carried) open = ctx;
  }
  const session = open?.session ?? (await defaultSession(db, student));
  const account = open ? accountFor(open, indiaMonthKey(now)) : null;
  const fine =
    open && account ? (await studentFine(db, { schoolId, studentId: student.id, sessionId: open.session.id, account, asOf: indiaDate(now), schedule: scheduleFor(open) })).fine.due : paise(0);
  return { student, open, session, account, carried, fine };
}
