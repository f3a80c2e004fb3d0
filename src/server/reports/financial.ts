import { sql } from 'drizzle-orm';
import type { ExpenseCategory } from '../../domain/expenses';
import { paise, type Paise } from '../../domain/money';
import { monthBounds } from '../../domain/reports';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';
import { classRank, liveLines } from './sql';

/**
 * The Financial report (operations §2 dialog, §3, §7): money received in a period, by payment
 * date, from live receipt lines (ruling 2), and the expenses of the period.
 *
 * - monthly fee collections: tuition and bus lines, one row per student and month paid for;
 * - yearly fee collections: the five yearly heads (misc shown as Misc, ruling 19) plus "other"
 *   (Record Fee Payment's extra heads and payments towards carried balances), one row per student
 *   and session;
 * - so totalMonthlyIncome + totalYearlyIncome is every rupee received in the period.
 */

export interface Period {
  schoolId: string;
  from: string;
  to: string;
}

export interface MonthlyFeeRow {
  studentName: string;
  className: string;
  section: string;
  rollNumber: number;
  period: string;
  tuition: Paise;
  bus: Paise;
  paidOn: string;
}

export interface YearlyFeeRow {
  studentName: string;
  className: string;
  section: string;
  rollNumber: number;
  academicYear: string;
  admission: Paise;
  exam: Paise;
  books: Paise;
  uniform: Paise;
  misc: Paise;
  other: Paise;
  paidOn: string;
}

export interface ExpenseRow {
  date: string;
  description: string;
  category: ExpenseCategory;
  amount: Paise;
}

export interface FinancialSummary {
  monthlyIncome: Paise;
  yearlyIncome: Paise;
  expenses: Paise;
}

const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const p = (v: unknown) => paise(n(v));

export interface FinancialTotals extends FinancialSummary {
  /** received per ledger head in the period */
  byHead: Map<string, Paise>;
  counts: { monthly: number; yearly: number; expenses: number };
}

export async function financialSummary(db: Db, { schoolId, from, to }: Period): Promise<FinancialTotals> {
  const [heads, counts] = await Promise.all([
    db.execute(sql`
      select l.head, sum(l.amount_paise)::text as amount
      from ${liveLines(schoolId)}
      where l.school_id = ${schoolId} and l.paid_on between ${from}::date and ${to}::date
      group by l.head`),
    db.execute(sql`
      select
        (select count(*) from (select 1 from ${liveLines(schoolId)}
           where l.school_id = ${schoolId} and l.head in ('tuition', 'bus') and l.paid_on between ${from}::date and ${to}::date
           group by l.student_id, l.session_id, l.period, r.student_name, r.class_name, r.section, r.roll_number) m)::int as monthly_rows,
        (select count(*) from (select 1 from ${liveLines(schoolId)}
           where l.school_id = ${schoolId} and l.head not in ('tuition', 'bus') and l.paid_on between ${from}::date and ${to}::date
           group by l.student_id, l.session_id, r.student_name, r.class_name, r.section, r.roll_number) y)::int as yearly_rows,
        (select coalesce(sum(amount_paise), 0)::text from expenses
           where school_id = ${schoolId} and deleted_at is null and expense_date between ${from}::date and ${to}::date) as expenses,
        (select count(*)::int from expenses
           where school_id = ${schoolId} and deleted_at is null and expense_date between ${from}::date and ${to}::date) as expense_rows`),
  ]);
  const byHead = new Map(rowsOf<{ head: string; amount: string }>(heads).map((h) => [h.head, p(h.amount)]));
  let monthly = 0;
  let yearly = 0;
  for (const [head, amount] of byHead) {
    if (head === 'tuition' || head === 'bus') monthly += amount;
    else yearly += amount;
  }
  const [row] = rowsOf<Record<string, unknown>>(counts);
  return {
    monthlyIncome: paise(monthly),
    yearlyIncome: paise(yearly),
    expenses: p(row?.expenses),
    byHead,
    counts: { monthly: n(row?.monthly_rows), yearly: n(row?.yearly_rows), expenses: n(row?.expense_rows) },
  };
}

/** Monthly fee rows, by payment date, then class order, section and roll number. */
export async function monthlyFeeRows(db: Db, { schoolId, from, to, limit }: Period & { limit?: number }): Promise<MonthlyFeeRow[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select r.student_name, r.class_name, r.section, r.roll_number, l.period,
             coalesce(sum(l.amount_paise) filter (where l.head = 'tuition'), 0)::text as tuition,
             coalesce(sum(l.amount_paise) filter (where l.head = 'bus'), 0)::text as bus,
             max(l.paid_on)::text as paid_on
      from ${liveLines(schoolId)}
      where l.school_id = ${schoolId} and l.head in ('tuition', 'bus') and l.paid_on between ${from}::date and ${to}::date
      group by l.student_id, l.session_id, l.period, r.student_name, r.class_name, r.section, r.roll_number
      order by max(l.paid_on), ${classRank(sql`r.class_name`)}, r.section, r.roll_number, r.student_name, l.period
      ${limit === undefined ? sql`` : sql`limit ${limit}`}`),
  );
  return rows.map((r) => ({
    studentName: String(r.student_name),
    className: String(r.class_name),
    section: String(r.section),
    rollNumber: n(r.roll_number),
    period: String(r.period),
    tuition: p(r.tuition),
    bus: p(r.bus),
    paidOn: String(r.paid_on),
  }));
}

/** Yearly and other fee rows: one per student and session, by payment date, class, section and roll. */
export async function yearlyFeeRows(db: Db, { schoolId, from, to, limit }: Period & { limit?: number }): Promise<YearlyFeeRow[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select r.student_name, r.class_name, r.section, r.roll_number, s.name as academic_year,
             coalesce(sum(l.amount_paise) filter (where l.head = 'admission'), 0)::text as admission,
             coalesce(sum(l.amount_paise) filter (where l.head = 'exam'), 0)::text as exam,
             coalesce(sum(l.amount_paise) filter (where l.head = 'books'), 0)::text as books,
             coalesce(sum(l.amount_paise) filter (where l.head = 'uniform'), 0)::text as uniform,
             coalesce(sum(l.amount_paise) filter (where l.head = 'misc'), 0)::text as misc,
             coalesce(sum(l.amount_paise) filter (where l.head not in ('admission', 'exam', 'books', 'uniform', 'misc')), 0)::text as other,
             max(l.paid_on)::text as paid_on
      from ${liveLines(schoolId)}
      join academic_sessions s on s.id = l.session_id
      where l.school_id = ${schoolId} and l.head not in ('tuition', 'bus') and l.paid_on between ${from}::date and ${to}::date
      group by l.student_id, l.session_id, s.name, r.student_name, r.class_name, r.section, r.roll_number
      order by max(l.paid_on), ${classRank(sql`r.class_name`)}, r.section, r.roll_number, r.student_name
      ${limit === undefined ? sql`` : sql`limit ${limit}`}`),
  );
  return rows.map((r) => ({
    studentName: String(r.student_name),
    className: String(r.class_name),
    section: String(r.section),
    rollNumber: n(r.roll_number),
    academicYear: String(r.academic_year),
    admission: p(r.admission),
    exam: p(r.exam),
    books: p(r.books),
    uniform: p(r.uniform),
    misc: p(r.misc),
    other: p(r.other),
    paidOn: String(r.paid_on),
  }));
}

export async function expenseRows(db: Db, { schoolId, from, to, limit }: Period & { limit?: number }): Promise<ExpenseRow[]> {
  const rows = rowsOf<{ expense_date: string; description: string; category: ExpenseCategory; amount_paise: string }>(
    await db.execute(sql`
      select expense_date::text as expense_date, description, category, amount_paise::text as amount_paise from expenses
      where school_id = ${schoolId} and deleted_at is null and expense_date between ${from}::date and ${to}::date
      order by expense_date, created_at
      ${limit === undefined ? sql`` : sql`limit ${limit}`}`),
  );
  return rows.map((r) => ({ date: r.expense_date, description: r.description, category: r.category, amount: p(r.amount_paise) }));
}

/**
 * The period a month at a time, so an export of a large school's ten years never holds more than
 * one month of rows in memory.
 */
export function* monthWindows(from: string, to: string): Generator<{ from: string; to: string }> {
  let key = from.slice(0, 7);
  while (key <= to.slice(0, 7)) {
    const b = monthBounds(key);
    yield { from: b.from < from ? from : b.from, to: b.to > to ? to : b.to };
    const y = Number(key.slice(0, 4));
    const m = Number(key.slice(5, 7));
    key = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  }
}
