import { sql, type SQL } from 'drizzle-orm';
import { HEAD_LABELS, monthLabel, YEARLY_HEADS, type YearlyHead } from '../../domain/ledger';
import { monthKeyLabel, monthOrdinal, monthOrdinalsText } from '../../domain/reports';
import { col, REPORT_TITLES, type ReportDocument } from '../../domain/report-document';
import { sessionMonths } from '../../domain/sessions';
import { executeWithGenericPlans } from '../lib/prepared';
import { rowsOf } from '../lib/sql-rows';
import { finesOfMany } from '../policy/fines-of-many';
import { grantedInMonth, monthStep, recordedIn, sessionPositionsCte } from '../stats/positions';
import { ensurePositions, storedPositionsCte } from '../stats/student-positions';
import { horizonOf, money, num, percentText, reportSession, sessionContaining, type ReportContext } from './report-context';
import { classRank, incomeDaysIn, isOpeningEntry } from './sql';
import { rupeeStringSql } from '../lib/sql-money';
import { latin1Json, withRowsText } from './document-text';
import { rowsTable } from '../lib/sql-sets';
import { loadLateFineRule } from '../policy/fines';
import { arrearsCollected, reconcileCtes } from './reconcile-sql';
import { RECONCILE } from './texts';
import type { SessionRow } from '../fees/queries';

/**
 * The fee reports of the Reports tab, each from the ledger in a few set-based statements: the
 * month's fees by class, the session month by month, the classes, the whole session, and the
 * defaulters. Outstanding follows ruling 6 through `positionsCte` / `sessionPositionsCte`.
 */

type Row = Record<string, unknown>;
const keysArray = (keys: readonly string[]) => `{${keys.join(',')}}`;

/**
 * The months of a stored month mask (a bigint's text; bit k: the session's month k) as month
 * ordinals from `first`, ascending. A session's mask fits a double exactly (under 53 months) and is
 * read with number arithmetic; a longer one falls back to BigInt.
 */
function maskMonths(first: number, mask: string): number[] {
  const out: number[] = [];
  let n = Number(mask);
  if (Number.isSafeInteger(n) && n >= 0) {
    for (let k = 0; n > 0; k++, n = Math.floor(n / 2)) if (n % 2 === 1) out.push(first + k);
    return out;
  }
  const big = BigInt(mask);
  for (let k = 0; k < 63; k++) if (((big >> BigInt(k)) & 1n) === 1n) out.push(first + k);
  return out;
}

/** Monthly Report: the month's tuition and bus fees by class, what came in during the month, and its expenses. */
export async function monthlyReport(ctx: ReportContext, { month }: { month: string }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  const session = await sessionContaining(db, { schoolId, monthKey: month });
  const from = `${month}-01`;
  const key = sql`${month}::text`;
  const classRows = session
    ? rowsOf<Row>(
        await db.execute(sql`
          with ${sessionPositionsCte(schoolId, session.id, month)}
          -- the month's figures are steps of the running sums the balances store, never the ledger (decision 0041)
          select p.class_name, count(*)::int as students,
                 count(*) filter (where (${recordedIn(sql`p.t_all`, key)} or p.tuition = 0) and (${recordedIn(sql`p.b_all`, key)} or p.bus = 0)
                                    and (${recordedIn(sql`p.t_all`, key)} or ${recordedIn(sql`p.b_all`, key)}))::int as paid,
                 sum(p.tuition + p.bus)::text as due,
                 sum(${monthStep(sql`p.discount_by_month`, key)} + ${grantedInMonth(key)})::text as concession,
                 sum(${monthStep(sql`p.applied_by_month`, key)})::text as received,
                 sum(${monthStep(sql`p.owed_by_month`, key)})::text as outstanding
          from pos p
          where p.due_key >= ${month} and p.start_key <= ${month}
          group by p.class_name
          order by ${classRank(sql`p.class_name`)}`),
      )
    : [];
  const [heads, spent] = await Promise.all([
    db.execute(sql`
      select d.head, sum(d.amount_paise)::text as amount
      from ${incomeDaysIn(schoolId, from, sql`(${from}::date + interval '1 month' - interval '1 day')::date`)}
      group by d.head
      having sum(d.amount_paise) <> 0`),
    db.execute(sql`
      select category, sum(amount_paise)::text as amount from expenses
      where school_id = ${schoolId} and deleted_at is null and expense_date between ${from}::date and (${from}::date + interval '1 month' - interval '1 day')::date
      group by category order by sum(amount_paise) desc`),
  ]);
  const total = (rows: Row[], key: string) => rows.reduce((s, r) => s + num(r[key]), 0);
  const headRows = rowsOf<{ head: keyof typeof HEAD_LABELS; amount: string }>(heads).sort((a, b) => Object.keys(HEAD_LABELS).indexOf(a.head) - Object.keys(HEAD_LABELS).indexOf(b.head));
  const expenseRows = rowsOf<{ category: string; amount: string }>(spent);
  const income = total(headRows, 'amount');
  const expenses = total(expenseRows, 'amount');
  const label = monthKeyLabel(month);
  return {
    kind: 'monthly',
    title: `${REPORT_TITLES.monthly}: ${label}`,
    schoolName: ctx.schoolName,
    subtitle: session ? `${label} (session ${session.name})` : label,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Students paid in full', value: total(classRows, 'paid'), kind: 'number' },
      { label: `Fees due for ${label}`, value: money(total(classRows, 'due')), kind: 'money' },
      { label: `Concession for ${label}`, value: money(total(classRows, 'concession')), kind: 'money' },
      { label: `Received for ${label}`, value: money(total(classRows, 'received')), kind: 'money', tone: 'good' },
      { label: `Outstanding for ${label}`, value: money(total(classRows, 'outstanding')), kind: 'money', tone: 'bad' },
      { label: 'Money received in the month', value: money(income), kind: 'money' },
      { label: 'Expenses in the month', value: money(expenses), kind: 'money' },
      { label: 'Net', value: money(income - expenses), kind: 'money', tone: income - expenses >= 0 ? 'good' : 'bad' },
    ],
    tables: [
      {
        title: `Tuition and bus fees for ${label}, by class`,
        columns: [col('className', 'Class'), col('students', 'Students', 'number'), col('paid', 'Paid', 'number'), ...dueColumns(RECONCILE.due)],
        rows: classRows.map((r) => ({ className: String(r.class_name), students: num(r.students), paid: num(r.paid), ...dueCells(r) })),
        totals: { className: 'Total', students: total(classRows, 'students'), paid: total(classRows, 'paid'), ...dueTotals(classRows) },
        empty: session ? 'No students in this session yet' : `No academic session covers ${label}`,
      },
      {
        title: `Money received in ${label}, by fee`,
        columns: [col('head', 'Fee'), col('amount', 'Amount', 'money')],
        rows: headRows.map((h) => ({ head: HEAD_LABELS[h.head] ?? h.head, amount: money(h.amount) })),
        totals: { head: 'Total', amount: money(income) },
        empty: 'No money received in this month',
      },
      {
        title: `Expenses in ${label}, by category`,
        columns: [col('category', 'Category'), col('amount', 'Amount', 'money')],
        rows: expenseRows.map((e) => ({ category: e.category, amount: money(e.amount) })),
        totals: { category: 'Total', amount: money(expenses) },
        empty: 'No expenses in this month',
      },
    ],
  };
}

/** Due, Concession, Received and Outstanding columns, in that order (issue item 10). */
const dueColumns = (dueLabel: string, outstandingLabel: string = RECONCILE.outstanding) => [
  col('due', dueLabel, 'money'),
  col('concession', RECONCILE.concession, 'money'),
  col('received', RECONCILE.received, 'money'),
  col('outstanding', outstandingLabel, 'money'),
];
const dueCells = (r: Row) => ({ due: money(r.due), concession: money(r.concession), received: money(r.received), outstanding: money(r.outstanding) });
const sumOf = (rows: Row[], key: string) => rows.reduce((s, r) => s + num(r[key]), 0);
const dueTotals = (rows: Row[]) => ({ due: money(sumOf(rows, 'due')), concession: money(sumOf(rows, 'concession')), received: money(sumOf(rows, 'received')), outstanding: money(sumOf(rows, 'outstanding')) });

/** The session's money in five lines: what the report counts against dues and what it does not. */
function moneyLines(m: { received: number; advance: number; other: number; arrears: number }): ReportDocument['summary'] {
  return [
    { label: RECONCILE.receivedAgainstDues, value: money(m.received), kind: 'money', tone: 'good' },
    { label: RECONCILE.advance, value: money(m.advance), kind: 'money' },
    { label: RECONCILE.other, value: money(m.other), kind: 'money' },
    { label: RECONCILE.arrears, value: money(m.arrears), kind: 'money' },
    { label: RECONCILE.totalReceived, value: money(m.received + m.advance + m.other + m.arrears), kind: 'money' },
  ];
}

/**
 * The statement of `sessionByClass`: every student of the session worked out once (`recon` carries
 * the class and section), grouped. Exported for the test that holds it to one pass over the balances.
 */
export function sessionByClassStatement(schoolId: string, sessionId: string, asOf: string, bySection: boolean): SQL {
  const group = bySection ? sql`r.class_name, r.section` : sql`r.class_name`;
  return sql`
    with ${sessionPositionsCte(schoolId, sessionId, asOf)},
    ${reconcileCtes()}
    select ${group}, count(*)::int as students,
           count(*) filter (where r.status = 'passout')::int as left_school,
           count(*) filter (where r.session_owed > 0)::int as with_dues,
           sum(r.due)::text as due, sum(r.concession)::text as concession, sum(r.received)::text as received,
           sum(r.session_owed)::text as outstanding, sum(r.advance)::text as advance, sum(r.other)::text as other
    from recon r
    group by ${group}
    order by ${classRank(sql`r.class_name`)}${bySection ? sql`, r.section` : sql``}`;
}

/** Per class (and section) of a session: due, concession, received, outstanding, advance and other fees, and the arrears of its dates. */
async function sessionByClass(ctx: ReportContext, session: SessionRow, asOf: string, bySection: boolean) {
  const { db, schoolId } = ctx;
  const [rows, arrears] = await Promise.all([
    db.execute(sessionByClassStatement(schoolId, session.id, asOf, bySection)),
    db.execute(sql`select ${arrearsCollected(schoolId, session.startDate, session.endDate)}::text as amount`),
  ]);
  const list = rowsOf<Row>(rows);
  const [a] = rowsOf<Row>(arrears);
  return { rows: list, money: { received: sumOf(list, 'received'), advance: sumOf(list, 'advance'), other: sumOf(list, 'other'), arrears: num(a?.amount) } };
}

/** A yearly head's column in class_fee_structures (the admission fee is stored as the yearly fee). */
const feeColumn = (h: YearlyHead) => sql.raw(`${h === 'admission' ? 'yearly' : h}_fee_paise`);

/**
 * Under an instalment plan that splits the yearly heads, the part not yet due (decision 0048): the
 * split figures less the whole-head figures of the Yearly report, so every column still adds up.
 */
function splitYearlyColumns(): SQL {
  const whole = sql.join(YEARLY_HEADS.map((h) => sql`coalesce(fs.${feeColumn(h)}, 0)`), sql` + `);
  const got = sql.join(YEARLY_HEADS.map((h) => sql`least(coalesce(pos.${sql.raw(`p_${h}`)}, 0), coalesce(fs.${feeColumn(h)}, 0))`), sql` + `);
  const split = sql`pos.ysplit_due is not null and pos.first_key <= pos.due_key`;
  return sql`coalesce(sum(pos.ysplit_due - (${whole})) filter (where ${split}), 0)::text as s_due,
    coalesce(sum(coalesce(pos.ysplit_granted, 0) - pos.y_granted) filter (where ${split}), 0)::text as s_granted,
    coalesce(sum(coalesce(pos.ysplit_received, 0) - (${got})) filter (where ${split}), 0)::text as s_received`;
}

/** The Yearly Report's months: due, concession, received and outstanding of each month of the session. */
export function yearlyMonthsStatement(schoolId: string, sessionId: string, asOf: string, keys: readonly string[]): SQL {
  return sql`
      with ${sessionPositionsCte(schoolId, sessionId, asOf)},
      months as (select unnest(${keysArray(keys)}::text[]) as key)
      -- a month counts for a student up to their horizon; after it, only while the session is open for them (advance);
      -- each figure is the month's step of a running sum the balances store, never the ledger (decision 0041)
      -- each student's months are a lateral list of theirs, so pos is worked out once (never once per month)
      select m.key, (m.key <= ${asOf}) as is_due,
             coalesce(sum(p.tuition + p.bus), 0)::text as due,
             coalesce(sum(${monthStep(sql`p.discount_by_month`, sql`m.key`)} + ${grantedInMonth(sql`m.key`)}), 0)::text as concession,
             coalesce(sum(${monthStep(sql`p.applied_by_month`, sql`m.key`)}), 0)::text as received,
             coalesce(sum(${monthStep(sql`p.owed_by_month`, sql`m.key`)}), 0)::text as outstanding
      from pos p
      cross join lateral (select k.key from months k where k.key >= p.start_key and (k.key <= p.due_key or (not p.closed and k.key > ${asOf}))) m
      group by m.key
      order by m.key`;
}

/** The Yearly Report's yearly heads: due, received and outstanding of each, and the part not yet due under a plan. */
export function yearlyHeadsStatement(schoolId: string, sessionId: string, asOf: string): SQL {
  return sql`
      with ${sessionPositionsCte(schoolId, sessionId, asOf)}
      select
        ${sql.join(
          YEARLY_HEADS.map((h) => {
            const column = feeColumn(h);
            const paid = sql.raw(`p_${h}`);
            return sql`coalesce(sum(fs.${column}) filter (where pos.first_key <= pos.due_key), 0)::text as ${sql.raw(`e_${h}`)},
                       coalesce(sum(least(coalesce(pos.${paid}, 0), coalesce(fs.${column}, 0))) filter (where pos.first_key <= pos.due_key), 0)::text as ${sql.raw(`c_${h}`)},
                       coalesce(sum(greatest(coalesce(fs.${column}, 0) - coalesce(pos.${paid}, 0), 0)) filter (where pos.first_key <= pos.due_key), 0)::text as ${sql.raw(`o_${h}`)}`;
          }),
          sql`, `,
        )},
        coalesce(sum(pos.y_granted) filter (where pos.first_key <= pos.due_key), 0)::text as y_granted,
        ${splitYearlyColumns()}
      from pos
      left join class_fee_structures fs on fs.school_id = ${schoolId} and lower(fs.class_name) = lower(pos.class_name) and fs.academic_year = pos.session_name`;
}

/** Yearly Report: the session month by month (due, concession, received, outstanding) and its yearly fees by head. */
export async function yearlyReport(ctx: ReportContext, { academicYear }: { academicYear?: string | undefined }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  const session = await reportSession(db, { schoolId, academicYear });
  const asOf = horizonOf(session, ctx.today);
  const keys = sessionMonths(session.startDate, session.endDate).map((m) => m.key);
  const [monthRows, headRows, whole] = await Promise.all([
    db.execute(yearlyMonthsStatement(schoolId, session.id, asOf, keys)),
    db.execute(yearlyHeadsStatement(schoolId, session.id, asOf)),
    sessionByClass(ctx, session, asOf, false),
  ]);
  const allMonths = rowsOf<Row>(monthRows);
  const byKey = new Map(allMonths.map((m) => [String(m.key), m]));
  const dueMonths = keys.filter((k) => k <= asOf).map((key) => byKey.get(key) ?? { key, due: 0, concession: 0, received: 0, outstanding: 0 });
  const laterMonths = keys.filter((k) => k > asOf).map((key) => byKey.get(key) ?? { key, due: 0, concession: 0, received: 0, outstanding: 0 });
  const [h] = rowsOf<Row>(headRows);
  const heads: Row[] = YEARLY_HEADS.map((head) => ({ head, due: num(h?.[`e_${head}`]), concession: 0, received: num(h?.[`c_${head}`]), outstanding: num(h?.[`o_${head}`]) }));
  // approved concessions on the yearly fees (issue 16) are kept per student, not per head: one line under the heads
  const yearlyGranted = num(h?.y_granted);
  if (yearlyGranted > 0) heads.push({ head: 'concessions', due: 0, concession: yearlyGranted, received: 0, outstanding: -yearlyGranted });
  const notYet = { due: num(h?.s_due), concession: num(h?.s_granted), received: num(h?.s_received) };
  if (notYet.due !== 0 || notYet.concession !== 0 || notYet.received !== 0) {
    heads.push({ head: 'not-yet-due', ...notYet, outstanding: notYet.due - notYet.concession - notYet.received });
  }
  const monthly = { due: sumOf(dueMonths, 'due'), outstanding: sumOf(dueMonths, 'outstanding') };
  const monthTable = (rows: Row[]) => rows.map((m) => ({ month: monthLabel(String(m.key)), ...dueCells(m) }));
  return {
    kind: 'yearly',
    title: `${REPORT_TITLES.yearly}: ${session.name}`,
    schoolName: ctx.schoolName,
    subtitle: `Session ${session.name}, outstanding till ${monthKeyLabel(asOf)}`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Monthly fees due till date', value: money(monthly.due), kind: 'money' },
      { label: 'Yearly fees due', value: money(sumOf(heads, 'due')), kind: 'money' },
      { label: 'Concession till date', value: money(sumOf(dueMonths, 'concession') + sumOf(heads, 'concession')), kind: 'money' },
      { label: 'Outstanding till date', value: money(monthly.outstanding + sumOf(heads, 'outstanding')), kind: 'money', tone: 'bad' },
      ...moneyLines(whole.money),
    ],
    tables: [
      {
        title: `Tuition and bus fees, month by month till ${monthKeyLabel(asOf)}`,
        columns: [col('month', 'Month'), ...dueColumns(RECONCILE.due)],
        rows: monthTable(dueMonths),
        totals: { month: 'Total', ...dueTotals(dueMonths) },
        empty: 'No month of this session is due yet',
      },
      {
        title: 'Months not yet due',
        columns: [col('month', 'Month'), ...dueColumns('Will be due', RECONCILE.toCome)].map((c) => (c.key === 'received' ? { ...c, label: RECONCILE.advance } : c)),
        rows: monthTable(laterMonths),
        totals: { month: 'Total', ...dueTotals(laterMonths) },
        empty: 'Every month of this session is due',
      },
      {
        title: 'Yearly fees by head',
        columns: [col('head', 'Fee'), ...dueColumns(RECONCILE.due)],
        rows: heads.map((x) => ({ head: x.head === 'concessions' ? RECONCILE.yearlyConcessions : x.head === 'not-yet-due' ? RECONCILE.yearlyNotYetDue : x.head === 'misc' ? 'Misc' : HEAD_LABELS[x.head as YearlyHead], ...dueCells(x) })),
        totals: { head: 'Total', ...dueTotals(heads) },
        empty: 'No yearly fees',
      },
    ],
  };
}

/** Class-wise: each class and section of the session, till date. */
export async function classWiseReport(ctx: ReportContext, { academicYear }: { academicYear?: string | undefined }): Promise<ReportDocument> {
  const session = await reportSession(ctx.db, { schoolId: ctx.schoolId, academicYear });
  const asOf = horizonOf(session, ctx.today);
  const { rows, money: m } = await sessionByClass(ctx, session, asOf, true);
  const due = sumOf(rows, 'due');
  const outstanding = sumOf(rows, 'outstanding');
  return {
    kind: 'class-wise',
    title: `${REPORT_TITLES['class-wise']}: ${session.name}`,
    schoolName: ctx.schoolName,
    subtitle: `Session ${session.name}, till ${monthKeyLabel(asOf)}`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Students', value: sumOf(rows, 'students'), kind: 'number' },
      { label: RECONCILE.dueTillDate, value: money(due), kind: 'money' },
      { label: RECONCILE.concession, value: money(sumOf(rows, 'concession')), kind: 'money' },
      { label: RECONCILE.outstanding, value: money(outstanding), kind: 'money', tone: 'bad' },
      { label: 'Collection', value: `${percentText(due - outstanding, due)}%`, kind: 'percent' },
      ...moneyLines(m),
    ],
    tables: [
      {
        title: 'Classes and sections',
        columns: [
          col('className', 'Class'),
          col('section', 'Section'),
          col('students', 'Students', 'number'),
          col('withDues', 'With dues', 'number'),
          ...dueColumns(RECONCILE.dueTillDate),
          col('collection', 'Collection %', 'percent'),
          col('advance', RECONCILE.advance, 'money'),
          col('other', RECONCILE.other, 'money'),
        ],
        rows: rows.map((r) => ({
          className: String(r.class_name),
          section: String(r.section),
          students: num(r.students),
          withDues: num(r.with_dues),
          ...dueCells(r),
          collection: percentText(num(r.due) - num(r.outstanding), num(r.due)),
          advance: money(r.advance),
          other: money(r.other),
        })),
        totals: {
          className: 'Total',
          section: '',
          students: sumOf(rows, 'students'),
          withDues: sumOf(rows, 'with_dues'),
          ...dueTotals(rows),
          collection: percentText(due - outstanding, due),
          advance: money(m.advance),
          other: money(m.other),
        },
        empty: 'No students in this session',
      },
    ],
  };
}

/** Session Report: the whole session (annual horizon) by class, with its expenses and carried balances. */
export async function sessionReport(ctx: ReportContext, { academicYear }: { academicYear?: string | undefined }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  const session = await reportSession(db, { schoolId, academicYear });
  const last = session.endDate.slice(0, 7);
  const [{ rows, money: m }, other] = await Promise.all([
    sessionByClass(ctx, session, last, false),
    db.execute(sql`
      select
        (select coalesce(sum(amount_paise), 0) from expenses where school_id = ${schoolId} and deleted_at is null
           and expense_date between ${session.startDate}::date and ${session.endDate}::date)::text as expenses,
        (select coalesce(sum(d.amount_paise), 0) from ${incomeDaysIn(schoolId, session.startDate, session.endDate)})::text as income,
        (select coalesce(sum(monthly_outstanding_paise + yearly_outstanding_paise), 0) from student_previous_balances
           where school_id = ${schoolId} and session_id = ${session.id}::uuid)::text as carried_out,
        (select count(*) from student_previous_balances where school_id = ${schoolId} and session_id = ${session.id}::uuid)::int as carried_students,
        (select coalesce(sum(amount_paise), 0) from opening_balances
           where school_id = ${schoolId} and session_id = ${session.id}::uuid and cancelled_at is null)::text as opening_arrears,
        (select coalesce(sum(l.amount_paise), 0) from receipt_lines l
           where l.school_id = ${schoolId} and l.session_id = ${session.id}::uuid and ${isOpeningEntry(schoolId)})::text as opening_entries`),
  ]);
  const [o] = rowsOf<Row>(other);
  const income = num(o?.income);
  const expenses = num(o?.expenses);
  return {
    kind: 'session',
    title: `${REPORT_TITLES.session}: ${session.name}`,
    schoolName: ctx.schoolName,
    subtitle: `${session.startDate} to ${session.endDate}${session.isActive ? ' (active session)' : ''}`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Students in the session', value: sumOf(rows, 'students'), kind: 'number' },
      { label: 'Fees due (whole session)', value: money(sumOf(rows, 'due')), kind: 'money' },
      { label: RECONCILE.concession, value: money(sumOf(rows, 'concession')), kind: 'money' },
      { label: 'Outstanding (whole session)', value: money(sumOf(rows, 'outstanding')), kind: 'money', tone: 'bad' },
      ...moneyLines(m),
      { label: 'Balances carried forward', value: `${money(o?.carried_out)} (${num(o?.carried_students)} students)`, kind: 'text' },
      { label: 'Opening arrears entered (old register)', value: money(o?.opening_arrears), kind: 'money' },
      { label: 'Opening entries (months paid before go-live, in Received, not income)', value: money(o?.opening_entries), kind: 'money' },
      { label: 'Money received in the session dates', value: money(income), kind: 'money' },
      { label: 'Expenses in the session dates', value: money(expenses), kind: 'money' },
      { label: 'Net', value: money(income - expenses), kind: 'money', tone: income - expenses >= 0 ? 'good' : 'bad' },
    ],
    tables: [
      {
        title: 'Fees of the session by class',
        columns: [
          col('className', 'Class'),
          col('students', 'Students', 'number'),
          col('left', 'Left school', 'number'),
          ...dueColumns(RECONCILE.due),
          col('advance', RECONCILE.advance, 'money'),
          col('other', RECONCILE.other, 'money'),
        ],
        rows: rows.map((r) => ({ className: String(r.class_name), students: num(r.students), left: num(r.left_school), ...dueCells(r), advance: money(r.advance), other: money(r.other) })),
        totals: { className: 'Total', students: sumOf(rows, 'students'), left: sumOf(rows, 'left_school'), ...dueTotals(rows), advance: money(m.advance), other: money(m.other) },
        empty: 'No students in this session',
      },
    ],
  };
}

export const DEFAULTER_SORTS = ['class', 'amount'] as const;
export type DefaulterSort = (typeof DEFAULTER_SORTS)[number];

/**
 * The defaulters list's statement reads the owing rows in class order off their index, and both its
 * sorts (the rows', the aggregate's) stay in memory: at 60,000 students PostgreSQL's defaults (a
 * random page costing four sequential ones, 4 MB to sort in) planned a parallel scan and sorts in
 * temporary files, 185 ms against 140 for the statement, both timed by auto_explain (decision
 * 0061). The table is small and read from memory, which is what the lower page cost says.
 */
const LIST_IN_ORDER = sql`set_config('random_page_cost', '1.1', true), set_config('work_mem', '64MB', true)`;

/** Pending Fees: every active student with something outstanding till date, with the months due. */
export async function pendingFeesReport(ctx: ReportContext, { sort, className }: { sort: DefaulterSort; className?: string | undefined }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  const asOf = ctx.today.slice(0, 7);
  // every active student's position till this month, kept in the whole-school rows with the months
  // each owes (decision 0058); PostgreSQL writes the list as JSON (decision 0059): at 60,000 students
  // reading 58,000 rows into objects and writing them out again was 0.4 s of the app's one thread
  await ensurePositions(db, { schoolId, month: asOf });
  const owing = sql`p.owed > 0 ${className ? sql`and lower(p.class_name) = lower(${className})` : sql``}`;
  // the text of the months due, once per distinct run of months (a few dozen in a school), by the one
  // formatter; the runs found one index probe each, skipping from one to the next, where a pass over
  // every owing row read 58,000 of them at 60,000 students (decision 0095)
  const owingRow = sql`p.school_id = ${schoolId} and p.active and ${owing} and p.first_key is not null`;
  const masks = rowsOf<{ first_key: string; due_mask: string }>(
    await executeWithGenericPlans(db, sql`
      with recursive runs as (
        (select p.first_key, p.due_mask from student_positions p where ${owingRow} order by p.first_key, p.due_mask limit 1)
        union all
        select n.first_key, n.due_mask
        from runs r
        cross join lateral (
          select p.first_key, p.due_mask from student_positions p
          where ${owingRow} and (p.first_key, p.due_mask) > (r.first_key, r.due_mask)
          order by p.first_key, p.due_mask limit 1
        ) n
      )
      select first_key, due_mask::text as due_mask from runs`),
  );
  const texts = masks.map((m) => {
    const months = maskMonths(monthOrdinal(m.first_key), m.due_mask);
    return [m.first_key, m.due_mask, latin1Json(monthOrdinalsText(months)), months.length] as const;
  });
  // today's late fine beside the dues (issue 16: the figure fee status and the payment link show);
  // not part of the total, which stays what stats call pending fees
  const fines = (await loadLateFineRule(db, schoolId)).enabled
    ? await finesOfMany(db, {
        schoolId,
        people: rowsOf<{ id: string; session_id: string }>(
          await db.execute(sql`with ${storedPositionsCte(schoolId)} select p.id, p.session_id from pos p where ${owing} and not p.closed and p.session_id is not null`),
        ).map((r) => ({ id: r.id, sessionId: r.session_id })),
        today: ctx.today,
      })
    : new Map<string, number>();
  const order = (alias: string) => sql.raw(`${sort === 'amount' ? `${alias}.owed desc, ` : ''}${alias}.class_rank, ${alias}.section, ${alias}.roll_number, ${alias}.name`);
  // each row's text as its whole-school row holds it (decision 0061), with the months due and the fine between and after
  const rowObject = sql`l.list_head || ',"monthsDue":' || l.months_json || l.list_tail || ',"fine":"' || ${rupeeStringSql(sql`l.fine`)} || '"}'`;
  const [list] = rowsOf<{ rows: string; students: number; monthly: string; yearly: string; previous: string; total: string; months: number; fines: string; fined: number }>(
    await executeWithGenericPlans(db, sql`
      with ordered as (
        -- read in the list's order (off student_positions_owing_idx when sorted by class), so the
        -- aggregate's own sort below finds its rows in order: PostgreSQL 15 sorts an ordered
        -- aggregate's input itself and never plans the index for it
        select p.student_id as id, p.first_key, p.due_mask, p.class_rank, p.section, p.roll_number, p.name,
               p.list_head, p.list_tail, p.monthly_owed, p.yearly_owed, p.carried_owed, p.owed
        from student_positions p
        where p.school_id = ${schoolId} and p.active and ${owing}
        order by ${order('p')}
      ),
      list as (
        select p.*, coalesce(x.months_json, '""') as months_json, coalesce(x.months, 0) as months, coalesce(f.fine, 0) as fine
        from ordered p
        left join ${rowsTable([['first_key', 'text'], ['due_mask', 'text'], ['months_json', 'text'], ['months', 'int']], texts)} on x.first_key = p.first_key and x.due_mask = p.due_mask::text
        left join (select * from ${rowsTable([['id', 'uuid'], ['fine', 'bigint']], [...fines])}) f on f.id = p.id
      )
      -- the aggregate's order is what guarantees the list's; the rows' order above only makes it cheap
      select '[' || coalesce(string_agg(${rowObject}, ',' order by ${order('l')}), '') || ']' as rows,
             count(*)::int as students, coalesce(sum(l.monthly_owed), 0)::text as monthly, coalesce(sum(l.yearly_owed), 0)::text as yearly,
             coalesce(sum(l.carried_owed), 0)::text as previous, coalesce(sum(l.owed), 0)::text as total,
             coalesce(sum(l.months), 0)::int as months, coalesce(sum(l.fine), 0)::text as fines, count(*) filter (where l.fine > 0)::int as fined
      from list l`,
      LIST_IN_ORDER,
    ),
  );
  // each total once: the summary and the total row show the same four
  const owedTotals = { monthly: money(list!.monthly), yearly: money(list!.yearly), previous: money(list!.previous), total: money(list!.total) };
  const doc: ReportDocument = {
    kind: 'pending-fees',
    title: REPORT_TITLES['pending-fees'],
    schoolName: ctx.schoolName,
    subtitle: `Students with fees outstanding till ${monthKeyLabel(asOf)}${className ? `, ${className}` : ''}; sorted by ${sort === 'amount' ? 'amount due' : 'class'}`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Students with dues', value: list!.students, kind: 'number' },
      { label: 'Monthly fees due', value: owedTotals.monthly, kind: 'money' },
      { label: 'Yearly fees due', value: owedTotals.yearly, kind: 'money' },
      { label: 'Previous balances', value: owedTotals.previous, kind: 'money' },
      { label: 'Total pending', value: owedTotals.total, kind: 'money', tone: 'bad' },
      ...(list!.fined > 0 ? [{ label: 'Late fines today', value: money(list!.fines), kind: 'money' as const }] : []),
    ],
    tables: [
      {
        title: 'Defaulters',
        columns: [
          col('className', 'Class'),
          col('section', 'Section'),
          col('rollNumber', 'Roll No.', 'number'),
          col('name', 'Student'),
          col('phone', 'Parent phone'),
          col('monthsDue', 'Months due'),
          col('monthly', 'Monthly due', 'money'),
          col('yearly', 'Yearly due', 'money'),
          col('previous', 'Previous balance', 'money'),
          col('total', 'Total due', 'money'),
          col('fine', 'Late fine today', 'money'),
        ],
        rows: [],
        totals: {
          className: 'Total',
          section: '',
          rollNumber: '',
          name: `${list!.students} students`,
          phone: '',
          monthsDue: `${list!.months} student-months`,
          ...owedTotals,
          fine: money(list!.fines),
        },
        empty: 'No pending fees: every student is paid up till date',
      },
    ],
  };
  return withRowsText(doc, 0, list!.rows);
}
