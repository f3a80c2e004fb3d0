import { sql, type SQL } from 'drizzle-orm';
import { isLive } from './sql';

/**
 * What each student's money of a session did, for reports that must reconcile (issue item 10):
 * Due − Concession − Received = Outstanding on every row, and Received + Received in advance +
 * Other fees (+ Arrears collected, read separately) is every rupee of the session.
 *
 * Follows `sessionPositionsCte` (it reads its `pos`) and, like it, reads only the running balances,
 * never the ledger (decision 0041): at 60,000 students the lines of a session are over a million rows,
 * and reading them made a class-wise report take a minute under load (decision 0042). The stored
 * figures are ruling 6's as `computeSessionAccount` states them:
 * - *due*: every head and month (or yearly head) of the horizon, gross;
 * - *concession*: recorded months' shortfall forgiven and every approved concession of the horizon;
 * - *received*: what the horizon's heads received met of their due (`applied`);
 * - *advance*: what the months after the horizon received met of theirs while the session is open
 *   for the student, and the yearly heads' before the session began (or their part not yet due
 *   under an instalment plan that splits them, decision 0048);
 * - *other*: everything else of the session (laboratory, sports and other extra heads, anything
 *   paid beyond a head's due, months of a closed session after it was carried).
 *
 * Adds the CTE `recon`: one row per student of `pos`, with the student's class, section, status and
 * what the session still owes, so a report groups `recon` alone. Joined back to `pos` on the
 * student, `pos` (not materialized) was worked out twice, and when PostgreSQL misjudged a small
 * school's rows (38 for 2,000) it nested the two: a 2,000-student class-wise report read 21 million
 * pages in 37 s while a 60,000-student one took 1 s.
 */
export function reconcileCtes(): SQL {
  return sql`
    recon as (
      select p.id as student_id, p.class_name, p.section, p.status, p.session_owed,
             x.due, x.concession, x.received, x.advance,
             p.received - x.received - x.advance as other
      from pos p
      cross join lateral (
        select
          (p.tuition + p.bus) * p.due_months
            + case when p.ysplit_due is not null then p.ysplit_due when p.first_key <= p.due_key then p.yearly_total else 0 end as due,
          p.m_discount + p.m_granted
            + case when p.ysplit_granted is not null then p.ysplit_granted when p.first_key <= p.due_key then p.y_granted else 0 end as concession,
          p.m_applied
            + case when p.ysplit_due is not null then coalesce(p.ysplit_received, 0) when p.first_key <= p.due_key then p.y_applied else 0 end as received,
          case when p.closed then 0 else p.m_applied_all - p.m_applied end
            + case when p.ysplit_due is not null then p.y_applied - coalesce(p.ysplit_received, 0)
                   when p.first_key <= p.due_key or p.closed then 0 else p.y_applied end as advance
      ) x
    )`;
}

/** Live payments of arrears (carried balances and opening arrears) with a payment date in [from, to]. */
export const arrearsCollected = (schoolId: string, from: string, to: string): SQL => sql`
  (select coalesce(sum(l.amount_paise), 0) from receipt_lines l
   where l.school_id = ${schoolId} and l.head in ('previous_balance', 'opening_balance') and l.paid_on between ${from}::date and ${to}::date and ${isLive(schoolId)})`;
