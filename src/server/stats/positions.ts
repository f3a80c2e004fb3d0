import { SQL, sql } from 'drizzle-orm';
import { uuidArray } from '../lib/sql-sets';

/**
 * Students' positions in a session for a whole school in one statement, read from the running
 * balances (`student_session_balances`, `student_balances`; decision 0041) — never from the ledger.
 * Every figure of ruling 6 was computed by `computeSessionAccount` when the student's last write
 * refreshed the row; here it is only picked at the horizon month, which is O(rows) arithmetic:
 *
 * - the monthly outstanding at the horizon is `monthly_owed[k]` (k: the horizon's month of the session);
 * - the yearly heads owe `yearly_owed` once the session has begun, or `yearly_owed_by_month[k]` under an
 *   instalment plan that splits them (decision 0048);
 * - a session whose balance was carried forward is closed for the student: fee status reads it up
 *   to the month it was carried, and what is still owed is the carried balance less what was paid
 *   against it (`student_balances.carried_remaining`, with the opening arrears, decision 0027).
 *
 * Both builders end in a CTE `pos`, one row per student, with: id, name, status, parent_phone,
 * mobile_number, fees_from_month, class_name, section, roll_number, session_id, session_name, first_key,
 * last_key, due_key, start_key (the first month monthly fees are due), due_months (start_key …
 * due_key), tuition, bus, yearly_total, yearly_due, closed, t_mask and b_mask (bit k set: month k of
 * the session recorded for tuition / bus, up to the horizon), received (every live line of the session
 * but arrears payments), monthly_owed, yearly_owed, session_owed, carried_owed (every carried balance
 * and the opening arrears), owed, expected_now (this month's tuition and bus), m_granted (approved
 * concessions on unrecorded monthly heads up to the horizon), y_granted (on the yearly heads:
 * counted once the session has begun, as reports do), m_applied and m_discount (what the monthly heads
 * received met of their due, and the concessions of recorded months, up to the horizon), m_applied_all
 * (the first for the whole session), y_applied (the second's yearly counterpart), and the stored running
 * sums by month owed_by_month, granted_by_month, applied_by_month and discount_by_month; and, for the
 * yearly heads, what each received (p_admission, p_exam, p_books, p_uniform, p_misc) and received in all.
 * A statement reads `pos` once: joined to itself (or to a list of months it is the inner side of), it
 * is worked out again for every row of the other side when PostgreSQL misjudges a small school's rows.
 */

/** A month key's ordinal (year × 12 + month), in SQL. */
export const monthIndex = (key: SQL) => sql`(substr(${key}, 1, 4)::int * 12 + substr(${key}, 6, 2)::int)`;

/**
 * The concessions of one month (`key`) of a `pos` row `p` on its heads not yet paid (issue 16): the
 * step of the cumulative `granted_by_month` at that month. A head already paid carries its
 * concession as the shortfall of what was received, as it always did, so the two never overlap.
 */
export const grantedInMonth = (key: SQL) => monthStep(sql`p.granted_by_month`, key);

/**
 * One month's own figure (`key`, a month of the session) from a running sum stored by month of a `pos`
 * row `p`: its step at that month. `owed_by_month` gives the month's outstanding, `applied_by_month`
 * what its tuition and bus received met of their due, `discount_by_month` the concessions of its
 * recorded heads (decision 0041): a month of a report read without the ledger.
 */
export const monthStep = (column: SQL, key: SQL) => sql`(
  coalesce(${column}[${monthIndex(key)} - ${monthIndex(sql`p.first_key`)} + 1], 0)
  - coalesce(${column}[${monthIndex(key)} - ${monthIndex(sql`p.first_key`)}], 0))`;

/** Whether month `key` of the session has something recorded for tuition (`t_all`) or bus (`b_all`) of a `pos` row `p`. */
export const recordedIn = (mask: SQL, key: SQL) => sql`((${mask} >> (${monthIndex(key)} - ${monthIndex(sql`p.first_key`)})) & 1 = 1)`;

/** The stored balance's columns every builder selects, `b` the session row and `sb` the student's. */
const balanceColumns = sql`
  b.start_key as b_start_key, b.monthly_owed as owed_by_month, b.monthly_granted as granted_by_month,
  coalesce(b.yearly_granted, 0)::bigint as b_yearly_granted,
  coalesce(b.tuition_paise, 0)::bigint as tuition, coalesce(b.bus_paise, s.monthly_bus_fee_paise, 0)::bigint as bus,
  coalesce(b.admission_expected + b.exam_expected + b.books_expected + b.uniform_expected + b.misc_expected, 0)::bigint as yearly_total,
  coalesce(b.yearly_owed, 0)::bigint as b_yearly_owed,
  b.monthly_applied as applied_by_month, b.monthly_discount as discount_by_month, coalesce(b.yearly_applied, 0)::bigint as y_applied,
  b.yearly_owed_by_month as yearly_by_month, b.due_through as due_through,
  b.yearly_due_by_month as ysplit_due_by_month, b.yearly_granted_by_month as ysplit_granted_by_month, b.yearly_received_by_month as ysplit_received_by_month,
  coalesce(b.tuition_mask, 0)::bigint as t_all, coalesce(b.bus_mask, 0)::bigint as b_all,
  coalesce(b.admission_paid, 0)::bigint as p_admission, coalesce(b.exam_paid, 0)::bigint as p_exam,
  coalesce(b.books_paid, 0)::bigint as p_books, coalesce(b.uniform_paid, 0)::bigint as p_uniform,
  coalesce(b.misc_paid, 0)::bigint as p_misc,
  coalesce(b.received, 0)::bigint as received,
  coalesce(sb.carried_remaining, 0)::bigint as carried_owed`;

/**
 * Students a statement is restricted to: a list, sent as one array parameter, or an expression that
 * gives a `uuid[]` inside the statement (the ids a catch-up hands from one statement of its
 * transaction to the next, `student-positions.ts`).
 */
export type StudentIds = readonly string[] | SQL;
export const idsArray = (ids: StudentIds): SQL => (ids instanceof SQL ? ids : sql`${uuidArray(ids)}::uuid[]`);

/**
 * Every active student in their own session (else the school's active one), till `asOfMonth`; only
 * the students named when `studentIds` is given (the marked rows of `student_positions`).
 * A closed own session counts nothing itself: its dues are in the carried balance (`owed`
 * = session_owed + carried_owed is what outstanding-fees answers).
 */
export function positionsCte(schoolId: string, asOfMonth: string, studentIds?: StudentIds): SQL {
  return sql`
    act as (
      select id from academic_sessions where school_id = ${schoolId} and is_active limit 1
    ),
    placed as (
      select s.id, s.name, s.status, s.parent_phone, s.mobile_number, s.fees_from_month,
             coalesce(b.class_name, s.class_name) as class_name,
             coalesce(b.section, s.section) as section,
             coalesce(b.roll_number, s.roll_number) as roll_number,
             ss.id as session_id, ss.name as session_name,
             to_char(ss.start_date, 'YYYY-MM') as first_key,
             to_char(ss.end_date, 'YYYY-MM') as last_key,
             least(${asOfMonth}::text, to_char(ss.end_date, 'YYYY-MM')) as cal_key,
             coalesce(b.closed, false) as closed,
             ${balanceColumns}
      from students s
      left join academic_sessions ss on ss.school_id = ${schoolId} and ss.id = coalesce(s.session_id, (select id from act))
      left join student_session_balances b on b.school_id = ${schoolId} and b.student_id = s.id and b.session_id = ss.id
      left join student_balances sb on sb.school_id = ${schoolId} and sb.student_id = s.id
      where s.school_id = ${schoolId} and s.status = 'active'${studentIds ? sql` and s.id = any(${idsArray(studentIds)})` : sql``}
    ),
    ${horizonCtes(asOfMonth, false)}`;
}

/**
 * Every student who sat in one session (passouts included), till `asOfMonth` or, for a student
 * whose balance of it was carried, till the month it was carried: the session's own figures,
 * as fee status shows them for that session. Who sat in it is who has a balance row of it.
 */
export function sessionPositionsCte(schoolId: string, sessionId: string, asOfMonth: string): SQL {
  return sql`
    ses as (
      select id, name, is_active, to_char(start_date, 'YYYY-MM') as first_key, to_char(end_date, 'YYYY-MM') as last_key
      from academic_sessions where school_id = ${schoolId} and id = ${sessionId}::uuid
    ),
    placed as (
      select s.id, s.name, s.status, s.parent_phone, s.mobile_number, s.fees_from_month,
             b.class_name, b.section, b.roll_number,
             ses.id as session_id, ses.name as session_name, ses.first_key, ses.last_key,
             least(coalesce(b.through_month, ${asOfMonth}::text), ses.last_key) as cal_key,
             b.closed,
             ${balanceColumns}
      from ses
      join student_session_balances b on b.school_id = ${schoolId} and b.session_id = ses.id
      join students s on s.school_id = ${schoolId} and s.id = b.student_id
      left join student_balances sb on sb.school_id = ${schoolId} and sb.student_id = s.id
    ),
    ${horizonCtes(asOfMonth, true)}`;
}

/** A running sum by month of a `base` row `b` picked at its horizon month (`due_idx`): 0 before the session. */
const atHorizon = (column: SQL) => sql`case when b.due_idx < 0 or ${column} is null or cardinality(${column}) = 0 then 0::bigint
                  else ${column}[least(b.due_idx, cardinality(${column}) - 1) + 1] end`;

/**
 * base and pos over `placed`: the stored figures picked at the horizon.
 *
 * Each step ends in `offset 0`, a fence that keeps PostgreSQL from folding it into the next: folded,
 * every use of a column such as `due_idx` was replaced by the whole expression behind it (through
 * `due_key`, `cal_idx` and the month arithmetic), a tree that grew with every step and every use.
 * At 60,000 students the stats statement took 7 s to evaluate it, and JIT compiling it took minutes
 * (decision 0042); fenced, each step's columns are computed once per row and it takes under one.
 * `pos` is not materialized: a statement reads it once, so nothing writes 60,000 wide rows to a
 * temporary file.
 */
function horizonCtes(asOfMonth: string, closedCountsInSession: boolean): SQL {
  const zeroIfClosed = (expr: SQL) => (closedCountsInSession ? expr : sql`case when b.closed then 0 else ${expr} end`);
  return sql`
    cal as (
      select p.*,
             case when p.first_key is null or p.cal_key < p.first_key then -1
                  else ${monthIndex(sql`p.cal_key`)} - ${monthIndex(sql`p.first_key`)} end as cal_idx
      from placed p offset 0
    ),
    -- under an instalment plan the horizon moves to the last month whose fees have fallen due (decision 0048)
    eff as (
      select c.*,
             case when c.cal_idx < 0 or c.due_through is null or cardinality(c.due_through) = 0 then c.cal_key
                  else to_char(to_date(c.first_key || '-01', 'YYYY-MM-DD') + make_interval(months => c.due_through[least(c.cal_idx, cardinality(c.due_through) - 1) + 1]), 'YYYY-MM') end as due_key
      from cal c offset 0
    ),
    base as (
      select p.*,
             coalesce(p.b_start_key, greatest(p.first_key, coalesce(p.fees_from_month, p.first_key))) as start_key,
             case when p.first_key is null or greatest(p.first_key, coalesce(p.fees_from_month, p.first_key)) > p.due_key then 0
                  else ${monthIndex(sql`p.due_key`)} - ${monthIndex(sql`greatest(p.first_key, coalesce(p.fees_from_month, p.first_key))`)} + 1 end as due_months,
             case when p.first_key is null or p.due_key < p.first_key then -1
                  else ${monthIndex(sql`p.due_key`)} - ${monthIndex(sql`p.first_key`)} end as due_idx
      from eff p offset 0
    ),
    horizon as (
      select b.*,
             -- the session's months up to the horizon, as bits (a session is far shorter than 62 months)
             case when b.due_idx < 0 then 0::bigint when b.due_idx >= 62 then -1::bigint else (1::bigint << (b.due_idx + 1)) - 1 end as due_bits,
             ${atHorizon(sql`b.owed_by_month`)} as monthly_now,
             case when b.cal_idx < 0 then 0::bigint
                  when b.yearly_by_month is null or cardinality(b.yearly_by_month) = 0 then b.b_yearly_owed
                  else b.yearly_by_month[least(b.cal_idx, cardinality(b.yearly_by_month) - 1) + 1] end as yearly_due,
             ${atHorizon(sql`b.granted_by_month`)} as m_granted,
             b.b_yearly_granted as y_granted,
             -- the reconciliation's monthly parts at the horizon, and what the session's months received in all (decision 0041)
             ${atHorizon(sql`b.applied_by_month`)} as m_applied,
             ${atHorizon(sql`b.discount_by_month`)} as m_discount,
             coalesce(b.applied_by_month[cardinality(b.applied_by_month)], 0)::bigint as m_applied_all,
             -- under a plan splitting the yearly heads: their part due, its concessions and what was received against it (null: whole)
             case when b.cal_idx < 0 or b.ysplit_due_by_month is null or cardinality(b.ysplit_due_by_month) = 0 then null::bigint else b.ysplit_due_by_month[least(b.cal_idx, cardinality(b.ysplit_due_by_month) - 1) + 1] end as ysplit_due,
             case when b.cal_idx < 0 or b.ysplit_granted_by_month is null or cardinality(b.ysplit_granted_by_month) = 0 then null::bigint else b.ysplit_granted_by_month[least(b.cal_idx, cardinality(b.ysplit_granted_by_month) - 1) + 1] end as ysplit_granted,
             case when b.cal_idx < 0 or b.ysplit_received_by_month is null or cardinality(b.ysplit_received_by_month) = 0 then null::bigint else b.ysplit_received_by_month[least(b.cal_idx, cardinality(b.ysplit_received_by_month) - 1) + 1] end as ysplit_received
      from base b offset 0
    ),
    pos as not materialized (
      select b.*,
             b.t_all & b.due_bits as t_mask,
             b.b_all & b.due_bits as b_mask,
             ${zeroIfClosed(sql`b.monthly_now`)} as monthly_owed,
             ${zeroIfClosed(sql`b.yearly_due`)} as yearly_owed,
             ${zeroIfClosed(sql`b.monthly_now + b.yearly_due`)} as session_owed,
             ${zeroIfClosed(sql`b.monthly_now + b.yearly_due`)} + b.carried_owed as owed,
             case when not b.closed and b.start_key <= ${asOfMonth} and b.last_key >= ${asOfMonth} then b.tuition + b.bus else 0 end as expected_now
      from horizon b
    )`;
}
