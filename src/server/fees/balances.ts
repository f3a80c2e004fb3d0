import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SessionAccount } from '../../domain/fees';
import { paise, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { readTogether } from '../lib/reads';
import { rowsOf } from '../lib/sql-rows';
import { rowsTable } from '../lib/sql-sets';
import { sessionPositionsCte } from '../stats/positions';
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
 * `outstandingOfMany` read from the running balances (decision 0041) instead of recomputed from the
 * ledger: each student's session row, kept by every write, holds the outstanding at every horizon
 * month, and the whole-school positions pick it at `throughMonth` in one statement. The start of a
 * session reads its carry here: recomputing 5,000 students took about 0.7 s of its 5 s, and for
 * 60,000 it would take many seconds. A student without a row of the session (none, as the
 * balances are kept) is computed from the ledger as before, so nobody's carry is ever left out.
 */
export async function outstandingFromBalances(
  db: Db,
  args: { schoolId: string; session: SessionRow; people: Array<Pick<StudentRow, 'id' | 'className' | 'monthlyBusFeePaise' | 'feesFromMonth'>>; throughMonth: string },
): Promise<Carried[]> {
  const { schoolId, session, people, throughMonth } = args;
  if (people.length === 0) return [];
  const stored = new Map(
    rowsOf<{ id: string; monthly: string; yearly: string }>(
      await db.execute(sql`
        with ${sessionPositionsCte(schoolId, session.id, throughMonth)}
        select id, monthly_owed::text as monthly, yearly_owed::text as yearly from pos`),
    ).map((r) => [r.id, r]),
  );
  const missing = people.filter((p) => !stored.has(p.id));
  const computed = new Map((missing.length > 0 ? await outstandingOfMany(db, { ...args, people: missing }) : []).map((c) => [c.studentId, c]));
  return people.map((p) => {
    const row = stored.get(p.id);
    return row ? { studentId: p.id, className: p.className, monthly: paise(Number(row.monthly)), yearly: paise(Number(row.yearly)) } : computed.get(p.id)!;
  });
}

/**
 * Writes carried balances for many students in one INSERT … SELECT over one array per column. A student
 * whose balance of that session is already carried keeps the first record.
 */
export async function recordCarried(
  tx: Db,
  { schoolId, session, rows, throughMonth, reason, at }: { schoolId: string; session: SessionRow; rows: Carried[]; throughMonth: string; reason: CarryReason; at: Date },
): Promise<void> {
  if (rows.length === 0) return;
  const given = rowsTable(
    [['student_id', 'uuid'], ['class_name', 'text'], ['monthly', 'bigint'], ['yearly', 'bigint']],
    rows.map((r) => [r.studentId, r.className, r.monthly, r.yearly]),
  );
  await tx.execute(sql`
    insert into ${previousBalances}
      (school_id, student_id, session_id, academic_year, class_name, monthly_outstanding_paise, yearly_outstanding_paise, through_month, reason, recorded_at)
    select ${schoolId}::uuid, x.student_id, ${session.id}::uuid, ${session.name}, x.class_name, x.monthly, x.yearly, ${throughMonth}, ${reason}, ${at.toISOString()}::timestamptz
    from ${given}
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

