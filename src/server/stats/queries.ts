import { sql } from 'drizzle-orm';
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

  const [positions, money, lastPaid, expenseRows] = await Promise.all([
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
        -- the session's bus lines and the month's tuition and bus lines, from the running balances (decision 0041)
        (select coalesce(sum(bus_paid), 0) from student_session_balances
          where school_id = ${schoolId} and session_id = ${session.id ?? sql`null`}::uuid)::text as bus_revenue,
        (select coalesce(sum(${monthStep(sql`p.monthly_paid`, sql`${currentMonth}::text`)}), 0) from student_session_balances p
          where p.school_id = ${schoolId} and p.session_id in (
            select id from academic_sessions where school_id = ${schoolId} and to_char(start_date, 'YYYY-MM') <= ${currentMonth} and to_char(end_date, 'YYYY-MM') >= ${currentMonth}))::text as month_collected,
        (select coalesce(sum(l.amount_paise), 0) from receipt_lines l
          where l.school_id = ${schoolId} and l.paid_on between ${month.from}::date and ${month.to}::date and ${isIncome(schoolId)})::text as month_income`),
    paidForMonth(db, { schoolId, monthKey: lastMonth }),
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
    paidStudents: lastPaid,
    pendingFees: p(pos.pending_fees),
    pendingStudents: n(pos.pending_students),
    previousBalancePending: p(pos.carried),
    expectedMonthlyIncome: p(pos.expected_now),
    yearlyFeesPotential: p(pos.yearly_potential),
    currentSessionBusRevenue: p(m.bus_revenue),
    currentMonthCollected: p(m.month_collected),
    thisMonthIncome: p(m.month_income),
    totalExpenses: paise(totalExpenses),
    expensesByCategory: byCategory,
    lastMonth,
    currentMonth,
  };
}

/**
 * How many active students are Paid for a month (the "<Month Year> Payments" card): in the session
 * that contains the month, every head expected of them is recorded and at least one is. This is
 * the month card's "Paid" of fee status.
 */
const monthIndex = (key: string) => Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7));

export async function paidForMonth(db: Db, { schoolId, monthKey }: { schoolId: string; monthKey: string }): Promise<number> {
  // the recorded-month bits of the running balances (decision 0041): no ledger read
  const [row] = rowsOf<{ paid: number }>(
    await db.execute(sql`
      with ms as (
        select id, to_char(start_date, 'YYYY-MM') as first_key from academic_sessions
        where school_id = ${schoolId} and to_char(start_date, 'YYYY-MM') <= ${monthKey} and to_char(end_date, 'YYYY-MM') >= ${monthKey}
        order by is_active desc, start_date desc limit 1
      ),
      bits as (
        select b.tuition_paise, b.bus_paise,
               (b.tuition_mask >> (${monthIndex(monthKey)} - (substr(ms.first_key, 1, 4)::int * 12 + substr(ms.first_key, 6, 2)::int))) & 1 as t,
               (b.bus_mask >> (${monthIndex(monthKey)} - (substr(ms.first_key, 1, 4)::int * 12 + substr(ms.first_key, 6, 2)::int))) & 1 as b
        from ms
        join student_session_balances b on b.school_id = ${schoolId} and b.session_id = ms.id
        join students s on s.school_id = ${schoolId} and s.id = b.student_id and s.status = 'active'
      )
      select count(*)::int as paid from bits
      where (t = 1 or b = 1) and (t = 1 or tuition_paise = 0) and (b = 1 or bus_paise = 0)`),
  );
  return row?.paid ?? 0;
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
