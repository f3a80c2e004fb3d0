import { sql } from 'drizzle-orm';
import { HEAD_LABELS, monthLabel, YEARLY_HEADS } from '../../domain/ledger';
import { monthKeyLabel } from '../../domain/reports';
import { col, REPORT_TITLES, type ReportDocument } from '../../domain/report-document';
import { sessionMonths } from '../../domain/sessions';
import { rowsOf } from '../lib/sql-rows';
import { positionsCte, sessionPositionsCte } from '../stats/positions';
import { horizonOf, money, num, percentText, reportSession, sessionContaining, type ReportContext } from './report-context';
import { classRank, isLive } from './sql';

/**
 * The fee reports of the Reports tab, each from the ledger in a few set-based statements: the
 * month's fees by class, the session month by month, the classes, the whole session, and the
 * defaulters. Outstanding follows ruling 6 through `positionsCte` / `sessionPositionsCte`.
 */

type Row = Record<string, unknown>;
const keysArray = (keys: string[]) => `{${keys.join(',')}}`;

/** `2026-04` plus 7 months is `2026-11`. */
function addMonths(key: string, k: number): string {
  const index = Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7)) - 1 + k;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Months from `a` to `b` (`2026-04` to `2026-11` is 7). */
const monthsApart = (a: string, b: string) => (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7));

/** Monthly Report: the month's tuition and bus fees by class, what came in during the month, and its expenses. */
export async function monthlyReport(ctx: ReportContext, { month }: { month: string }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  const session = await sessionContaining(db, { schoolId, monthKey: month });
  const from = `${month}-01`;
  const classRows = session
    ? rowsOf<Row>(
        await db.execute(sql`
          with ${sessionPositionsCte(schoolId, session.id, month)},
          rec as (
            select l.student_id, bool_or(l.head = 'tuition') as t, bool_or(l.head = 'bus') as b, sum(l.amount_paise) as amount
            from receipt_lines l
            where l.school_id = ${schoolId} and l.session_id = ${session.id}::uuid and l.period = ${month} and l.head in ('tuition', 'bus') and ${isLive(schoolId)}
            group by l.student_id
          )
          select p.class_name, count(*)::int as students,
                 count(*) filter (where (coalesce(rec.t, false) or p.tuition = 0) and (coalesce(rec.b, false) or p.bus = 0) and (coalesce(rec.t, false) or coalesce(rec.b, false)))::int as paid,
                 sum(p.tuition + p.bus)::text as expected,
                 coalesce(sum(rec.amount), 0)::text as collected,
                 sum(case when coalesce(rec.t, false) then 0 else p.tuition end + case when coalesce(rec.b, false) then 0 else p.bus end)::text as outstanding
          from pos p left join rec on rec.student_id = p.id
          where p.due_key >= ${month} and p.start_key <= ${month}
          group by p.class_name
          order by ${classRank(sql`p.class_name`)}`),
      )
    : [];
  const [heads, spent] = await Promise.all([
    db.execute(sql`
      select l.head, sum(l.amount_paise)::text as amount
      from receipt_lines l
      where l.school_id = ${schoolId} and l.paid_on between ${from}::date and (${from}::date + interval '1 month' - interval '1 day')::date and ${isLive(schoolId)}
      group by l.head`),
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
      { label: `Fees due for ${label}`, value: money(total(classRows, 'expected')), kind: 'money' },
      { label: `Collected for ${label}`, value: money(total(classRows, 'collected')), kind: 'money', tone: 'good' },
      { label: `Outstanding for ${label}`, value: money(total(classRows, 'outstanding')), kind: 'money', tone: 'bad' },
      { label: 'Money received in the month', value: money(income), kind: 'money' },
      { label: 'Expenses in the month', value: money(expenses), kind: 'money' },
      { label: 'Net', value: money(income - expenses), kind: 'money', tone: income - expenses >= 0 ? 'good' : 'bad' },
    ],
    tables: [
      {
        title: `Tuition and bus fees for ${label}, by class`,
        columns: [col('className', 'Class'), col('students', 'Students', 'number'), col('paid', 'Paid', 'number'), col('expected', 'Due', 'money'), col('collected', 'Collected', 'money'), col('outstanding', 'Outstanding', 'money')],
        rows: classRows.map((r) => ({ className: String(r.class_name), students: num(r.students), paid: num(r.paid), expected: money(r.expected), collected: money(r.collected), outstanding: money(r.outstanding) })),
        totals: { className: 'Total', students: total(classRows, 'students'), paid: total(classRows, 'paid'), expected: money(total(classRows, 'expected')), collected: money(total(classRows, 'collected')), outstanding: money(total(classRows, 'outstanding')) },
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

/** Yearly Report: the session month by month (due, collected, outstanding) and its yearly fees by head. */
export async function yearlyReport(ctx: ReportContext, { academicYear }: { academicYear?: string | undefined }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  const session = await reportSession(db, { schoolId, academicYear });
  const asOf = horizonOf(session, ctx.today);
  const keys = sessionMonths(session.startDate, session.endDate).map((m) => m.key);
  const [monthRows, headRows] = await Promise.all([
    db.execute(sql`
      with ${sessionPositionsCte(schoolId, session.id, asOf)},
      months as (select unnest(${keysArray(keys)}::text[]) as key),
      rec as (
        select l.student_id, l.period, bool_or(l.head = 'tuition') as t, bool_or(l.head = 'bus') as b, sum(l.amount_paise) as amount
        from receipt_lines l
        where l.school_id = ${schoolId} and l.session_id = ${session.id}::uuid and l.head in ('tuition', 'bus') and ${isLive(schoolId)}
        group by l.student_id, l.period
      )
      select m.key,
             coalesce(sum(p.tuition + p.bus) filter (where (not p.closed or m.key <= p.due_key) and m.key >= p.start_key), 0)::text as expected,
             coalesce(sum(rec.amount), 0)::text as collected,
             coalesce(sum(case when coalesce(rec.t, false) then 0 else p.tuition end + case when coalesce(rec.b, false) then 0 else p.bus end)
               filter (where m.key <= p.due_key and m.key >= p.start_key), 0)::text as outstanding
      from months m cross join pos p
      left join rec on rec.student_id = p.id and rec.period = m.key
      group by m.key order by m.key`),
    db.execute(sql`
      with ${sessionPositionsCte(schoolId, session.id, asOf)}
      select
        ${sql.join(
          YEARLY_HEADS.map((h) => {
            const column = sql.raw(`${h === 'admission' ? 'yearly' : h}_fee_paise`);
            const paid = sql.raw(`p_${h}`);
            return sql`coalesce(sum(fs.${column}), 0)::text as ${sql.raw(`e_${h}`)},
                       coalesce(sum(pd.${paid}), 0)::text as ${sql.raw(`c_${h}`)},
                       coalesce(sum(greatest(coalesce(fs.${column}, 0) - coalesce(pd.${paid}, 0), 0)) filter (where pos.first_key <= pos.due_key), 0)::text as ${sql.raw(`o_${h}`)}`;
          }),
          sql`, `,
        )}
      from pos
      left join class_fee_structures fs on fs.school_id = ${schoolId} and lower(fs.class_name) = lower(pos.class_name) and fs.academic_year = pos.session_name
      left join paid pd on pd.student_id = pos.id`),
  ]);
  const months = rowsOf<Row>(monthRows);
  const [h] = rowsOf<Row>(headRows);
  const sum = (rows: Row[], key: string) => rows.reduce((s, r) => s + num(r[key]), 0);
  const heads = YEARLY_HEADS.map((head) => ({ head, expected: num(h?.[`e_${head}`]), collected: num(h?.[`c_${head}`]), outstanding: num(h?.[`o_${head}`]) }));
  const yearly = { expected: heads.reduce((s, x) => s + x.expected, 0), collected: heads.reduce((s, x) => s + x.collected, 0), outstanding: heads.reduce((s, x) => s + x.outstanding, 0) };
  const monthly = { expected: sum(months, 'expected'), collected: sum(months, 'collected'), outstanding: sum(months, 'outstanding') };
  return {
    kind: 'yearly',
    title: `${REPORT_TITLES.yearly}: ${session.name}`,
    schoolName: ctx.schoolName,
    subtitle: `Session ${session.name}, outstanding till ${monthKeyLabel(asOf)}`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Monthly fees due (whole session)', value: money(monthly.expected), kind: 'money' },
      { label: 'Monthly fees collected', value: money(monthly.collected), kind: 'money', tone: 'good' },
      { label: 'Yearly fees due', value: money(yearly.expected), kind: 'money' },
      { label: 'Yearly fees collected', value: money(yearly.collected), kind: 'money', tone: 'good' },
      { label: 'Outstanding till date', value: money(monthly.outstanding + yearly.outstanding), kind: 'money', tone: 'bad' },
    ],
    tables: [
      {
        title: 'Tuition and bus fees, month by month',
        columns: [col('month', 'Month'), col('expected', 'Due', 'money'), col('collected', 'Collected', 'money'), col('outstanding', 'Outstanding', 'money')],
        rows: months.map((m) => ({ month: monthLabel(String(m.key)), expected: money(m.expected), collected: money(m.collected), outstanding: String(m.key) <= asOf ? money(m.outstanding) : 'Not due yet' })),
        totals: { month: 'Total', expected: money(monthly.expected), collected: money(monthly.collected), outstanding: money(monthly.outstanding) },
        empty: 'This session has no months',
      },
      {
        title: 'Yearly fees by head',
        columns: [col('head', 'Fee'), col('expected', 'Due', 'money'), col('collected', 'Collected', 'money'), col('outstanding', 'Outstanding', 'money')],
        rows: heads.map((x) => ({ head: x.head === 'misc' ? 'Misc' : HEAD_LABELS[x.head], expected: money(x.expected), collected: money(x.collected), outstanding: money(x.outstanding) })),
        totals: { head: 'Total', expected: money(yearly.expected), collected: money(yearly.collected), outstanding: money(yearly.outstanding) },
        empty: 'No yearly fees',
      },
    ],
  };
}

/** Class-wise: each class and section of the session, till date. */
export async function classWiseReport(ctx: ReportContext, { academicYear }: { academicYear?: string | undefined }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  const session = await reportSession(db, { schoolId, academicYear });
  const asOf = horizonOf(session, ctx.today);
  const rows = rowsOf<Row>(
    await db.execute(sql`
      with ${sessionPositionsCte(schoolId, session.id, asOf)}
      select class_name, section, count(*)::int as students,
             sum((tuition + bus) * due_months + case when first_key <= due_key then yearly_total else 0 end)::text as expected,
             sum(received)::text as received,
             sum(session_owed)::text as outstanding,
             count(*) filter (where session_owed > 0)::int as with_dues
      from pos
      group by class_name, section
      order by ${classRank(sql`class_name`)}, section`),
  );
  const sum = (key: string) => rows.reduce((s, r) => s + num(r[key]), 0);
  const expected = sum('expected');
  const outstanding = sum('outstanding');
  return {
    kind: 'class-wise',
    title: `${REPORT_TITLES['class-wise']}: ${session.name}`,
    schoolName: ctx.schoolName,
    subtitle: `Session ${session.name}, till ${monthKeyLabel(asOf)}`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Students', value: sum('students'), kind: 'number' },
      { label: 'Due till date', value: money(expected), kind: 'money' },
      { label: 'Received', value: money(sum('received')), kind: 'money', tone: 'good' },
      { label: 'Outstanding', value: money(outstanding), kind: 'money', tone: 'bad' },
      { label: 'Collection', value: `${percentText(expected - outstanding, expected)}%`, kind: 'percent' },
    ],
    tables: [
      {
        title: 'Classes and sections',
        columns: [
          col('className', 'Class'),
          col('section', 'Section'),
          col('students', 'Students', 'number'),
          col('withDues', 'With dues', 'number'),
          col('expected', 'Due till date', 'money'),
          col('received', 'Received', 'money'),
          col('outstanding', 'Outstanding', 'money'),
          col('collection', 'Collection %', 'percent'),
        ],
        rows: rows.map((r) => ({
          className: String(r.class_name),
          section: String(r.section),
          students: num(r.students),
          withDues: num(r.with_dues),
          expected: money(r.expected),
          received: money(r.received),
          outstanding: money(r.outstanding),
          collection: percentText(num(r.expected) - num(r.outstanding), num(r.expected)),
        })),
        totals: {
          className: 'Total',
          section: '',
          students: sum('students'),
          withDues: sum('with_dues'),
          expected: money(expected),
          received: money(sum('received')),
          outstanding: money(outstanding),
          collection: percentText(expected - outstanding, expected),
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
  const [classRows, other] = await Promise.all([
    db.execute(sql`
      with ${sessionPositionsCte(schoolId, session.id, last)}
      select class_name, count(*)::int as students,
             count(*) filter (where status = 'passout')::int as left_school,
             sum((tuition + bus) * due_months + case when first_key <= due_key then yearly_total else 0 end)::text as expected,
             sum(received)::text as received,
             sum(session_owed)::text as outstanding
      from pos group by class_name order by ${classRank(sql`class_name`)}`),
    db.execute(sql`
      select
        (select coalesce(sum(amount_paise), 0) from expenses where school_id = ${schoolId} and deleted_at is null
           and expense_date between ${session.startDate}::date and ${session.endDate}::date)::text as expenses,
        (select coalesce(sum(l.amount_paise), 0) from receipt_lines l
           where l.school_id = ${schoolId} and l.paid_on between ${session.startDate}::date and ${session.endDate}::date and ${isLive(schoolId)})::text as income,
        (select coalesce(sum(monthly_outstanding_paise + yearly_outstanding_paise), 0) from student_previous_balances
           where school_id = ${schoolId} and session_id = ${session.id}::uuid)::text as carried_out,
        (select count(*) from student_previous_balances where school_id = ${schoolId} and session_id = ${session.id}::uuid)::int as carried_students`),
  ]);
  const rows = rowsOf<Row>(classRows);
  const [o] = rowsOf<Row>(other);
  const sum = (key: string) => rows.reduce((s, r) => s + num(r[key]), 0);
  const income = num(o?.income);
  const expenses = num(o?.expenses);
  return {
    kind: 'session',
    title: `${REPORT_TITLES.session}: ${session.name}`,
    schoolName: ctx.schoolName,
    subtitle: `${session.startDate} to ${session.endDate}${session.isActive ? ' (active session)' : ''}`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Students in the session', value: sum('students'), kind: 'number' },
      { label: 'Fees due (whole session)', value: money(sum('expected')), kind: 'money' },
      { label: 'Fees received for the session', value: money(sum('received')), kind: 'money', tone: 'good' },
      { label: 'Outstanding (whole session)', value: money(sum('outstanding')), kind: 'money', tone: 'bad' },
      { label: 'Balances carried forward', value: `${money(o?.carried_out)} (${num(o?.carried_students)} students)`, kind: 'text' },
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
          col('expected', 'Due', 'money'),
          col('received', 'Received', 'money'),
          col('outstanding', 'Outstanding', 'money'),
        ],
        rows: rows.map((r) => ({ className: String(r.class_name), students: num(r.students), left: num(r.left_school), expected: money(r.expected), received: money(r.received), outstanding: money(r.outstanding) })),
        totals: { className: 'Total', students: sum('students'), left: sum('left_school'), expected: money(sum('expected')), received: money(sum('received')), outstanding: money(sum('outstanding')) },
        empty: 'No students in this session',
      },
    ],
  };
}

export const DEFAULTER_SORTS = ['class', 'amount'] as const;
export type DefaulterSort = (typeof DEFAULTER_SORTS)[number];

/** Pending Fees: every active student with something outstanding till date, with the months due. */
export async function pendingFeesReport(ctx: ReportContext, { sort, className }: { sort: DefaulterSort; className?: string | undefined }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  const asOf = ctx.today.slice(0, 7);
  const rows = rowsOf<Row>(
    await db.execute(sql`
      with ${positionsCte(schoolId, asOf)},
      owing as (select * from pos where owed > 0 ${className ? sql`and lower(class_name) = lower(${className})` : sql``})
      select p.id, p.name, p.class_name, p.section, p.roll_number, p.parent_phone, p.mobile_number, p.closed, p.first_key, p.start_key,
             p.due_months, p.tuition::text as tuition, p.bus::text as bus, p.t_mask::text as t_mask, p.b_mask::text as b_mask,
             p.monthly_owed::text as monthly_owed, p.yearly_owed::text as yearly_owed, p.carried_owed::text as carried_owed, p.owed::text as owed
      from owing p
      order by ${sort === 'amount' ? sql`p.owed desc, ` : sql``}${classRank(sql`p.class_name`)}, p.section, p.roll_number, p.name`),
  );
  const sum = (key: string) => rows.reduce((s, r) => s + num(r[key]), 0);
  // the due months with a head expected and nothing recorded, from the recorded-month bits
  const missing = (r: Row): string[] => {
    if (r.closed === true || !r.first_key) return [];
    const t = BigInt(String(r.t_mask));
    const b = BigInt(String(r.b_mask));
    const tuition = num(r.tuition) > 0;
    const bus = num(r.bus) > 0;
    const out: string[] = [];
    // bits count from the session's first month; a student admitted later owes from start_key
    const from = monthsApart(String(r.first_key), String(r.start_key ?? r.first_key));
    for (let k = from; k < from + num(r.due_months); k++) {
      const bit = 1n << BigInt(k);
      if ((tuition && (t & bit) === 0n) || (bus && (b & bit) === 0n)) out.push(addMonths(String(r.first_key), k));
    }
    return out;
  };
  const dueLists = new Map(rows.map((r) => [String(r.id), missing(r)]));
  const monthsText = (r: Row) => (dueLists.get(String(r.id)) ?? []).map((k) => monthKeyLabel(k).replace(/^(\w{3})\w*/, '$1')).join(', ');
  const monthsCount = (r: Row) => (dueLists.get(String(r.id)) ?? []).length;
  return {
    kind: 'pending-fees',
    title: REPORT_TITLES['pending-fees'],
    schoolName: ctx.schoolName,
    subtitle: `Students with fees outstanding till ${monthKeyLabel(asOf)}${className ? `, ${className}` : ''}; sorted by ${sort === 'amount' ? 'amount due' : 'class'}`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Students with dues', value: rows.length, kind: 'number' },
      { label: 'Monthly fees due', value: money(sum('monthly_owed')), kind: 'money' },
      { label: 'Yearly fees due', value: money(sum('yearly_owed')), kind: 'money' },
      { label: 'Previous balances', value: money(sum('carried_owed')), kind: 'money' },
      { label: 'Total pending', value: money(sum('owed')), kind: 'money', tone: 'bad' },
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
          col('monthsCount', 'No. of months', 'number'),
          col('monthly', 'Monthly due', 'money'),
          col('yearly', 'Yearly due', 'money'),
          col('previous', 'Previous balance', 'money'),
          col('total', 'Total due', 'money'),
        ],
        rows: rows.map((r) => ({
          className: String(r.class_name),
          section: String(r.section),
          rollNumber: num(r.roll_number),
          name: String(r.name),
          phone: String(r.parent_phone || r.mobile_number || ''),
          monthsDue: monthsText(r),
          monthsCount: monthsCount(r),
          monthly: money(r.monthly_owed),
          yearly: money(r.yearly_owed),
          previous: money(r.carried_owed),
          total: money(r.owed),
        })),
        totals: {
          className: 'Total',
          section: '',
          rollNumber: '',
          name: `${rows.length} students`,
          phone: '',
          monthsDue: '',
          monthsCount: rows.reduce((s, r) => s + monthsCount(r), 0),
          monthly: money(sum('monthly_owed')),
          yearly: money(sum('yearly_owed')),
          previous: money(sum('carried_owed')),
          total: money(sum('owed')),
        },
        empty: 'No pending fees: every student is paid up till date',
      },
    ],
  };
}
