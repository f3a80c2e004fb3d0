import { sql, type SQL } from 'drizzle-orm';
import type { ExpenseCategory } from '../../domain/expenses';
import { isMonthlyHead, isYearlyHead, type FeeHead } from '../../domain/ledger';
import { paise, type Paise } from '../../domain/money';
import { monthBounds } from '../../domain/reports';
import type { Db } from '../db/client';
import { readsRunAtOnce } from '../lib/prepared';
import { rowsOf } from '../lib/sql-rows';
import { classRank, incomeDaysIn, isIncome } from './sql';

/**
 * The Financial report (operations §2 dialog, §3, §7): money received in a period, by payment
 * date, from live receipt lines (ruling 2), and the expenses of the period.
 *
 * - monthly fee collections: tuition and bus lines, one row per student and month paid for, named
 *   as the student sat in that session (their enrollment);
 * - yearly fee collections: the five yearly heads (misc shown as Misc, ruling 19) plus "other"
 *   (Record Fee Payment's extra heads and payments towards carried balances), one row per student
 *   and session;
 * - the summary names four parts: monthly (tuition, bus), yearly (the five yearly heads only), other
 *   fees and arrears collected (issue item 10), which add up to every rupee received in the period.
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
  /** tuition and bus */
  monthlyIncome: Paise;
  /** the five yearly heads only: admission, exam, books, uniform, misc */
  yearlyIncome: Paise;
  /** heads with no dues of their own: transport, laboratory, library, sports, other */
  otherIncome: Paise;
  /** payments towards balances carried from earlier sessions */
  arrearsCollected: Paise;
  /**
   * Ruling 27: online money that arrived for fees already paid, kept as students' credit. It is
   * money received, so it counts here when it arrives ...
   */
  creditReceived: Paise;
  /** ... and the fee lines later paid from it (receipts of mode credit) are not counted again */
  creditApplied: Paise;
  /** credit given back to families: money out */
  creditRefunded: Paise;
  /** every rupee received: the four fee figures − credit applied + credit received − credit refunded */
  totalIncome: Paise;
  expenses: Paise;
}

const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const p = (v: unknown) => paise(n(v));

/** A monthly fee row as the statements of this file select it. */
const monthlyFeeRowOf = (r: Record<string, unknown>): MonthlyFeeRow => ({
  studentName: String(r.student_name),
  className: String(r.class_name),
  section: String(r.section),
  rollNumber: n(r.roll_number),
  period: String(r.period),
  tuition: p(r.tuition),
  bus: p(r.bus),
  paidOn: String(r.paid_on),
});

/** A yearly and other fee row as the statements of this file select it. */
const yearlyFeeRowOf = (r: Record<string, unknown>): YearlyFeeRow => ({
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
});

export interface FinancialTotals extends FinancialSummary {
  /** received per ledger head in the period */
  byHead: Map<string, Paise>;
  expenseCount: number;
}

export async function financialSummary(db: Db, { schoolId, from, to }: Period): Promise<FinancialTotals> {
  const [heads, counts] = await Promise.all([
    // each day's income per head, kept with the ledger (decision 0089): a year of a 60,000-student school is
    // some 10,000 rows where its lines are 1.3 million
    db.execute(sql`
      select d.head, sum(d.amount_paise)::text as amount, sum(d.credit_paise)::text as credit
      from ${incomeDaysIn(schoolId, from, to)}
      group by d.head
      having sum(d.amount_paise) <> 0`),
    db.execute(sql`
      select
        (select coalesce(sum(amount_paise), 0)::text from expenses
           where school_id = ${schoolId} and deleted_at is null and expense_date between ${from}::date and ${to}::date) as expenses,
        (select count(*)::int from expenses
           where school_id = ${schoolId} and deleted_at is null and expense_date between ${from}::date and ${to}::date) as expense_rows,
        (select coalesce(sum(amount_paise) filter (where kind = 'online_excess'), 0)::text from student_credit_entries
           where school_id = ${schoolId} and (at + interval '330 minutes')::date between ${from}::date and ${to}::date) as credit_received,
        (select coalesce(-sum(amount_paise) filter (where kind = 'refund'), 0)::text from student_credit_entries
           where school_id = ${schoolId} and (at + interval '330 minutes')::date between ${from}::date and ${to}::date) as credit_refunded`),
  ]);
  const headRows = rowsOf<{ head: string; amount: string; credit: string }>(heads);
  const byHead = new Map(headRows.map((h) => [h.head, p(h.amount)]));
  const creditApplied = headRows.reduce((sum, h) => sum + n(h.credit), 0);
  const [row] = rowsOf<Record<string, unknown>>(counts);
  let monthly = 0;
  let yearly = 0;
  let other = 0;
  let arrears = 0;
  for (const [head, amount] of byHead) {
    if (isMonthlyHead(head as FeeHead)) monthly += amount;
    else if (isYearlyHead(head as FeeHead)) yearly += amount;
    else if (head === 'previous_balance' || head === 'opening_balance') arrears += amount;
    else other += amount;
  }
  return {
    monthlyIncome: paise(monthly),
    yearlyIncome: paise(yearly),
    otherIncome: paise(other),
    arrearsCollected: paise(arrears),
    creditReceived: p(row?.credit_received),
    creditApplied: paise(creditApplied),
    creditRefunded: p(row?.credit_refunded),
    totalIncome: paise(monthly + yearly + other + arrears - creditApplied + n(row?.credit_received) - n(row?.credit_refunded)),
    expenses: p(row?.expenses),
    byHead,
    expenseCount: n(row?.expense_rows),
  };
}

/** Tuition and bus received in the period, one group per student, session and month paid for. */
const monthlyGroups = ({ schoolId, from, to }: Period) => sql`
  select l.student_id, l.session_id, l.period,
         coalesce(sum(l.amount_paise) filter (where l.head = 'tuition'), 0) as tuition,
         coalesce(sum(l.amount_paise) filter (where l.head = 'bus'), 0) as bus,
         max(l.paid_on) as paid_on
  from receipt_lines l
  where l.school_id = ${schoolId} and l.head in ('tuition', 'bus') and l.paid_on between ${from}::date and ${to}::date and ${isIncome(schoolId)}
  group by l.student_id, l.session_id, l.period`;

/** Everything else received in the period, one group per student and session. */
const yearlyGroups = ({ schoolId, from, to }: Period) => sql`
  select l.student_id, l.session_id,
         coalesce(sum(l.amount_paise) filter (where l.head = 'admission'), 0) as admission,
         coalesce(sum(l.amount_paise) filter (where l.head = 'exam'), 0) as exam,
         coalesce(sum(l.amount_paise) filter (where l.head = 'books'), 0) as books,
         coalesce(sum(l.amount_paise) filter (where l.head = 'uniform'), 0) as uniform,
         coalesce(sum(l.amount_paise) filter (where l.head = 'misc'), 0) as misc,
         coalesce(sum(l.amount_paise) filter (where l.head not in ('admission', 'exam', 'books', 'uniform', 'misc')), 0) as other,
         max(l.paid_on) as paid_on
  from receipt_lines l
  where l.school_id = ${schoolId} and l.head not in ('tuition', 'bus') and l.paid_on between ${from}::date and ${to}::date and ${isIncome(schoolId)}
  group by l.student_id, l.session_id`;

/**
 * The groups to show when the table is cut to `limit` rows: those paid on or before the date of the
 * limit-th group (ties included). Only they are joined to the students and sorted fully, so a year
 * of a 60,000-student school costs one grouping, not a join and a sort of every group.
 */
const firstGroups = (limit: number | undefined) =>
  limit === undefined
    ? sql`g`
    : sql`(select * from g where g.paid_on <= coalesce((select paid_on from g order by paid_on offset ${Math.max(0, limit - 1)} limit 1), 'infinity'::date)) g`;

/** The student as they sat in the session the money belongs to (their enrollment), else as they are now. */
const placement = (schoolId: string) => sql`
  join students s on s.id = g.student_id and s.school_id = ${schoolId}
  left join student_enrollments e on e.school_id = ${schoolId} and e.student_id = g.student_id and e.session_id = g.session_id`;

/** A monthly fee row's columns (`monthlyFeeRowOf`), over groups `g` placed by `placement`. */
const MONTHLY_COLUMNS = sql`s.name as student_name, coalesce(e.class_name, s.class_name) as class_name, coalesce(e.section, s.section) as section,
  coalesce(e.roll_number, s.roll_number) as roll_number, g.period, g.tuition::text as tuition, g.bus::text as bus, g.paid_on::text as paid_on`;

/** A yearly fee row's columns (`yearlyFeeRowOf`), with the session joined as `ses`. */
const YEARLY_COLUMNS = sql`s.name as student_name, coalesce(e.class_name, s.class_name) as class_name, coalesce(e.section, s.section) as section,
  coalesce(e.roll_number, s.roll_number) as roll_number, ses.name as academic_year,
  g.admission::text as admission, g.exam::text as exam, g.books::text as books, g.uniform::text as uniform,
  g.misc::text as misc, g.other::text as other, g.paid_on::text as paid_on`;

const placedClassRank = classRank(sql`coalesce(e.class_name, s.class_name)`);

/**
 * The first four keys of the tables' order as one number, sorted first (decision 0103): the
 * payment date's day, the class's rank (under 100), the section's first character (sections are A
 * to F, `normaliseSection`; at most 999) and the roll number (at most six digits, validated; 999,999
 * at most here), each in its own digits. A quarter has some 90 payment dates, so with the
 * date alone first most of PostgreSQL's comparisons read the next keys out of the sorted rows, a
 * fifth of a window's time; with this number almost none do. The keys themselves follow, so rows
 * the number cannot tell apart are still sorted exactly by them.
 */
const ORDER_NUMBER = sql`((g.paid_on - date '2000-01-01')::bigint * 100000000000
  + ${placedClassRank} * 1000000000::bigint
  + least(ascii(coalesce(e.section, s.section)), 999) * 1000000::bigint
  + least(coalesce(e.roll_number, s.roll_number), 999999))`;

/** The tables' order over those columns: payment date, class order, section, roll number, name (and, monthly, the month paid for). */
const YEARLY_ORDER = sql`${ORDER_NUMBER}, g.paid_on, ${placedClassRank}, 3, 4, 1`;
const MONTHLY_ORDER = sql`${YEARLY_ORDER}, g.period`;

/** Monthly fee rows, by payment date, then class order, section and roll number. */
export async function monthlyFeeRows(db: Db, { schoolId, from, to, limit }: Period & { limit?: number }): Promise<MonthlyFeeRow[] & { total?: number }> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with g as materialized (${monthlyGroups({ schoolId, from, to })})
      select ${MONTHLY_COLUMNS},
             (select count(*) from g)::int as total
      from ${firstGroups(limit)} ${placement(schoolId)}
      order by ${MONTHLY_ORDER}
      ${limit === undefined ? sql`` : sql`limit ${limit}`}`),
  );
  const out: MonthlyFeeRow[] & { total?: number } = rows.map(monthlyFeeRowOf);
  out.total = rows.length > 0 ? n(rows[0]!.total) : 0;
  return out;
}

/**
 * The first `limit` monthly fee rows of the period (by payment date, class, section, roll) without
 * grouping the whole period: a year of a 60,000-student school has some 700,000 rows. Lines are
 * read in payment-date order up to a cut-off date D (the date of line number k × limit, doubling k
 * until enough rows are complete); a row is complete when none of its lines is paid after D. Answers
 * every row and its exact count when the period fits, else the first rows and `total: null`.
 *
 * The check looks up each row's student and session in `report_lines_session_student_idx` (which
 * holds the payment date, migration 0044), a lateral probe PostgreSQL cannot turn into a hash of
 * every line after D: that hash was 520 ms of a 60,000-student year, the probes are some 60 ms
 * (decision 0089).
 */
export async function firstMonthlyFeeRows(db: Db, period: Period & { limit: number }): Promise<{ rows: MonthlyFeeRow[]; total: number | null }> {
  const { schoolId, from, to, limit } = period;
  for (let k = 2; ; k *= 2) {
    const [cut] = rowsOf<{ paid_on: string }>(
      await db.execute(sql`
        select l.paid_on::text as paid_on from receipt_lines l
        where l.school_id = ${schoolId} and l.head in ('tuition', 'bus') and l.paid_on between ${from}::date and ${to}::date
        order by l.paid_on offset ${k * limit} limit 1`),
    );
    if (!cut) {
      const rows = await monthlyFeeRows(db, { schoolId, from, to, limit });
      return { rows, total: rows.total! <= limit ? rows.total! : null };
    }
    const until = cut.paid_on;
    const rows = rowsOf<Record<string, unknown>>(
      await db.execute(sql`
        with g as materialized (
          select l.student_id, l.session_id, l.period,
                 coalesce(sum(l.amount_paise) filter (where l.head = 'tuition'), 0) as tuition,
                 coalesce(sum(l.amount_paise) filter (where l.head = 'bus'), 0) as bus,
                 max(l.paid_on) as paid_on
          from receipt_lines l
          where l.school_id = ${schoolId} and l.head in ('tuition', 'bus') and l.paid_on between ${from}::date and ${until}::date and ${isIncome(schoolId)}
          group by l.student_id, l.session_id, l.period
        ),
        complete as (
          select g.* from g
          left join lateral (
            select 1 as found from receipt_lines x
            where x.school_id = ${schoolId} and x.session_id = g.session_id and x.student_id = g.student_id and x.period = g.period
              and x.head in ('tuition', 'bus') and x.paid_on > ${until}::date and x.paid_on <= ${to}::date and ${isIncome(schoolId, 'x')}
            limit 1
          ) later on true
          where later.found is null
        )
        select ${MONTHLY_COLUMNS}
        from complete g ${placement(schoolId)}
        order by ${MONTHLY_ORDER}
        limit ${limit}`),
    );
    if (rows.length >= limit || until >= to) {
      return {
        total: null,
        rows: rows.map(monthlyFeeRowOf),
      };
    }
  }
}

/** Rows per FETCH of the downloads' cursors: a page of rows is all the server holds of a month at a time. */
export const EXPORT_PAGE_ROWS = 5000;

/**
 * Calendar months of payments per statement of a download (decision 0073): a quarter of the monthly
 * table (a month of a 60,000-student school is some 53,000 rows), a year of the yearly one, whose
 * heads are mostly paid once a session, so that most of its months hold few rows.
 */
export const EXPORT_WINDOW_MONTHS = { monthly: 3, yearly: 12 } as const;

/** A page of the downloads' fee tables: rows of one table, of one calendar month of payments. */
export type FeeTablePart = { table: 'monthly'; rows: MonthlyFeeRow[] } | { table: 'yearly'; rows: YearlyFeeRow[] };

type Row = Record<string, unknown>;

/** A statement's rows through a cursor, its first page read; `more` reads the next, `close` ends its transaction. */
interface OpenPages {
  first: Row[];
  more(): Promise<Row[]>;
  close(): Promise<void>;
}

/**
 * Declares a cursor for `query` in a transaction of its own and reads its first page, so PostgreSQL
 * has grouped and sorted the rows when it resolves; the transaction stays open for `more` until
 * `close`. A failure before the first page rejects; a later one is thrown by `more`.
 */
function openPages(db: Db, query: SQL, pageRows: number): Promise<OpenPages> {
  return new Promise<OpenPages>((opened, failed) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let handedOut = false;
    const done = db.transaction(async (tx) => {
      // a quarter of a 60,000-student school groups some 260,000 lines into 160,000 rows (a 55 MB hash
      // table, a 23 MB sort): in memory, not in temporary files
      await tx.execute(sql`set local work_mem = '64MB'`);
      await tx.execute(sql`declare export_rows no scroll cursor for ${query}`);
      const fetch = async () => rowsOf<Row>(await tx.execute(sql.raw(`fetch ${Math.max(1, Math.floor(pageRows))} from export_rows`)));
      const first = await fetch();
      handedOut = true;
      opened({
        first,
        more: fetch,
        close: async () => {
          release();
          // a failed fetch already said why; ending its aborted transaction can only fail again
          await done.catch(() => undefined);
        },
      });
      await released;
    });
    done.catch((error: unknown) => {
      if (!handedOut) failed(error);
    });
  });
}

/**
 * The downloads' two fee tables, a page at a time: every monthly fee row, then every yearly and
 * other fee row, each table a window of calendar months of payments after another (`monthWindows`:
 * three months of the monthly table, twelve of the yearly one), exactly as `monthlyFeeRows` and
 * `yearlyFeeRows` give them window by window; payment dates order both tables, so the windows follow
 * one another.
 *
 * On PostgreSQL the next window is opened (its lines grouped and sorted, its first page read, on a
 * connection of its own) while this window's pages are written: a year of a 60,000-student school
 * was one statement whose first row came after 2.8 s, while the app waited, and then the app wrote
 * 634,000 rows while PostgreSQL waited (decision 0062). Each statement hashes the school's students
 * and enrolments to place its rows, a third of a month's work at 60,000, so a window is as long as
 * that cost allows without a long wait for the first rows (decision 0073). The server holds a page
 * of each of the two windows, never a whole window. On the embedded database the windows are read
 * one after another.
 */
export async function* feeTableParts(db: Db, period: Period, pageRows = EXPORT_PAGE_ROWS): AsyncGenerator<FeeTablePart, void, undefined> {
  const { schoolId } = period;
  const reads = [
    ...[...startingWithAMonth(period, EXPORT_WINDOW_MONTHS.monthly)].map((w) => ({ table: 'monthly' as const, query: monthlyRowsQuery({ schoolId, ...w }) })),
    ...[...monthWindows(period.from, period.to, EXPORT_WINDOW_MONTHS.yearly)].map((w) => ({ table: 'yearly' as const, query: yearlyRowsQuery({ schoolId, ...w }) })),
  ];
  const open = (k: number) => {
    if (k >= reads.length) return undefined;
    const opening = openPages(db, reads[k]!.query, pageRows);
    // a failure is thrown where the window is reached; a window never reached is closed below
    opening.catch(() => undefined);
    return opening;
  };
  const ahead = readsRunAtOnce(db);
  let next = open(0);
  try {
    for (let k = 0; k < reads.length; k++) {
      const pages = await next!;
      next = ahead ? open(k + 1) : undefined;
      try {
        const { table } = reads[k]!;
        for (let rows = pages.first; ; rows = await pages.more()) {
          if (rows.length > 0) yield table === 'monthly' ? { table, rows: rows.map(monthlyFeeRowOf) } : { table, rows: rows.map(yearlyFeeRowOf) };
          if (rows.length < pageRows) break;
        }
      } finally {
        await pages.close();
      }
      if (!ahead) next = open(k + 1);
    }
  } finally {
    // the caller stopped early (a failure, a client gone): the window opened ahead ends its transaction
    void next?.then(
      (pages) => pages.close(),
      () => undefined,
    );
  }
}

/** Monthly fee rows of a period, in the tables' order: a download reads a calendar month at a time. */
const monthlyRowsQuery = (period: Period) => sql`
  with g as (${monthlyGroups(period)})
  select ${MONTHLY_COLUMNS}
  from g ${placement(period.schoolId)}
  order by ${MONTHLY_ORDER}`;

/** Yearly and other fee rows of a period, in the tables' order. */
const yearlyRowsQuery = (period: Period) => sql`
  with g as (${yearlyGroups(period)})
  select ${YEARLY_COLUMNS}
  from g ${placement(period.schoolId)}
  join academic_sessions ses on ses.id = g.session_id
  order by ${YEARLY_ORDER}`;

/** Yearly and other fee rows: one per student and session, by payment date, class, section and roll. */
export async function yearlyFeeRows(db: Db, { schoolId, from, to, limit }: Period & { limit?: number }): Promise<YearlyFeeRow[] & { total?: number }> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with g as materialized (${yearlyGroups({ schoolId, from, to })})
      select ${YEARLY_COLUMNS},
             (select count(*) from g)::int as total
      from ${firstGroups(limit)} ${placement(schoolId)}
      join academic_sessions ses on ses.id = g.session_id
      order by ${YEARLY_ORDER}
      ${limit === undefined ? sql`` : sql`limit ${limit}`}`),
  );
  const out: YearlyFeeRow[] & { total?: number } = rows.map(yearlyFeeRowOf);
  out.total = rows.length > 0 ? n(rows[0]!.total) : 0;
  return out;
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
 * The period `months` calendar months at a time (one by default), so an export of a large school's
 * ten years never holds more than one window of rows in memory. Windows start on the 1st of a month
 * (the first on `from`) and end on a month's last day (the last on `to`).
 */
export function* monthWindows(from: string, to: string, months = 1): Generator<{ from: string; to: string }> {
  const next = (key: string) => {
    const y = Number(key.slice(0, 4));
    const m = Number(key.slice(5, 7));
    return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  };
  const last = to.slice(0, 7);
  let key = from.slice(0, 7);
  while (key <= last) {
    let end = key;
    for (let k = 1; k < months && next(end) <= last; k++) end = next(end);
    const first = monthBounds(key).from;
    const final = monthBounds(end).to;
    yield { from: first < from ? from : first, to: final > to ? to : final };
    key = next(end);
  }
}

/**
 * `monthWindows` of `months`, but for the first, a calendar month alone (decision 0103): nothing of a
 * window reaches the download before PostgreSQL has sorted the whole window, and meanwhile the app,
 * which then writes at the pace PostgreSQL reads, has nothing to write. A quarter of a
 * 60,000-student school took some 0.7 s to its first row; its first month, about a third of that.
 */
export function* startingWithAMonth({ from, to }: { from: string; to: string }, months: number): Generator<{ from: string; to: string }> {
  const [first] = monthWindows(from, to, 1);
  if (!first) return;
  yield first;
  if (first.to < to) yield* monthWindows(nextDay(first.to), to, months);
}

const nextDay = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
