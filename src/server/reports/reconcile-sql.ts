import { sql, type SQL } from 'drizzle-orm';
import { isLive } from './sql';

/**
 * What each student's money of a session did, for reports that must reconcile (issue item 10):
 * Due − Concession − Received = Outstanding on every row, and Received + Received in advance +
 * Other fees (+ Arrears collected, read separately) is every rupee of the session.
 *
 * Follows `sessionPositionsCte` (it reads its `pos`), and ruling 6 as `computeSessionAccount`
 * states it: a head and month (or a yearly head) of the horizon is *due*; what was received for it,
 * up to its due, is *received*; a recorded monthly head's shortfall is a *concession*; what was
 * received for a month after the horizon (or a yearly head before the session began) is *advance*;
 * everything else of the session (laboratory, sports and other extra heads, anything beyond a
 * head's due, months of a closed session after it was carried) is *other*.
 *
 * Adds the CTEs `rl` (live lines of the session by student, head and period), `rx` (each with its
 * expected amount and place: due, ahead or other) and `recon` (one row per student of `pos`).
 */
export function reconcileCtes(schoolId: string): SQL {
  return sql`
    rl as (
      select l.student_id, l.head, l.period, sum(l.amount_paise) as paid
      from receipt_lines l
      join pos p on p.id = l.student_id and p.session_id = l.session_id
      where l.school_id = ${schoolId} and l.session_id = any(array(select distinct session_id from pos where session_id is not null))
        and l.head not in ('previous_balance', 'opening_balance') and ${isLive(schoolId)}
      group by l.student_id, l.head, l.period
    ),
    rx as (
      select rl.student_id, rl.head, rl.period, rl.paid,
             (case rl.head
                when 'tuition' then p.tuition
                when 'bus' then p.bus
                when 'admission' then coalesce(fs.yearly_fee_paise, 0)
                when 'exam' then coalesce(fs.exam_fee_paise, 0)
                when 'books' then coalesce(fs.books_fee_paise, 0)
                when 'uniform' then coalesce(fs.uniform_fee_paise, 0)
                when 'misc' then coalesce(fs.misc_fee_paise, 0)
                else 0 end)::bigint as expected,
             case
               when rl.head in ('tuition', 'bus') then
                 case when rl.period >= p.first_key and rl.period <= p.due_key then 'due'
                      when rl.period > p.due_key and rl.period <= p.last_key and not p.closed then 'ahead'
                      else 'other' end
               when rl.head in ('admission', 'exam', 'books', 'uniform', 'misc') then
                 -- split by an instalment plan: the stored parts say what of them is due (decision 0048)
                 case when p.ysplit_due is not null then 'split' when p.first_key <= p.due_key then 'due' when not p.closed then 'ahead' else 'other' end
               else 'other' end as place
      from rl
      join pos p on p.id = rl.student_id
      left join class_fee_structures fs on fs.school_id = ${schoolId} and lower(fs.class_name) = lower(p.class_name) and fs.academic_year = p.session_name
    ),
    recon as (
      select p.id as student_id,
             (p.tuition + p.bus) * p.due_months
               + case when p.ysplit_due is not null then p.ysplit_due when p.first_key <= p.due_key then p.yearly_total else 0 end as due,
             coalesce(sum(greatest(rx.expected - rx.paid, 0)) filter (where rx.place = 'due' and rx.head in ('tuition', 'bus') and rx.paid > 0), 0)
               -- approved concessions (issue 16): unrecorded due months, and yearly heads once due
               + p.m_granted + case when p.ysplit_granted is not null then p.ysplit_granted when p.first_key <= p.due_key then p.y_granted else 0 end as concession,
             coalesce(sum(least(rx.paid, rx.expected)) filter (where rx.place = 'due'), 0) + coalesce(p.ysplit_received, 0) as received,
             coalesce(sum(least(rx.paid, rx.expected)) filter (where rx.place in ('ahead', 'split')), 0) - coalesce(p.ysplit_received, 0) as advance,
             coalesce(sum(rx.paid), 0)
               - coalesce(sum(least(rx.paid, rx.expected)) filter (where rx.place in ('due', 'ahead', 'split')), 0) as other
      from pos p
      left join rx on rx.student_id = p.id
      group by p.id, p.tuition, p.bus, p.due_months, p.first_key, p.due_key, p.yearly_total, p.m_granted, p.y_granted, p.ysplit_due, p.ysplit_granted, p.ysplit_received
    )`;
}

/** Live payments of arrears (carried balances and opening arrears) with a payment date in [from, to]. */
export const arrearsCollected = (schoolId: string, from: string, to: string): SQL => sql`
  (select coalesce(sum(l.amount_paise), 0) from receipt_lines l
   where l.school_id = ${schoolId} and l.head in ('previous_balance', 'opening_balance') and l.paid_on between ${from}::date and ${to}::date and ${isLive(schoolId)})`;
