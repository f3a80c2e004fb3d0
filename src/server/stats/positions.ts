import { sql, type SQL } from 'drizzle-orm';
import { isLive } from '../reports/sql';

/**
 * Students' positions in a session for a whole school in one statement.
 *
 * This is ruling 6's outstanding (`computeSessionAccount` in src/domain/fees.ts, which fee status,
 * outstanding-fees, promotion and passouts use per student) written as set-based SQL, so school
 * stats and reports never loop over students. `positions.property.test.ts` proves the two agree
 * for random ledgers. The rules it mirrors:
 *
 * - the class is the student's enrollment in the session, else their current class; the structure
 *   is that class's for the session's academic year; the bus fee is the student's own;
 * - a monthly head of a due month (first month … the horizon month) is settled once anything was
 *   received for it (the shortfall is a concession); otherwise it is owed in full;
 * - a yearly head is owed `max(expected − received, 0)` once the session has begun;
 * - a session whose balance was carried forward is closed for the student: fee status reads it up
 *   to the month it was carried, and what is still owed is the carried balance less what was paid
 *   against it as previous balance.
 *
 * Both builders end in a CTE `pos`, one row per student, with: id, name, status, parent_phone,
 * mobile_number, fees_from_month, class_name, section, roll_number, session_id, session_name, first_key,
 * last_key, due_key, m_granted and y_granted (approved concessions on unrecorded due months and on yearly heads), start_key (the first month monthly fees are due: the session's, or the student's
 * fees-from month when later), due_months (start_key … due_key), tuition, bus, yearly_total, yearly_due, closed, t_due_paid, b_due_paid, t_mask and
 * b_mask (bit k set: month k of the session recorded for tuition / bus),
 * received (every live line of the session but previous-balance payments), monthly_owed,
 * yearly_owed, session_owed, carried_owed (every carried balance of the student), owed,
 * expected_now (this month's tuition and bus).
 */

const monthIndex = (key: SQL) => sql`(substr(${key}, 1, 4)::int * 12 + substr(${key}, 6, 2)::int)`;

/**
 * Every active student in their own session (else the school's active one), till `asOfMonth`.
 * A closed own session counts nothing itself: its dues are in the carried balance (`owed`
 * = session_owed + carried_owed is what outstanding-fees answers).
 */
export function positionsCte(schoolId: string, asOfMonth: string): SQL {
  return sql`
    act as (
      select id from academic_sessions where school_id = ${schoolId} and is_active limit 1
    ),
    placed as (
      select s.id, s.name, s.status, s.parent_phone, s.mobile_number, s.monthly_bus_fee_paise::bigint as bus, s.fees_from_month,
             coalesce(e.class_name, s.class_name) as class_name,
             coalesce(e.section, s.section) as section,
             coalesce(e.roll_number, s.roll_number) as roll_number,
             ss.id as session_id, ss.name as session_name,
             to_char(ss.start_date, 'YYYY-MM') as first_key,
             to_char(ss.end_date, 'YYYY-MM') as last_key,
             least(${asOfMonth}::text, to_char(ss.end_date, 'YYYY-MM')) as due_key,
             (pbo.id is not null) as closed
      from students s
      left join academic_sessions ss on ss.school_id = ${schoolId} and ss.id = coalesce(s.session_id, (select id from act))
      left join student_enrollments e on e.school_id = ${schoolId} and e.student_id = s.id and e.session_id = ss.id
      left join student_previous_balances pbo on pbo.school_id = ${schoolId} and pbo.student_id = s.id and pbo.session_id = ss.id
      where s.school_id = ${schoolId} and s.status = 'active'
    ),
    ${ledgerCtes(schoolId, asOfMonth, false)}`;
}

/**
 * Every student who sat in one session (passouts included), till `asOfMonth` or, for a student
 * whose balance of it was carried, till the month it was carried: the session's own figures,
 * as fee status shows them for that session.
 */
export function sessionPositionsCte(schoolId: string, sessionId: string, asOfMonth: string): SQL {
  return sql`
    ses as (
      select id, name, is_active, to_char(start_date, 'YYYY-MM') as first_key, to_char(end_date, 'YYYY-MM') as last_key
      from academic_sessions where school_id = ${schoolId} and id = ${sessionId}::uuid
    ),
    placed as (
      select s.id, s.name, s.status, s.parent_phone, s.mobile_number, s.monthly_bus_fee_paise::bigint as bus, s.fees_from_month,
             coalesce(e.class_name, s.class_name) as class_name,
             coalesce(e.section, s.section) as section,
             coalesce(e.roll_number, s.roll_number) as roll_number,
             ses.id as session_id, ses.name as session_name, ses.first_key, ses.last_key,
             least(coalesce(pbo.through_month, ${asOfMonth}::text), ses.last_key) as due_key,
             (pbo.id is not null) as closed
      from students s
      cross join ses
      left join student_enrollments e on e.school_id = ${schoolId} and e.student_id = s.id and e.session_id = ses.id
      left join student_previous_balances pbo on pbo.school_id = ${schoolId} and pbo.student_id = s.id and pbo.session_id = ses.id
      where s.school_id = ${schoolId}
        and (e.id is not null or s.session_id = ses.id or (s.session_id is null and ses.is_active and s.status = 'active'))
    ),
    ${ledgerCtes(schoolId, asOfMonth, true)}`;
}

const grantOf = (due: SQL) => sql`least(${due}, sum(case when cm.kind = 'percent' then floor((${due} * cm.value + 5000) / 10000) else cm.value end))`;

/**
 * Approved concessions (issue 16, decision 0047), as `concessionShares` in src/domain/concessions.ts:
 * per head and month, the shares of the concessions covering it add up, never beyond its due; a
 * head and month listed in `excluded` is untouched. Only what the concessions take off months still
 * unrecorded changes a monthly balance (a recorded month is settled either way, ruling 6), and a
 * yearly head owes its due less concessions less what was received.
 */
function concessionCtes(schoolId: string): SQL {
  return sql`
    cm as (
      select c.student_id, h.head, c.from_month, c.to_month, c.excluded, t.kind, t.value::bigint as value
      from concessions c
      join concession_types t on t.id = c.type_id
      join placed p on p.id = c.student_id and p.session_id = c.session_id
      cross join lateral jsonb_array_elements_text(t.heads) as h(head)
      where c.school_id = ${schoolId} and c.status = 'approved'
    ),
    ygrant as (
      select x.student_id,
             sum(x.g) filter (where x.head = 'admission') as g_admission,
             sum(x.g) filter (where x.head = 'exam') as g_exam,
             sum(x.g) filter (where x.head = 'books') as g_books,
             sum(x.g) filter (where x.head = 'uniform') as g_uniform,
             sum(x.g) filter (where x.head = 'misc') as g_misc
      from (
        select cm.student_id, cm.head, ${grantOf(sql`y.due`)} as g
        from cm
        join placed p on p.id = cm.student_id
        left join class_fee_structures fs on fs.school_id = ${schoolId} and lower(fs.class_name) = lower(p.class_name) and fs.academic_year = p.session_name
        cross join lateral (select (case cm.head when 'admission' then fs.yearly_fee_paise when 'exam' then fs.exam_fee_paise
                                     when 'books' then fs.books_fee_paise when 'uniform' then fs.uniform_fee_paise
                                     when 'misc' then fs.misc_fee_paise end)::bigint as due) y
        where cm.head not in ('tuition', 'bus') and coalesce(y.due, 0) > 0 and not (cm.excluded ? cm.head)
        group by cm.student_id, cm.head, y.due
      ) x
      group by x.student_id
    ),
    mgrant as (
      select x.student_id, sum(x.g) as granted
      from (
        select cm.student_id, cm.head, m.mkey, ${grantOf(sql`m.due`)} as g
        from cm
        join placed p on p.id = cm.student_id
        left join class_fee_structures fs on fs.school_id = ${schoolId} and lower(fs.class_name) = lower(p.class_name) and fs.academic_year = p.session_name
        cross join lateral (
          select to_char(gs, 'YYYY-MM') as mkey, (case cm.head when 'tuition' then coalesce(fs.monthly_tuition_fee_paise, 0) else p.bus end)::bigint as due
          from generate_series(
            to_date(greatest(cm.from_month, p.first_key, coalesce(p.fees_from_month, p.first_key)), 'YYYY-MM'),
            to_date(least(coalesce(cm.to_month, p.due_key), p.due_key), 'YYYY-MM'),
            interval '1 month') gs
        ) m
        where cm.head in ('tuition', 'bus') and m.due > 0 and not (cm.excluded ? (cm.head || ':' || m.mkey))
          -- a recorded month is settled whatever it was short (ruling 6): only unrecorded months owe less
          and not exists (
            select 1 from receipt_lines l join receipts r on r.id = l.receipt_id and r.status = 'live'
            where l.school_id = ${schoolId} and l.student_id = cm.student_id and l.session_id = p.session_id
              and l.head = cm.head and l.period = m.mkey)
        group by cm.student_id, cm.head, m.mkey, m.due
      ) x
      group by x.student_id
    )`;
}

/** paid, carried, base and pos over `placed`. */
function ledgerCtes(schoolId: string, asOfMonth: string, closedCountsInSession: boolean): SQL {
  const monthlyOwed = sql`b.tuition * (b.due_months - b.t_due_paid) + b.bus * (b.due_months - b.b_due_paid) - b.m_granted`;
  const zeroIfClosed = (expr: SQL) => (closedCountsInSession ? expr : sql`case when b.closed then 0 else ${expr} end`);
  return sql`
    paid as (
      select l.student_id,
             count(distinct l.period) filter (where l.head = 'tuition' and l.period >= greatest(p.first_key, coalesce(p.fees_from_month, p.first_key)) and l.period <= p.due_key) as t_due_paid,
             count(distinct l.period) filter (where l.head = 'bus' and l.period >= greatest(p.first_key, coalesce(p.fees_from_month, p.first_key)) and l.period <= p.due_key) as b_due_paid,
             -- which due months are recorded, bit k for the session's month k (the defaulters' "months due")
             coalesce(bit_or(1::bigint << (${monthIndex(sql`l.period`)} - ${monthIndex(sql`p.first_key`)}))
               filter (where l.head = 'tuition' and l.period >= p.first_key and l.period <= p.due_key
                         and ${monthIndex(sql`l.period`)} - ${monthIndex(sql`p.first_key`)} < 63), 0) as t_mask,
             coalesce(bit_or(1::bigint << (${monthIndex(sql`l.period`)} - ${monthIndex(sql`p.first_key`)}))
               filter (where l.head = 'bus' and l.period >= p.first_key and l.period <= p.due_key
                         and ${monthIndex(sql`l.period`)} - ${monthIndex(sql`p.first_key`)} < 63), 0) as b_mask,
             coalesce(sum(l.amount_paise) filter (where l.head = 'admission'), 0) as p_admission,
             coalesce(sum(l.amount_paise) filter (where l.head = 'exam'), 0) as p_exam,
             coalesce(sum(l.amount_paise) filter (where l.head = 'books'), 0) as p_books,
             coalesce(sum(l.amount_paise) filter (where l.head = 'uniform'), 0) as p_uniform,
             coalesce(sum(l.amount_paise) filter (where l.head = 'misc'), 0) as p_misc,
             coalesce(sum(l.amount_paise), 0) as received
      from receipt_lines l
      join placed p on p.id = l.student_id and p.session_id = l.session_id
      -- the sessions named as constants, so the (school, session, student) index reads only them
      where l.school_id = ${schoolId} and l.session_id = any(array(select distinct session_id from placed where session_id is not null))
        and l.head not in ('previous_balance', 'opening_balance') and ${isLive(schoolId)}
      group by l.student_id
    ),
    carried_parts as (
      select pb.student_id,
             sum(greatest(pb.monthly_outstanding_paise + pb.yearly_outstanding_paise - coalesce(pp.paid, 0), 0)) as remaining
      from student_previous_balances pb
      left join (
        select l.student_id, l.session_id, sum(l.amount_paise) as paid
        from receipt_lines l
        where l.school_id = ${schoolId} and l.head = 'previous_balance' and ${isLive(schoolId)}
        group by l.student_id, l.session_id
      ) pp on pp.student_id = pb.student_id and pp.session_id = pb.session_id
      where pb.school_id = ${schoolId}
      group by pb.student_id
      union all
      -- opening arrears from the old register (decision 0027), less what opening_balance lines paid
      select ob.student_id, greatest(ob.amount - coalesce(op.paid, 0), 0) as remaining
      from (select student_id, sum(amount_paise) as amount from opening_balances
            where school_id = ${schoolId} and cancelled_at is null group by student_id) ob
      left join (
        select l.student_id, sum(l.amount_paise) as paid
        from receipt_lines l
        where l.school_id = ${schoolId} and l.head = 'opening_balance' and ${isLive(schoolId)}
        group by l.student_id
      ) op on op.student_id = ob.student_id
    ),
    carried as (
      select student_id, sum(remaining) as remaining from carried_parts group by student_id
    ),
    ${concessionCtes(schoolId)},
    base as (
      select p.*,
             -- monthly fees run from the session's first month, or the student's fees-from month when later
             greatest(p.first_key, coalesce(p.fees_from_month, p.first_key)) as start_key,
             case when p.first_key is null or greatest(p.first_key, coalesce(p.fees_from_month, p.first_key)) > p.due_key then 0
                  else ${monthIndex(sql`p.due_key`)} - ${monthIndex(sql`greatest(p.first_key, coalesce(p.fees_from_month, p.first_key))`)} + 1 end as due_months,
             coalesce(fs.monthly_tuition_fee_paise, 0)::bigint as tuition,
             (coalesce(fs.yearly_fee_paise, 0) + coalesce(fs.exam_fee_paise, 0) + coalesce(fs.books_fee_paise, 0)
               + coalesce(fs.uniform_fee_paise, 0) + coalesce(fs.misc_fee_paise, 0))::bigint as yearly_total,
             case when p.first_key is not null and p.first_key <= p.due_key then
               greatest(coalesce(fs.yearly_fee_paise, 0) - coalesce(yg.g_admission, 0) - coalesce(pd.p_admission, 0), 0)
               + greatest(coalesce(fs.exam_fee_paise, 0) - coalesce(yg.g_exam, 0) - coalesce(pd.p_exam, 0), 0)
               + greatest(coalesce(fs.books_fee_paise, 0) - coalesce(yg.g_books, 0) - coalesce(pd.p_books, 0), 0)
               + greatest(coalesce(fs.uniform_fee_paise, 0) - coalesce(yg.g_uniform, 0) - coalesce(pd.p_uniform, 0), 0)
               + greatest(coalesce(fs.misc_fee_paise, 0) - coalesce(yg.g_misc, 0) - coalesce(pd.p_misc, 0), 0)
             else 0 end as yearly_due,
             coalesce(pd.t_due_paid, 0) as t_due_paid,
             coalesce(pd.b_due_paid, 0) as b_due_paid,
             coalesce(pd.t_mask, 0) as t_mask,
             coalesce(pd.b_mask, 0) as b_mask,
             coalesce(pd.received, 0) as received,
             coalesce(c.remaining, 0) as carried_owed,
             coalesce(mg.granted, 0) as m_granted,
             coalesce(yg.g_admission, 0) + coalesce(yg.g_exam, 0) + coalesce(yg.g_books, 0) + coalesce(yg.g_uniform, 0) + coalesce(yg.g_misc, 0) as y_granted
      from placed p
      left join class_fee_structures fs on fs.school_id = ${schoolId} and lower(fs.class_name) = lower(p.class_name) and fs.academic_year = p.session_name
      left join paid pd on pd.student_id = p.id
      left join carried c on c.student_id = p.id
      left join ygrant yg on yg.student_id = p.id
      left join mgrant mg on mg.student_id = p.id
    ),
    pos as (
      select b.*,
             ${zeroIfClosed(monthlyOwed)} as monthly_owed,
             ${zeroIfClosed(sql`b.yearly_due`)} as yearly_owed,
             ${zeroIfClosed(sql`${monthlyOwed} + b.yearly_due`)} as session_owed,
             ${zeroIfClosed(sql`${monthlyOwed} + b.yearly_due`)} + b.carried_owed as owed,
             case when not b.closed and b.start_key <= ${asOfMonth} and b.last_key >= ${asOfMonth} then b.tuition + b.bus else 0 end as expected_now
      from base b
    )`;
}
