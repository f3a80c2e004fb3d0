import { and, eq } from 'drizzle-orm';
import type { SessionAccount } from '../../domain/fees';
import { computeLateFine, DEFAULT_LATE_FINE_RULE, fineInstalments, type FineResult, type LateFineRule } from '../../domain/fines';
import { paise } from '../../domain/money';
import type { Instalment } from '../../domain/instalments';
import type { Db } from '../db/client';
import { feeRules, fineWaivers } from '../db/schema';

/** The school's late-fine rule; off until the school sets one. */
export async function loadLateFineRule(db: Db, schoolId: string): Promise<LateFineRule> {
  const [row] = await db.select({ lateFine: feeRules.lateFine }).from(feeRules).where(eq(feeRules.schoolId, schoolId)).limit(1);
  return row?.lateFine ? { ...DEFAULT_LATE_FINE_RULE, ...(row.lateFine as LateFineRule) } : DEFAULT_LATE_FINE_RULE;
}

export async function approvedWaiverKeys(db: Db, { schoolId, studentId, sessionId }: { schoolId: string; studentId: string; sessionId: string }): Promise<Set<string>> {
  const rows = await db
    .select({ instalment: fineWaivers.instalment })
    .from(fineWaivers)
    .where(and(eq(fineWaivers.schoolId, schoolId), eq(fineWaivers.studentId, studentId), eq(fineWaivers.sessionId, sessionId), eq(fineWaivers.status, 'approved')));
  return new Set(rows.map((r) => r.instalment));
}

/**
 * A student's late fine in a session as of a date: the one figure fee status, Record Fee Payment,
 * defaulters and the payment link show (issue 16).
 */
export async function studentFine(
  db: Db,
  {
    schoolId,
    studentId,
    sessionId,
    account,
    asOf,
    rule,
    schedule,
  }: {
    schoolId: string;
    studentId: string;
    sessionId: string;
    account: SessionAccount;
    asOf: string;
    rule?: LateFineRule;
    /** the student's instalments under a plan other than monthly (`scheduleFor`): the fine runs from their due dates */
    schedule?: readonly Instalment[] | null;
  },
): Promise<{ rule: LateFineRule; fine: FineResult }> {
  const r = rule ?? (await loadLateFineRule(db, schoolId));
  if (!r.enabled) return { rule: r, fine: computeLateFine({ rule: r, instalments: [], asOf, paid: account.finePaid }) };
  const waivedKeys = await approvedWaiverKeys(db, { schoolId, studentId, sessionId });
  return { rule: r, fine: computeLateFine({ rule: r, instalments: fineInstalments(account, r, schedule), asOf, waivedKeys, paid: paise(account.finePaid) }) };
}
