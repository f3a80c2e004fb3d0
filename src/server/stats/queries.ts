import { sql } from 'drizzle-orm';
import { compareClasses } from '../../domain/classes';
import { EXPENSE_CATEGORIES, type ExpenseCategory } from '../../domain/expenses';
import { paise, type Paise } from '../../domain/money';
import { previousMonthKey } from '../../domain/reports';
import { aprilToMarchSession, sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';
import { ensurePositions, positionsStateColumns, positionsStateOf, readAfterCatchUp } from './student-positions';

const n = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const p = (v: unknown): Paise => paise(n(v));

export interface CurrentSession {
  id: string | null;
  name: string;
  startDate: string;
  endDate: string;
}

/** The school's active session, as a subquery (no row: the school has none). */
const activeSession = (schoolId: string) => sql`(select id, name, start_date, end_date from academic_sessions where school_id = ${schoolId} and is_active limit 1)`;

/** The active session as read from `activeSession`, or (a school without one) the April–March year of today. */
function sessionOf(row: { id?: unknown; name?: unknown; start_date?: unknown; end_date?: unknown } | undefined, today: string): CurrentSession {
  if (row?.id) return { id: String(row.id), name: String(row.name), startDate: String(row.start_date), endDate: String(row.end_date) };
  const year = aprilToMarchSession(today);
  return { id: null, name: year.name, startDate: year.startDate, endDate: year.endDate };
}

/** The active session, or (a school without one) the April–March year of today. */
export async function currentSession(db: Db, { schoolId, today }: { schoolId: string; today: string }): Promise<CurrentSession> {
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select s.id, s.name, s.start_date::text as start_date, s.end_date::text as end_date from ${activeSession(schoolId)} s`),
  );
  return sessionOf(row, today);
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
 * expenses of the session. `reading` is called just before the first statement is sent (`readAfterCatchUp`).
 */
export async function schoolStats(
  db: Db,
  { schoolId, today, reading }: { schoolId: string; today: string; reading?: () => void },
): Promise<SchoolStats> {
  const currentMonth = today.slice(0, 7);
  const lastMonth = previousMonthKey(today);
  const year = aprilToMarchSession(today);
  // one statement: the rows' state with the cards' totals (decision 0058), the session and its
  // expenses (decision 0060), read after the catch-up of any student a write has marked, in the same
  // round trip on one connection (decision 0080)
  const read = await readAfterCatchUp(
    db,
    schoolId,
    currentMonth,
    sql`
      select ${positionsStateColumns(schoolId)},
             s.id, s.name, s.start_date::text as start_date, s.end_date::text as end_date,
             (select coalesce(json_agg(json_build_array(e.category, e.total)), '[]'::json) from (
                select category, sum(amount_paise)::text as total from expenses
                where school_id = ${schoolId} and deleted_at is null
                  and expense_date between coalesce(s.start_date, ${year.startDate}::date) and coalesce(s.end_date, ${year.endDate}::date)
                group by category) e) as expenses
      from (select 1) one
      left join school_positions p on p.school_id = ${schoolId}
      left join lateral ${activeSession(schoolId)} s on true`,
    reading,
  );
  const [row] = read.rows;
  const session = sessionOf(row, today);
  // a new month, a change to the sessions or a rollover's thousands of marks: the slow path
  const f = read.caughtUp ? positionsStateOf(row).totals : await ensurePositions(db, { schoolId, month: currentMonth }, positionsStateOf(row));
  const expenseRows = (row?.expenses ?? []) as Array<[ExpenseCategory, string]>;
  const byCategory = new Map<ExpenseCategory, Paise>();
  let totalExpenses = 0;
  const sums = new Map(expenseRows.map(([category, total]) => [category, n(total)]));
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
    totalRevenue: p(f.revenue),
    paidStudents: n(f.paid_last),
    pendingFees: p(f.pending_fees),
    pendingStudents: n(f.pending_students),
    previousBalancePending: p(f.carried_owed),
    expectedMonthlyIncome: p(f.expected_now),
    yearlyFeesPotential: p(f.yearly_potential),
    currentSessionBusRevenue: p(f.bus_paid_active),
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
