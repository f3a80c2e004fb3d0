import { sql, type SQL } from 'drizzle-orm';
import type { SessionAccount } from '../../domain/fees';
import { computeLateFine, DEFAULT_LATE_FINE_RULE, fineInstalments, type FineResult, type LateFineRule } from '../../domain/fines';
import { paise } from '../../domain/money';
import type { Instalment } from '../../domain/instalments';
import type { Db } from '../db/client';
import { feeRules, fineWaivers } from '../db/schema';
import { read, readRows, type Bound, type Read } from '../lib/read-at-once';

/** The school's late-fine rule; off until the school sets one. */
export async function loadLateFineRule(db: Db, schoolId: string): Promise<LateFineRule> {
  return lateFineRuleFrom(await readRows(db, lateFineRuleRead(schoolId)));
}

/** The school's stored rule (none, or one row), to read beside others (`readAtOnce`). */
export function lateFineRuleRead(schoolId: Bound): Read<{ lateFine: unknown }> {
  return read(sql`select late_fine from ${feeRules} where school_id = ${schoolId} limit 1`, (r) => ({ lateFine: r.late_fine ?? null }));
}

export function lateFineRuleFrom(rows: ReadonlyArray<{ lateFine: unknown }>): LateFineRule {
  const stored = rows[0]?.lateFine;
  return stored ? { ...DEFAULT_LATE_FINE_RULE, ...(stored as LateFineRule) } : DEFAULT_LATE_FINE_RULE;
}

export async function approvedWaiverKeys(db: Db, { schoolId, studentId, sessionId }: { schoolId: string; studentId: string; sessionId: string }): Promise<Set<string>> {
  return new Set(await readRows(db, approvedWaiversRead({ schoolId, studentId, sessionId })));
}

/** The instalments whose fine was waived (approved), of a session given by id or by SQL naming one. */
export function approvedWaiversRead({ schoolId, studentId, sessionId }: { schoolId: Bound; studentId: Bound; sessionId: Bound | SQL }): Read<string> {
  return read(
    sql`select instalment from ${fineWaivers}
        where school_id = ${schoolId} and student_id = ${studentId} and session_id = ${sessionId} and status = 'approved'`,
    (r) => String(r.instalment),
  );
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
  const waivedKeys = r.enabled ? await approvedWaiverKeys(db, { schoolId, studentId, sessionId }) : new Set<string>();
  return { rule: r, fine: fineOf({ rule: r, waivedKeys, account, asOf, schedule }) };
}

/** `studentFine` from what was already read: the rule and the approved waivers of the session. */
export function fineOf({
  rule,
  waivedKeys,
  account,
  asOf,
  schedule,
}: {
  rule: LateFineRule;
  waivedKeys: ReadonlySet<string>;
  account: SessionAccount;
  asOf: string;
  schedule?: readonly Instalment[] | null;
}): FineResult {
  if (!rule.enabled) return computeLateFine({ rule, instalments: [], asOf, paid: account.finePaid });
  return computeLateFine({ rule, instalments: fineInstalments(account, rule, schedule), asOf, waivedKeys, paid: paise(account.finePaid) });
}
