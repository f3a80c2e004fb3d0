import { sql } from 'drizzle-orm';
import { compareClasses } from '../../domain/classes';
import { EXPENSE_CATEGORIES, type ExpenseCategory } from '../../domain/expenses';
import { paise, type Paise } from '../../domain/money';
import { previousMonthKey } from '../../domain/reports';
import { aprilToMarchSession, sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';
import { ensurePositions } from './student-positions';

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
 * Every figure of the Students tab cards (operations §2, §3 School stats): the school's totals of its
 * `student_positions` (decision 0058), brought up to date with every write first, beside the
 * expenses of the session.
 */
export async function schoolStats(db: Db, { schoolId, today }: { schoolId: string; today: string }): Promise<SchoolStats> {
  const currentMonth = today.slice(0, 7);
  const lastMonth = previousMonthKey(today);
  const sessionAndExpenses = async () => {
    const found = await currentSession(db, { schoolId, today });
    const rows = await db.execute(sql`
      select category, sum(amount_paise)::text as total from expenses
      where school_id = ${schoolId} and deleted_at is null and expense_date between ${found.startDate}::date and ${found.endDate}::date
      group by category`);
    return [found, rows] as const;
  };
  const [[session, expenseRows], figures] = await Promise.all([
    sessionAndExpenses(),
    // the cards are the school's totals of its rows (decision 0058), one row to read once they are up to date
    ensurePositions(db, { schoolId, month: currentMonth }).then(() =>
      db.execute(sql`
        select total_students, pending_fees::text as pending_fees, pending_students, carried_owed::text as carried,
               expected_now::text as expected_now, yearly_potential::text as yearly_potential, revenue::text as total_revenue,
               month_income::text as month_income, bus_paid_active::text as bus, month_paid::text as month_paid, paid_last as paid
        from school_positions where school_id = ${schoolId}`),
    ),
  ]);
  const f = rowsOf<Record<string, unknown>>(figures)[0] ?? {};
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
    totalStudents: n(f.total_students),
    totalRevenue: p(f.total_revenue),
    paidStudents: n(f.paid),
    pendingFees: p(f.pending_fees),
    pendingStudents: n(f.pending_students),
    previousBalancePending: p(f.carried),
    expectedMonthlyIncome: p(f.expected_now),
    yearlyFeesPotential: p(f.yearly_potential),
    currentSessionBusRevenue: p(f.bus),
    currentMonthCollected: p(f.month_paid),
    thisMonthIncome: p(f.month_income),
    totalExpenses: paise(totalExpenses),
    expensesByCategory: byCategory,
    lastMonth,
    currentMonth,
  };
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
  await ensurePositions(db, { schoolId, month: today.slice(0, 7) });
  const [monthRows, classRows] = await Promise.all([
    session.id
      ? db.execute(sql`
          with expected as (
            select coalesce(sum(tuition_paise + bus_paise) filter (where active and not closed and session_id = ${session.id}::uuid), 0) as per_month
            from student_positions where school_id = ${schoolId}
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
      select class_name, count(*)::int as students, coalesce(sum(owed), 0)::text as outstanding
      from student_positions where school_id = ${schoolId} and active group by class_name`),
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
