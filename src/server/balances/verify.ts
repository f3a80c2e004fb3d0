import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';
import { computeBalances, type SessionBalanceRow, type StudentBalanceRow } from './compute';
import { loadBalanceInputs } from './inputs';
import { verifySchoolPositions } from '../stats/student-positions';

/**
 * verify-ledger's comparison (decision 0041): recompute every running balance of a school from the
 * ledger and compare with the stored rows, field by field, the school's whole-school rows
 * (decision 0058) with a build from scratch, and each day's income per head (decision 0089) with the
 * lines. A row missing on either side is a difference too. The property test and
 * `npm run verify-ledger` both call this.
 */
export interface BalanceDifference {
  schoolId: string;
  studentId: string;
  /** null for the per-student row (opening arrears, credit) */
  sessionId: string | null;
  field: string;
  stored: string;
  recomputed: string;
}

const show = (v: unknown) => (v === undefined ? '(missing)' : Array.isArray(v) ? `[${v.join(',')}]` : String(v));

function compareRows<T extends object>(
  schoolId: string,
  stored: Map<string, Record<string, unknown>>,
  recomputed: Map<string, T>,
  split: (key: string) => { studentId: string; sessionId: string | null },
): BalanceDifference[] {
  const out: BalanceDifference[] = [];
  for (const key of new Set([...stored.keys(), ...recomputed.keys()])) {
    const a = stored.get(key);
    const b = recomputed.get(key) as Record<string, unknown> | undefined;
    const where = { schoolId, ...split(key) };
    if (!a || !b) {
      out.push({ ...where, field: 'row', stored: a ? 'present' : '(missing)', recomputed: b ? 'present' : '(missing)' });
      continue;
    }
    for (const field of Object.keys(b)) {
      if (field === 'studentId' || field === 'sessionId') continue;
      if (show(a[field]) !== show(b[field])) out.push({ ...where, field, stored: show(a[field]), recomputed: show(b[field]) });
    }
  }
  return out;
}

const camelRow = (r: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) {
    const key = k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    out[key] = Array.isArray(v) ? v.map(Number) : typeof v === 'string' && /^-?\d+$/.test(v) && k !== 'class_name' && k !== 'section' ? Number(v) : v;
  }
  return out;
};

export async function verifySchoolBalances(db: Db, schoolId: string): Promise<{ rows: number; differences: BalanceDifference[] }> {
  const computed = computeBalances(await loadBalanceInputs(db, { schoolId, studentIds: undefined }));
  const [sessionRows, studentRows] = await Promise.all([
    db.execute(sql`select * from student_session_balances where school_id = ${schoolId}`),
    db.execute(sql`select * from student_balances where school_id = ${schoolId}`),
  ]);
  const drop = ({ school_id: _s, refreshed_at: _r, ...rest }: Record<string, unknown>) => camelRow(rest);
  const storedSessions = new Map(rowsOf<Record<string, unknown>>(sessionRows).map((r) => [`${String(r.student_id)}|${String(r.session_id)}`, drop(r)]));
  const storedStudents = new Map(rowsOf<Record<string, unknown>>(studentRows).map((r) => [String(r.student_id), drop(r)]));
  const recomputedSessions = new Map<string, SessionBalanceRow>(computed.sessions.map((r) => [`${r.studentId}|${r.sessionId}`, r]));
  const recomputedStudents = new Map<string, StudentBalanceRow>(computed.students.map((r) => [r.studentId, r]));
  const differences: BalanceDifference[] = [
    ...compareRows(schoolId, storedSessions, recomputedSessions, (k) => {
      const [studentId, sessionId] = k.split('|') as [string, string];
      return { studentId, sessionId };
    }),
    ...compareRows(schoolId, storedStudents, recomputedStudents, (k) => ({ studentId: k, sessionId: null })),
  ];
  // the whole-school rows (decision 0058), where the school has them: brought up to date from their
  // marks at the month they were built for, they must equal a build from scratch
  const [built] = rowsOf<{ month_key: string | null }>(await db.execute(sql`select month_key from school_positions where school_id = ${schoolId}`));
  let positionRows = 0;
  if (built?.month_key) {
    const positions = await verifySchoolPositions(db, schoolId, built.month_key);
    positionRows = positions.rows;
    differences.push(...positions.differences.map((d) => ({ ...d, sessionId: null, field: `positions.${d.field}` })));
  }
  const income = await verifyIncomeDays(db, schoolId);
  differences.push(...income.differences);
  return { rows: recomputedSessions.size + recomputedStudents.size + positionRows + income.rows, differences };
}

/**
 * Each day's income per head (decision 0089), summed over its slots, against the same sums over the
 * ledger's lines: live, not opening entries, and the part on receipts of mode credit. A day and head
 * with nothing on either side is not a row; a difference names the day and head in its field.
 */
async function verifyIncomeDays(db: Db, schoolId: string): Promise<{ rows: number; differences: BalanceDifference[] }> {
  const rows = rowsOf<{ paid_on: string; head: string; stored: string | null; recomputed: string | null; stored_credit: string | null; recomputed_credit: string | null; same: boolean }>(
    await db.execute(sql`
      with stored as (
        select paid_on, head, sum(amount_paise) as amount, sum(credit_paise) as credit from income_days
        where school_id = ${schoolId} group by paid_on, head having sum(amount_paise) <> 0 or sum(credit_paise) <> 0
      ),
      recomputed as (
        select l.paid_on, l.head, sum(l.amount_paise) as amount, coalesce(sum(l.amount_paise) filter (where r.payment_mode = 'credit'), 0) as credit
        from receipt_lines l join receipts r on r.id = l.receipt_id and r.school_id = l.school_id
        where l.school_id = ${schoolId} and r.status = 'live' and r.source <> 'opening'
        group by l.paid_on, l.head
      )
      select coalesce(s.paid_on, c.paid_on)::text as paid_on, coalesce(s.head, c.head) as head,
             s.amount::text as stored, c.amount::text as recomputed, s.credit::text as stored_credit, c.credit::text as recomputed_credit,
             (s.amount = c.amount and s.credit = c.credit) is true as same
      from stored s full join recomputed c on c.paid_on = s.paid_on and c.head = s.head`),
  );
  const differences: BalanceDifference[] = [];
  for (const r of rows.filter((x) => !x.same)) {
    const where = { schoolId, studentId: '(school)', sessionId: null, field: `income.${r.paid_on}.${r.head}` };
    if (r.stored !== r.recomputed) differences.push({ ...where, stored: r.stored ?? '(missing)', recomputed: r.recomputed ?? '(missing)' });
    if (r.stored_credit !== r.recomputed_credit) differences.push({ ...where, field: `${where.field}.credit`, stored: r.stored_credit ?? '(missing)', recomputed: r.recomputed_credit ?? '(missing)' });
  }
  return { rows: rows.length, differences };
}

/** Every school (or the ones named), one after another: what `npm run verify-ledger` and the bench's per-scenario row report. */
export async function verifyAllBalances(db: Db, only?: readonly string[]): Promise<{ schools: number; rows: number; differences: BalanceDifference[] }> {
  const schoolIds = only ?? rowsOf<{ id: string }>(await db.execute(sql`select id from schools order by created_at`)).map((r) => r.id);
  let rows = 0;
  const differences: BalanceDifference[] = [];
  for (const schoolId of schoolIds) {
    const result = await verifySchoolBalances(db, schoolId);
    rows += result.rows;
    differences.push(...result.differences);
  }
  return { schools: schoolIds.length, rows, differences };
}
