import { sql } from 'drizzle-orm';
import { FEE_HEADS, HEAD_LABELS, type FeeHead, type PaymentMode } from '../../domain/ledger';
import { monthKeyLabel } from '../../domain/reports';
import { col, REPORT_TITLES, type ReportDocument } from '../../domain/report-document';
import { sessionMonths } from '../../domain/sessions';
import { formatDateIN } from '../../domain/dates';
import { rowsOf } from '../lib/sql-rows';
import { money, num, reportSession, type ReportContext } from './report-context';
import { incomeDaysIn } from './sql';

type Row = Record<string, unknown>;

/** Income vs Expense: money received and spent in each month of the session, and spending by category. */
export async function incomeExpenseReport(ctx: ReportContext, { academicYear }: { academicYear?: string | undefined }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  const session = await reportSession(db, { schoolId, academicYear });
  const keys = sessionMonths(session.startDate, session.endDate).map((m) => m.key);
  const [months, categories] = await Promise.all([
    db.execute(sql`
      with months as (select unnest(${`{${keys.join(',')}}`}::text[]) as key),
      income as (
        select to_char(d.paid_on, 'YYYY-MM') as key, sum(d.amount_paise) as amount
        from ${incomeDaysIn(schoolId, session.startDate, session.endDate)}
        group by 1
      ),
      spent as (
        select to_char(expense_date, 'YYYY-MM') as key, sum(amount_paise) as amount from expenses
        where school_id = ${schoolId} and deleted_at is null and expense_date between ${session.startDate}::date and ${session.endDate}::date
        group by 1
      )
      select m.key, coalesce(i.amount, 0)::text as income, coalesce(s.amount, 0)::text as expenses
      from months m left join income i on i.key = m.key left join spent s on s.key = m.key order by m.key`),
    db.execute(sql`
      select category, sum(amount_paise)::text as amount, count(*)::int as entries from expenses
      where school_id = ${schoolId} and deleted_at is null and expense_date between ${session.startDate}::date and ${session.endDate}::date
      group by category order by sum(amount_paise) desc`),
  ]);
  const rows = rowsOf<Row>(months);
  const cats = rowsOf<Row>(categories);
  const income = rows.reduce((s, r) => s + num(r.income), 0);
  const expenses = rows.reduce((s, r) => s + num(r.expenses), 0);
  return {
    kind: 'income-expense',
    title: `${REPORT_TITLES['income-expense']}: ${session.name}`,
    schoolName: ctx.schoolName,
    subtitle: `${session.startDate} to ${session.endDate}, by payment and expense date`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Income', value: money(income), kind: 'money', tone: 'good' },
      { label: 'Expenses', value: money(expenses), kind: 'money', tone: 'bad' },
      { label: income - expenses >= 0 ? 'Surplus' : 'Deficit', value: money(income - expenses), kind: 'money', tone: income - expenses >= 0 ? 'good' : 'bad' },
    ],
    tables: [
      {
        title: 'Month by month',
        columns: [col('month', 'Month'), col('income', 'Income', 'money'), col('expenses', 'Expenses', 'money'), col('net', 'Net', 'money')],
        rows: rows.map((r) => ({ month: monthKeyLabel(String(r.key)), income: money(r.income), expenses: money(r.expenses), net: money(num(r.income) - num(r.expenses)) })),
        totals: { month: 'Total', income: money(income), expenses: money(expenses), net: money(income - expenses) },
        empty: 'This session has no months',
      },
      {
        title: 'Expenses by category',
        columns: [col('category', 'Category'), col('entries', 'Entries', 'number'), col('amount', 'Amount', 'money')],
        rows: cats.map((c) => ({ category: String(c.category), entries: num(c.entries), amount: money(c.amount) })),
        totals: { category: 'Total', entries: cats.reduce((s, c) => s + num(c.entries), 0), amount: money(expenses) },
        empty: 'No expenses in this session',
      },
    ],
  };
}

const MODE_LABELS: Record<PaymentMode, string> = { cash: 'Cash', cheque: 'Cheque', upi: 'UPI', card: 'Card', bank_transfer: 'Bank transfer', online: 'Online', credit: 'From credit' };

/**
 * Day Book: the receipts written on a day (India date of receipt) by payment mode, and the day's
 * expenses, with totals: what the cash counter hands over at closing.
 */
export async function dayBookReport(ctx: ReportContext, { date }: { date: string }): Promise<ReportDocument> {
  const { db, schoolId } = ctx;
  // receipts of an India day: a range on received_at, so the (school, received_at) index serves it
  const day = sql`r.received_at >= ((${date}::date)::timestamp - interval '330 minutes') at time zone 'UTC' and r.received_at < ((${date}::date + 1)::timestamp - interval '330 minutes') at time zone 'UTC'`;
  const [receiptRows, expenseRows, cancelled, creditRows] = await Promise.all([
    db.execute(sql`
      select r.receipt_number, r.student_name, r.class_name, r.section, r.roll_number, r.payment_mode,
             coalesce(r.cheque_number, r.upi_reference, r.transaction_reference, '') as reference,
             r.total_paise::text as amount, r.received_by,
             (select string_agg(distinct l.head, ',') from receipt_lines l where l.school_id = r.school_id and l.receipt_id = r.id) as heads
      from receipts r
      where r.school_id = ${schoolId} and r.status = 'live' and r.source <> 'opening' and ${day}
      order by r.received_at, r.receipt_number`),
    db.execute(sql`
      select description, category, amount_paise::text as amount from expenses
      where school_id = ${schoolId} and deleted_at is null and expense_date = ${date}::date
      order by created_at`),
    db.execute(sql`
      select count(*) filter (where r.status = 'cancelled')::int as n,
             coalesce(sum(total_paise) filter (where r.status = 'cancelled'), 0)::text as amount,
             count(*) filter (where r.status = 'live' and r.source = 'opening')::int as opening_n,
             coalesce(sum(total_paise) filter (where r.status = 'live' and r.source = 'opening'), 0)::text as opening_amount
      from receipts r
      where r.school_id = ${schoolId} and (r.status = 'cancelled' or r.source = 'opening') and ${day}`),
    // ruling 27: credit kept from online payments and credit refunded, by India day
    db.execute(sql`
      select c.kind, c.amount_paise::text as amount, c.reason, c.mode, c.by_name, s.name as student_name, s.class_name, s.section
      from student_credit_entries c join students s on s.id = c.student_id and s.school_id = c.school_id
      where c.school_id = ${schoolId} and c.kind <> 'applied'
        and c.at >= ((${date}::date)::timestamp - interval '330 minutes') at time zone 'UTC' and c.at < ((${date}::date + 1)::timestamp - interval '330 minutes') at time zone 'UTC'
      order by c.at`),
  ]);
  const receipts = rowsOf<Row>(receiptRows);
  const spent = rowsOf<Row>(expenseRows);
  const [c] = rowsOf<Row>(cancelled);
  const byMode = new Map<string, { count: number; amount: number }>();
  for (const r of receipts) {
    const m = byMode.get(String(r.payment_mode)) ?? { count: 0, amount: 0 };
    byMode.set(String(r.payment_mode), { count: m.count + 1, amount: m.amount + num(r.amount) });
  }
  const credits = rowsOf<Row>(creditRows);
  const creditIn = credits.filter((c) => c.kind === 'online_excess').reduce((s, c) => s + num(c.amount), 0);
  const refunded = -credits.filter((c) => c.kind === 'refund').reduce((s, c) => s + num(c.amount), 0);
  // receipts paid from credit settle fees but bring no money: the money was counted when it arrived
  const fromCredit = byMode.get('credit')?.amount ?? 0;
  const received = receipts.reduce((s, r) => s + num(r.amount), 0) - fromCredit + creditIn - refunded;
  const paidOut = spent.reduce((s, e) => s + num(e.amount), 0);
  const cash = byMode.get('cash')?.amount ?? 0;
  const headText = (v: unknown) =>
    String(v ?? '')
      .split(',')
      .filter(Boolean)
      .sort((a, b) => FEE_HEADS.indexOf(a as FeeHead) - FEE_HEADS.indexOf(b as FeeHead))
      .map((h) => HEAD_LABELS[h as keyof typeof HEAD_LABELS]?.replace(/ Fee$/, '') ?? h)
      .join(', ');
  return {
    kind: 'day-book',
    title: `${REPORT_TITLES['day-book']}: ${formatDateIN(date)}`,
    schoolName: ctx.schoolName,
    subtitle: `Receipts written and expenses dated ${formatDateIN(date)}`,
    generatedAt: ctx.generatedAt,
    summary: [
      { label: 'Receipts', value: receipts.length, kind: 'number' },
      { label: 'Received', value: money(received), kind: 'money', tone: 'good' },
      { label: 'Cash received', value: money(cash), kind: 'money' },
      ...(creditIn || refunded || fromCredit
        ? [
            { label: 'Credit kept from online payments (in Received)', value: money(creditIn), kind: 'money' as const },
            { label: 'Fees paid from credit (not in Received)', value: money(fromCredit), kind: 'money' as const },
            { label: 'Credit refunded (taken off Received)', value: money(refunded), kind: 'money' as const },
          ]
        : []),
      { label: 'Expenses', value: money(paidOut), kind: 'money', tone: 'bad' },
      { label: 'Net for the day', value: money(received - paidOut), kind: 'money', tone: received - paidOut >= 0 ? 'good' : 'bad' },
      { label: 'Cancelled receipts (not counted)', value: `${num(c?.n)} (${money(c?.amount)})`, kind: 'text' },
      { label: 'Opening entries (paid before go-live, not income)', value: `${num(c?.opening_n)} (${money(c?.opening_amount)})`, kind: 'text' },
    ],
    tables: [
      {
        title: 'By payment mode',
        columns: [col('mode', 'Payment mode'), col('count', 'Receipts', 'number'), col('amount', 'Amount', 'money')],
        rows: (Object.keys(MODE_LABELS) as PaymentMode[]).filter((m) => byMode.has(m)).map((m) => ({ mode: MODE_LABELS[m], count: byMode.get(m)!.count, amount: money(byMode.get(m)!.amount) })),
        totals: { mode: 'Total', count: receipts.length, amount: money(receipts.reduce((s, r) => s + num(r.amount), 0)) },
        empty: 'No receipts on this day',
      },
      {
        title: 'Receipts',
        columns: [
          col('receiptNumber', 'Receipt No.'),
          col('student', 'Student'),
          col('className', 'Class'),
          col('fees', 'Fees'),
          col('mode', 'Mode'),
          col('reference', 'Reference'),
          // who collected each receipt (issue 15): what the cash closing of each collector adds up
          col('collectedBy', 'Collected by'),
          col('amount', 'Amount', 'money'),
        ],
        rows: receipts.map((r) => ({
          receiptNumber: String(r.receipt_number),
          student: String(r.student_name),
          className: `${String(r.class_name)} ${String(r.section)} (${num(r.roll_number)})`,
          fees: headText(r.heads),
          mode: MODE_LABELS[r.payment_mode as PaymentMode] ?? String(r.payment_mode),
          reference: String(r.reference ?? ''),
          collectedBy: String(r.received_by ?? ''),
          amount: money(r.amount),
        })),
        totals: { receiptNumber: 'Total', student: '', className: '', fees: '', mode: '', reference: '', collectedBy: '', amount: money(receipts.reduce((s, r) => s + num(r.amount), 0)) },
        empty: 'No receipts on this day',
      },
      {
        title: "Students' credit",
        columns: [col('student', 'Student'), col('className', 'Class'), col('what', 'Entry'), col('reason', 'Reason'), col('amount', 'Amount', 'money')],
        rows: credits.map((c) => ({
          student: String(c.student_name),
          className: `${String(c.class_name)} ${String(c.section)}`,
          what: c.kind === 'refund' ? `Refunded (${String(c.mode ?? '')})` : `Kept from ${String(c.by_name)}`,
          reason: String(c.reason ?? ''),
          amount: money(c.amount),
        })),
        totals: { student: 'Net', className: '', what: '', reason: '', amount: money(creditIn - refunded) },
        empty: 'No credit kept or refunded on this day',
      },
      {
        title: 'Expenses',
        columns: [col('description', 'Description'), col('category', 'Category'), col('amount', 'Amount', 'money')],
        rows: spent.map((e) => ({ description: String(e.description), category: String(e.category), amount: money(e.amount) })),
        totals: { description: 'Total', category: '', amount: money(paidOut) },
        empty: 'No expenses on this day',
      },
    ],
  };
}
