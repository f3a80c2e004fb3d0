import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { executePrepared, GENERIC_PLANS } from '../lib/prepared';

/**
 * Transaction-scoped locks for the ledger (released at commit or rollback).
 *
 * - Every write for one student (a receipt, a cancellation, a promotion, a discharge, an edit of the
 *   student) holds the school's ledger lock in SHARED mode and the student's lock exclusively: saves
 *   for different students run side by side, two saves for the same student take turns, so the second
 *   sees the first's lines (a locked month, a used clientId) instead of writing the month twice.
 *   Adding students (one, or an import's batch) holds the school's lock in shared mode (decision 0107).
 * - Whole-school moves (rollover into a new session, passouts from a class) take the school's
 *   ledger lock EXCLUSIVELY, so no receipt lands in a session while its balances are being carried.
 */
const schoolKey = (schoolId: string) => sql`hashtextextended(${`ledger-school:${schoolId}`}, 0)`;
const studentKey = (studentId: string) => sql`hashtextextended(${`ledger-student:${studentId}`}, 0)`;

export async function lockStudentLedger(tx: Db, { schoolId, studentId }: { schoolId: string; studentId: string }): Promise<void> {
  // and generic plans for the rest of the transaction (lib/prepared.ts GENERIC_PLANS): a student's
  // save is one read and one write keyed by school and student, whose custom plans cost PostgreSQL
  // more CPU than running them; set here, where every such transaction begins, it costs no round trip
  // executePrepared hands the statement to the driver before it returns (tx.execute would only on
  // the next turn), so a read made right after this call goes to PostgreSQL after it
  await executePrepared(tx, sql`select pg_advisory_xact_lock_shared(${schoolKey(schoolId)}), pg_advisory_xact_lock(${studentKey(studentId)}), ${GENERIC_PLANS}`);
}

/**
 * The school's ledger lock in SHARED mode alone: for writes that place new students (an add, an
 * import's batch). Their running balances are computed from the school's sessions, structures and
 * plans, read after this lock, so a change of those (which holds it exclusively) either finishes
 * first and is read, or waits and then finds the new students to refresh.
 */
export async function lockSchoolLedgerShared(tx: Db, { schoolId }: { schoolId: string }): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${schoolKey(schoolId)})`);
}

/**
 * The student's lock and the read a save depends on, made one right after the other without waiting
 * between them: PostgreSQL runs the read once the lock is granted (so a save just finishing is seen in
 * full), and in a pipelined transaction both travel with its BEGIN in one round trip (decision 0054).
 * `read` must hand its statement to the driver when called, as `executePrepared` and `readAtOnce`
 * do; Drizzle's query builders and `execute` send theirs only when awaited, after the lock's
 * turn, which would put them first. `round-trips.test.ts` holds the order on both databases.
 */
export async function readUnderStudentLock<T>(tx: Db, ids: { schoolId: string; studentId: string }, read: () => Promise<T>): Promise<T> {
  const locked = lockStudentLedger(tx, ids);
  let rows: Promise<T>;
  try {
    rows = read();
  } catch (error) {
    rows = Promise.reject(error as Error);
  }
  const [, answer] = await Promise.all([locked, rows]);
  return answer;
}

export async function lockSchoolLedger(tx: Db, { schoolId }: { schoolId: string }): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${schoolKey(schoolId)})`);
}
