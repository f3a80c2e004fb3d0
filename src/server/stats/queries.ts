import { sql, type SQL } from 'drizzle-orm';
import { compareClasses } from '../../domain/classes';
import { EXPENSE_CATEGORIES, type ExpenseCategory } from '../../domain/expenses';
import { paise, type Paise } from '../../domain/money';
import { monthBounds, previousMonthKey } from '../../domain/reports';
import { aprilToMarchSession, sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';
import { isIncome } from '../reports/sql';
import { monthStep, positionsCte } from './positions';

const n = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const p = (v: unknown): Paise => paise(n(v));

export interface CurrentSession {
  id: string | null;
  name: string;
  startDate: string;
  endDate: string;
}

/** The active session, or (a school without one) the April–March year of today. */
export async function currentSession(db: Db, { schoolId, today }: { schoolId: string; today: string }): Promise<CurrentSession> {
  const [row] = rowsOf<{ id: string; name: string; start_date: string; end_date: string }>(
    await db.execute(sql`
      select id, name, start_date::text as start_date, end_date::text as end_date
      from academic_sessions where school_id = ${schoolId} and is_active limit 1`),
  );
  if (row) return { id: row.id, name: row.name, startDate: row.start_date, endDate: row.end_date };
  const year = aprilToMarchSession(today);
  return { id: null, name: year.name, startDate: year.startDate, endDate: year.endDate };
}

export interface SchoolStats {
  session: CurrentSession;
  totalStudents: number;
  totalRevenue: Paise;
  paidStudents: number;
  pendingFees: Paise;
  pendingStudents: number;
  previousBalancePending: Paise;
  expectedMonthlyIncome: Paise;
  yearlyFeesPotential: Paise;
  currentSessionBusRevenue: Paise;
  currentMonthCollected: Paise;
  thisMonthIncome: Paise;
  totalExpenses: Paise;
  expensesByCategory: Map<ExpenseCategory, Paise>;
  lastMonth: string;
  currentMonth: string;
}

/**
 * Every figure of the Students tab cards (operations §2, §3 School stats), read from the ledger
 * (ruling 2) in a few set-based statements run side by side.
 */
export async function schoolStats(db: Db, { schoolId, today }: { schoolId: string; today: string }): Promise<SchoolStats> {
  const currentMonth = today.slice(0, 7);
  const lastMonth = previousMonthKey(today);
  const session = await currentSession(db, { schoolId, today });
  const month = monthBounds(currentMonth);

  const [positions, money, balances, expenseRows] = await Promise.all([
    db.execute(sql`
      with ${positionsCte(schoolId, currentMonth)}
      select count(*)::int as total_students,
             coalesce(sum(owed), 0)::text as pending_fees,
             count(*) filter (where owed > 0)::int as pending_students,
             coalesce(sum(carried_owed), 0)::text as carried,
             coalesce(sum(expected_now), 0)::text as expected_now,
             coalesce(sum(yearly_total) filter (where session_id is not null and not closed), 0)::text as yearly_potential
      from pos`),
    db.execute(sql`
      select
        -- ruling 27: receipts paid from credit bring no money (it was counted when it arrived, as credit); refunds give it back
        ((select coalesce(sum(total_paise), 0) from receipts where school_id = ${schoolId} and status = 'live' and payment_mode <> 'credit' and source <> 'opening')
          + (select coalesce(sum(amount_paise) filter (where kind <> 'applied'), 0) from student_credit_entries where school_id = ${schoolId}))::text as total_revenue,
        (select coalesce(sum(l.amount_paise), 0) from receipt_lines l
          where l.school_id = ${schoolId} and l.paid_on between ${month.from}::date and ${month.to}::date and ${isIncome(schoolId)})::text as month_income`),
    balanceFigures(db, { schoolId, sessionId: session.id, currentMonth, lastMonth }),
    db.execute(sql`
      select category, sum(amount_paise)::text as total from expenses
      where school_id = ${schoolId} and deleted_at is null and expense_date between ${session.startDate}::date and ${session.endDate}::date
      group by category`),
  ]);
  const pos = rowsOf<Record<string, unknown>>(positions)[0] ?? {};
  const m = rowsOf<Record<string, unknown>>(money)[0] ?? {};
  const byCategory = new Map<ExpenseCategory, Paise>();
  let totalExpenses = 0;
  const sums = new Map(rowsOf<{ category: ExpenseCategory; total: string }>(expenseRows).map((r) => [r.category, n(r.total)]));
  for (const c of EXPENSE_CATEGORIES) {
    const v = sums.get(c);
    if (v !== undefined) {
      byCategory.set(c, paise(v));
      totalExpenses += v;
    }
  }
  return {
    session,
    totalStudents: n(pos.total_students),
    totalRevenue: p(m.total_revenue),
    paidStudents: balances.paid,
    pendingFees: p(pos.pending_fees),
    pendingStudents: n(pos.pending_students),
    previousBalancePending: p(pos.carried),
    expectedMonthlyIncome: p(pos.expected_now),
    yearlyFeesPotential: p(pos.yearly_potential),
    currentSessionBusRevenue: balances.busRevenue,
    currentMonthCollected: balances.monthCollected,
    thisMonthIncome: p(m.month_income),
    totalExpenses: paise(totalExpenses),
    expensesByCategory: byCategory,
    lastMonth,
    currentMonth,
  };
}

/**
 * The cards read from the running balances (decision 0041), in ONE scan of the school's balance rows
 * of the sessions they name (at 60,000 students each scan of that table is about 0.2 s; the cards
 * took three):
 * - busRevenue: bus fee received for the current session;
 * - monthCollected: what this month's tuition and bus lines brought, in every session that contains
 *   this month (the step of the running sums by month at this month);
 * - paid, the "<Month Year> Payments" card: how many active students are Paid for last month, in
 *   the session that contains it (the active one first): every head expected of them is recorded and
 *   at least one is. This is the month card's "Paid" of fee status, from the recorded-month bits.
 */
const monthIndex = (key: string) => Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7));

async function balanceFigures(
  db: Db,
  { schoolId, sessionId, currentMonth, lastMonth }: { schoolId: string; sessionId: string | null; currentMonth: string; lastMonth: string },
): Promise<{ busRevenue: Paise; monthCollected: Paise; paid: number }> {
  const bit = (mask: SQL) => sql`(${mask} >> (${monthIndex(lastMonth)} - (substr(lm.first_key, 1, 4)::int * 12 + substr(lm.first_key, 6, 2)::int))) & 1`;
  const [row] = rowsOf<{ bus: string; month: string; paid: number }>(
    await db.execute(sql`
      with cur as (
        select id from academic_sessions
        where school_id = ${schoolId} and to_char(start_date, 'YYYY-MM') <= ${currentMonth} and to_char(end_date, 'YYYY-MM') >= ${currentMonth}
      ),
      lm as (
        select id, to_char(start_date, 'YYYY-MM') as first_key from academic_sessions
        where school_id = ${schoolId} and to_char(start_date, 'YYYY-MM') <= ${lastMonth} and to_char(end_date, 'YYYY-MM') >= ${lastMonth}
        order by is_active desc, start_date desc limit 1
      ),
      rows as (
        select p.bus_paid, cur.id is not null as in_cur, ${monthStep(sql`p.monthly_paid`, sql`${currentMonth}::text`)} as month_paid,
               lm.id is not null as in_last, p.tuition_paise, p.bus_paise, ${bit(sql`p.tuition_mask`)} as t, ${bit(sql`p.bus_mask`)} as b,
               p.session_id = ${sessionId ?? sql`null`}::uuid as in_active, s.status = 'active' as active
        from student_session_balances p
        left join cur on cur.id = p.session_id
        left join lm on lm.id = p.session_id
        left join students s on s.school_id = ${schoolId} and s.id = p.student_id
        where p.school_id = ${schoolId}
          and (p.session_id = ${sessionId ?? sql`null`}::uuid or p.session_id in (select id from cur) or p.session_id in (select id from lm))
      )
      select coalesce(sum(r.bus_paid) filter (where r.in_active), 0)::text as bus,
             coalesce(sum(r.month_paid) filter (where r.in_cur), 0)::text as month,
             count(*) filter (where r.in_last and r.active and (r.t = 1 or r.b = 1) and (r.t = 1 or r.tuition_paise = 0) and (r.b = 1 or r.bus_paise = 0))::int as paid
      from rows r`),
  );
  return { busRevenue: p(row?.bus), monthCollected: p(row?.month), paid: row?.paid ?? 0 };
}

export interface ChartData {
  session: CurrentSession;
  months: Array<{ key: string; expected: Paise; collected: Paise }>;
  outstandingByClass: Array<{ className: string; students: number; outstanding: Paise }>;
}

/** The dashboard charts: collected against expected per month of the session, and outstanding by class. */
export async function chartData(db: Db, { schoolId, today }: { schoolId: string; today: string }): Promise<ChartData> {
  const session = await currentSession(db, { schoolId, today });
  const keys = sessionMonths(session.startDate, session.endDate).map((m) => m.key);
  const currentMonth = today.slice(0, 7);
  const [monthRows, classRows] = await Promise.all([
    session.id
      ? db.execute(sql`
          with ${positionsCte(schoolId, currentMonth)},
          expected as (
            select coalesce(sum(tuition + bus) filter (where not closed and session_id = ${session.id}::uuid), 0) as per_month from pos
          ),
          -- what the month's tuition and bus lines brought, from the running sums by month of the balances (decision 0041)
          collected as (
            select u.i, sum(u.v) as running
            from student_session_balances b cross join lateral unnest(b.monthly_paid) with ordinality as u(v, i)
            where b.school_id = ${schoolId} and b.session_id = ${session.id}::uuid
            group by u.i
          )
          select k.key, (select per_month from expected)::text as expected, (coalesce(c.running, 0) - coalesce(c0.running, 0))::text as collected
          from unnest(${`{${keys.join(',')}}`}::text[]) with ordinality as k(key, i)
          left join collected c on c.i = k.i
          left join collected c0 on c0.i = k.i - 1
          order by k.key`)
      : Promise.resolve({ rows: [] }),
    db.execute(sql`
      with ${positionsCte(schoolId, currentMonth)}
      select class_name, count(*)::int as students, coalesce(sum(owed), 0)::text as outstanding
      from pos group by class_name`),
  ]);
  return {
    session,
    months: rowsOf<{ key: string; expected: string; collected: string }>(monthRows).map((r) => ({ key: r.key, expected: p(r.expected), collected: p(r.collected) })),
    outstandingByClass: rowsOf<{ class_name: string; students: number; outstanding: string }>(classRows).map((r) => ({
      className: r.class_name,
      students: r.students,
      outstanding: p(r.outstanding),
    })).sort((a, b) => compareClasses(a.className, b.className)),
  };
}
