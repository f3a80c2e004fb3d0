import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SessionAccount } from '../../domain/fees';
import { paise, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { readTogether } from '../lib/reads';
import { approvedConcessions, studentConcessions } from '../policy/concession-queries';
import { loadPlans, planFor } from '../policy/plans';
import { previousBalances } from '../db/schema';
import {
  accountOf,
  findSessionById,
  loadStructures,
  sessionLineTotals,
  structureFor,
  studentSessionLines,
  type PreviousBalanceRow,
  type SessionRow,
  type StudentRow,
} from './queries';

/**
 * Balances carried forward (ruling 9). When a student leaves a session (promotion, rollover,
 * discharge, graduation) the session's outstanding, from the one function of ruling 6, is written
 * as a previous balance; from then on the session is closed for them and the balance is paid off by
 * previous_balance lines.
 */

export type CarryReason = PreviousBalanceRow['reason'];

export interface Carried {
  studentId: string;
  className: string;
  monthly: Paise;
  yearly: Paise;
}

/** One student's account of a session as it stands, up to `throughMonth`. */
export async function accountThrough(
  db: Db,
  { schoolId, student, session, className, throughMonth }: { schoolId: string; student: StudentRow; session: SessionRow; className: string; throughMonth: string },
): Promise<SessionAccount> {
  const [structures, lines, granted, plans] = await readTogether(
    db,
    () => loadStructures(db, { schoolId }),
    () => studentSessionLines(db, { schoolId, studentId: student.id, sessionId: session.id }),
    () => studentConcessions(db, { schoolId, sessionId: session.id, studentId: student.id }),
    () => loadPlans(db, schoolId),
  );
  return accountOf({
    session,
    className,
    busFee: paise(Number(student.monthlyBusFeePaise)),
    feesFrom: student.feesFromMonth,
    structure: structureFor(structures, className, session.name),
    lines,
    concessions: granted,
    plan: planFor(plans, className),
    asOfMonth: throughMonth,
  });
}

/**
 * The outstanding of many students of one session, in three reads whatever their number (the
 * students, the structures, the session's lines grouped per student, head and month), computed
 * by the same domain function as everywhere else.
 */
export async function outstandingOfMany(
  db: Db,
  { schoolId, session, people, throughMonth }: { schoolId: string; session: SessionRow; people: Array<Pick<StudentRow, 'id' | 'className' | 'monthlyBusFeePaise' | 'feesFromMonth'>>; throughMonth: string },
): Promise<Carried[]> {
  const [structures, totals, granted, plans] = await readTogether(
    db,
    () => loadStructures(db, { schoolId }),
    () => sessionLineTotals(db, { schoolId, sessionId: session.id }),
    () => approvedConcessions(db, { schoolId, sessionId: session.id }),
    () => loadPlans(db, schoolId),
  );
  return people.map((p) => {
    const account = accountOf({
      session,
      className: p.className,
      busFee: paise(Number(p.monthlyBusFeePaise)),
      feesFrom: p.feesFromMonth,
      structure: structureFor(structures, p.className, session.name),
      lines: totals.get(p.id) ?? [],
      concessions: granted.get(p.id),
      plan: planFor(plans, p.className),
      asOfMonth: throughMonth,
    });
    return { studentId: p.id, className: p.className, monthly: account.tillDate.monthlyOutstanding, yearly: account.tillDate.yearlyOutstanding };
  });
}

/**
 * Writes carried balances for many students in one INSERT … SELECT over a JSON array. A student
 * whose balance of that session is already carried keeps the first record.
 */
export async function recordCarried(
  tx: Db,
  { schoolId, session, rows, throughMonth, reason, at }: { schoolId: string; session: SessionRow; rows: Carried[]; throughMonth: string; reason: CarryReason; at: Date },
): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map((r) => ({ student_id: r.studentId, class_name: r.className, monthly: r.monthly, yearly: r.yearly })));
  await tx.execute(sql`
    insert into ${previousBalances}
      (school_id, student_id, session_id, academic_year, class_name, monthly_outstanding_paise, yearly_outstanding_paise, through_month, reason, recorded_at)
    select ${schoolId}::uuid, x.student_id, ${session.id}::uuid, ${session.name}, x.class_name, x.monthly, x.yearly, ${throughMonth}, ${reason}, ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${json}::jsonb) as x(student_id uuid, class_name text, monthly bigint, yearly bigint)
    on conflict (school_id, student_id, session_id) do nothing`);
}

/**
 * A cancelled receipt un-pays lines of sessions that may already be closed for the student: the
 * dues it had settled come back onto that session's carried balance, so no money is lost between
 * the session's own account and the balance carried from it.
 */
export async function closedSessionsTouched(
  tx: Db,
  { schoolId, studentId, sessionIds }: { schoolId: string; studentId: string; sessionIds: string[] },
): Promise<PreviousBalanceRow[]> {
  if (sessionIds.length === 0) return [];
  return tx
    .select()
    .from(previousBalances)
    .where(and(eq(previousBalances.schoolId, schoolId), eq(previousBalances.studentId, studentId), inArray(previousBalances.sessionId, sessionIds)));
}

export async function closedAccounts(tx: Db, { schoolId, student, rows }: { schoolId: string; student: StudentRow; rows: PreviousBalanceRow[] }) {
  const out = new Map<string, SessionAccount>();
  for (const row of rows) {
    // at most the few sessions one receipt touches (normally one)
    const session = await findSessionById(tx, { schoolId, id: row.sessionId });
    if (!session) continue;
    out.set(row.id, await accountThrough(tx, { schoolId, student, session, className: row.className, throughMonth: row.throughMonth }));
  }
  return out;
}

export async function addBackToCarried(
  tx: Db,
  { row, before, after, at }: { row: PreviousBalanceRow; before: SessionAccount; after: SessionAccount; at: Date },
): Promise<{ monthly: number; yearly: number }> {
  const monthly = Math.max(0, after.tillDate.monthlyOutstanding - before.tillDate.monthlyOutstanding);
  const yearly = Math.max(0, after.tillDate.yearlyOutstanding - before.tillDate.yearlyOutstanding);
  if (monthly === 0 && yearly === 0) return { monthly, yearly };
  await tx
    .update(previousBalances)
    .set({
      monthlyOutstandingPaise: sql`${previousBalances.monthlyOutstandingPaise} + ${monthly}`,
      yearlyOutstandingPaise: sql`${previousBalances.yearlyOutstandingPaise} + ${yearly}`,
      adjustedAt: at,
    })
    .where(eq(previousBalances.id, row.id));
  return { monthly, yearly };
}

