import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { maskAadhaarSql } from '../lib/crypto';
import { rowsOf } from '../lib/sql-rows';
import { classOrderSql } from '../students/class-order';

/**
 * What a whole-school export holds (ruling 25): one entry per kind of record, each with its columns
 * described for the README. Rows are read a page at a time in a fixed order (keyset on a sort key
 * and the row id), so no table is ever held whole in memory and other requests run between pages.
 *
 * Every value leaves the database as text or a plain number, whichever driver answers: amounts as
 * whole paise, dates as `YYYY-MM-DD`, times in India time as `YYYY-MM-DD HH:MM:SS`. The writers
 * turn them into decimal rupee strings (CSV) and en-IN formatted cells (Excel).
 */

export type ColumnKind = 'text' | 'number' | 'money' | 'date' | 'datetime' | 'boolean' | 'marks';

export interface Column {
  /** the alias the SQL selects */
  key: string;
  header: string;
  kind: ColumnKind;
  about: string;
}

export type ExportRow = Record<string, string | number | boolean | null>;

export interface Entity {
  /** file name without extension, and the README's heading */
  file: string;
  /** the Excel sheet (at most 31 characters) */
  sheet: string;
  about: string;
  columns: Column[];
  /** the FROM/JOIN/WHERE part; its WHERE must end on the school filter */
  from: (schoolId: string) => SQL;
  /** sort key (non-null) and its type, for the keyset */
  sortKey: SQL;
  sortCast: 'timestamptz' | 'date' | 'text';
  idKey: SQL;
}

/** India time, to the second: what the school sees on its screens. */
const ist = (column: string) => sql.raw(`to_char(${column} at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS')`);
const text = (key: string, header: string, about: string): Column => ({ key, header, kind: 'text', about });
const money = (key: string, header: string, about: string): Column => ({ key, header, kind: 'money', about });
const day = (key: string, header: string, about: string): Column => ({ key, header, kind: 'date', about });
const time = (key: string, header: string, about: string): Column => ({ key, header, kind: 'datetime', about });
const num = (key: string, header: string, about: string): Column => ({ key, header, kind: 'number', about });
const flag = (key: string, header: string, about: string): Column => ({ key, header, kind: 'boolean', about });
const marks = (key: string, header: string, about: string): Column => ({ key, header, kind: 'marks', about });

const studentId = text('student_id', 'Student ID', 'The student\'s id; the same in every file (students.csv "Student ID")');

export const ENTITIES: readonly Entity[] = [
  {
    file: 'students',
    sheet: 'Students',
    about: 'Every student, current and passed out, as the Students tab shows them today. Aadhaar numbers are masked.',
    columns: [
      studentId,
      text('admission_number', 'Admission No.', 'The admission number, when one was given'),
      text('name', 'Name', "Student's name"),
      text('class_name', 'Class', 'Current class'),
      text('section', 'Section', 'Current section'),
      num('roll_number', 'Roll No.', 'Current roll number'),
      text('session', 'Session', 'The academic session of the current class'),
      text('status', 'Status', 'active, or passout (graduated or discharged)'),
      text('father_name', "Father's Name", ''),
      text('mother_name', "Mother's Name", ''),
      day('date_of_birth', 'Date of Birth', ''),
      text('mobile_number', 'Mobile', ''),
      text('aadhaar', 'Aadhaar (masked)', 'Only the last four digits: XXXX XXXX 1234. The full number is never exported.'),
      text('residence', 'Residence', ''),
      text('parent_name', 'Parent Name', ''),
      text('parent_phone', 'Parent Phone', ''),
      text('parent_email', 'Parent Email', ''),
      text('parent_whatsapp', 'Parent WhatsApp', ''),
      money('monthly_bus_fee', 'Monthly Bus Fee', 'Rupees per month'),
      day('enrollment_date', 'Enrollment Date', ''),
      text('fees_from_month', 'Fees From Month', 'YYYY-MM: monthly fees are due from this month (admitted mid-year); empty: from the session start'),
      flag('sms_reminders', 'SMS Reminders', 'The family agreed to SMS reminders'),
      flag('whatsapp_reminders', 'WhatsApp Reminders', 'The family agreed to WhatsApp reminders'),
      text('reminder_preference', 'Reminder Preference', 'sms, whatsapp or both'),
      time('created_at', 'Added At', 'When the student was added'),
    ],
    from: (schoolId) => sql`from students s left join academic_sessions a on a.id = s.session_id where s.school_id = ${schoolId}`,
    sortKey: sql`s.created_at`,
    sortCast: 'timestamptz',
    idKey: sql`s.id::text`,
  },
  {
    file: 'enrolments',
    sheet: 'Enrolments',
    about: 'Where each student sat in each session: the class, section and roll number of that year.',
    columns: [
      studentId,
      text('student_name', 'Student Name', ''),
      text('session', 'Session', ''),
      text('class_name', 'Class', ''),
      text('section', 'Section', ''),
      num('roll_number', 'Roll No.', ''),
    ],
    from: (schoolId) =>
      sql`from student_enrollments e join students s on s.id = e.student_id join academic_sessions a on a.id = e.session_id where e.school_id = ${schoolId}`,
    sortKey: sql`e.created_at`,
    sortCast: 'timestamptz',
    idKey: sql`e.id::text`,
  },
  {
    file: 'receipts',
    sheet: 'Receipts',
    about: 'Every receipt ever issued, live and cancelled, with the student as printed on it. Its lines are in receipt-lines.csv.',
    columns: [
      text('receipt_id', 'Receipt ID', 'Joins receipt-lines.csv'),
      text('receipt_number', 'Receipt No.', 'As printed, e.g. MON/2026-27/000042'),
      time('received_at', 'Received At', 'When the money was received (India time)'),
      text('status', 'Status', 'live or cancelled'),
      money('total', 'Total', 'Rupees'),
      text('payment_mode', 'Payment Mode', 'cash, cheque, upi, bank_transfer or online'),
      text('cheque_number', 'Cheque No.', ''),
      text('bank_name', 'Bank', ''),
      text('upi_reference', 'UPI Reference', ''),
      text('transaction_reference', 'Transaction Reference', ''),
      text('source', 'Entered From', 'monthly grid, yearly cards, Record Fee Payment (fee_payment) or online'),
      studentId,
      text('student_name', 'Student Name', 'As on the day of payment'),
      text('class_name', 'Class', 'As on the day of payment'),
      text('section', 'Section', ''),
      num('roll_number', 'Roll No.', ''),
      text('session', 'Session', 'The session the receipt is numbered in'),
      text('received_by', 'Received By', ''),
      time('cancelled_at', 'Cancelled At', 'Empty for a live receipt'),
      text('cancel_reason', 'Cancel Reason', ''),
    ],
    from: (schoolId) => sql`from receipts r join academic_sessions a on a.id = r.session_id where r.school_id = ${schoolId}`,
    sortKey: sql`r.received_at`,
    sortCast: 'timestamptz',
    idKey: sql`r.id::text`,
  },
  {
    file: 'receipt-lines',
    sheet: 'Receipt Lines',
    about: 'What each receipt paid: one line per fee head and month. The lines of a receipt add up to its total.',
    columns: [
      text('receipt_id', 'Receipt ID', 'Joins receipts.csv'),
      text('receipt_number', 'Receipt No.', ''),
      text('receipt_status', 'Receipt Status', 'live or cancelled: lines of a cancelled receipt no longer count as paid'),
      num('position', 'Line', 'Place on the receipt'),
      studentId,
      text('head', 'Fee Head', 'tuition, bus, admission, exam, books, uniform, misc, previous_balance, …'),
      text('period', 'Month', 'YYYY-MM for tuition and bus; empty for the yearly heads'),
      text('session', 'Session', 'The session whose fees the line pays'),
      money('amount', 'Amount', 'Rupees'),
      day('paid_on', 'Paid On', ''),
    ],
    from: (schoolId) =>
      sql`from receipt_lines l join receipts r on r.id = l.receipt_id join academic_sessions a on a.id = l.session_id where l.school_id = ${schoolId}`,
    sortKey: sql`l.created_at`,
    sortCast: 'timestamptz',
    idKey: sql`l.id::text`,
  },
  {
    file: 'cancellations',
    sheet: 'Cancellations',
    about: 'Every cancelled receipt: who cancelled it, when and why. The receipt itself stays in receipts.csv.',
    columns: [
      text('receipt_id', 'Receipt ID', ''),
      text('receipt_number', 'Receipt No.', ''),
      studentId,
      text('student_name', 'Student Name', ''),
      money('total', 'Amount', 'Rupees: the receipt total that no longer counts'),
      time('received_at', 'Received At', ''),
      time('cancelled_at', 'Cancelled At', ''),
      text('cancelled_by', 'Cancelled By', 'The email of the user who cancelled it'),
      text('cancel_reason', 'Reason', ''),
    ],
    from: (schoolId) => sql`from receipts r left join users u on u.id = r.cancelled_by where r.school_id = ${schoolId} and r.status = 'cancelled'`,
    sortKey: sql`r.cancelled_at`,
    sortCast: 'timestamptz',
    idKey: sql`r.id::text`,
  },
  {
    file: 'carried-balances',
    sheet: 'Carried Balances',
    about: 'Balances a student left in a session they moved out of (promotion, rollover, discharge, graduation), still collectable.',
    columns: [
      studentId,
      text('student_name', 'Student Name', ''),
      text('session', 'Session', 'The session the balance was left in'),
      text('class_name', 'Class', 'The class in that session'),
      money('monthly_outstanding', 'Monthly Outstanding', 'Rupees of tuition and bus left unpaid'),
      money('yearly_outstanding', 'Yearly Outstanding', 'Rupees of yearly heads left unpaid'),
      text('through_month', 'Through Month', 'YYYY-MM: the last month the balance counts'),
      text('reason', 'Reason', 'promotion, rollover, discharge or graduation'),
      time('recorded_at', 'Recorded At', ''),
    ],
    from: (schoolId) => sql`from student_previous_balances b join students s on s.id = b.student_id where b.school_id = ${schoolId}`,
    sortKey: sql`b.recorded_at`,
    sortCast: 'timestamptz',
    idKey: sql`b.id::text`,
  },
  {
    file: 'fee-structures',
    sheet: 'Fee Structures',
    about: 'What each class pays in each academic year.',
    columns: [
      text('academic_year', 'Academic Year', ''),
      text('class_name', 'Class', ''),
      money('monthly_tuition', 'Monthly Tuition', 'Rupees per month'),
      money('admission', 'Admission (Yearly)', 'Rupees once a year'),
      money('exam', 'Exam', 'Rupees once a year'),
      money('books', 'Books', 'Rupees once a year'),
      money('uniform', 'Uniform', 'Rupees once a year'),
      money('misc', 'Misc', 'Rupees once a year'),
    ],
    from: (schoolId) => sql`from class_fee_structures f where f.school_id = ${schoolId}`,
    sortKey: sql`f.academic_year || ' ' || lpad(${classOrderSql(sql.raw('f.class_name'))}::text, 2, '0')`,
    sortCast: 'text',
    idKey: sql`f.id::text`,
  },
  {
    file: 'sessions',
    sheet: 'Sessions',
    about: 'The academic sessions; exactly one is active.',
    columns: [
      text('name', 'Session', ''),
      day('start_date', 'Start Date', ''),
      day('end_date', 'End Date', ''),
      flag('is_active', 'Active', ''),
      flag('promotion_completed', 'Promotion Completed', ''),
    ],
    from: (schoolId) => sql`from academic_sessions a where a.school_id = ${schoolId}`,
    sortKey: sql`a.start_date`,
    sortCast: 'date',
    idKey: sql`a.id::text`,
  },
  {
    file: 'expenses',
    sheet: 'Expenses',
    about: 'Every expense, including deleted ones (with the time they were deleted), so past reports can be traced.',
    columns: [
      day('expense_date', 'Date', 'The day the money was spent'),
      text('category', 'Category', ''),
      text('description', 'Description', ''),
      money('amount', 'Amount', 'Rupees'),
      time('created_at', 'Entered At', ''),
      time('deleted_at', 'Deleted At', 'Empty unless the expense was deleted'),
    ],
    from: (schoolId) => sql`from expenses x where x.school_id = ${schoolId}`,
    sortKey: sql`x.expense_date`,
    sortCast: 'date',
    idKey: sql`x.id::text`,
  },
  {
    file: 'results',
    sheet: 'Results',
    about: 'Marks per student, subject and session. Marks may have halves (4.5); FA, total and grade are as the marksheet shows them.',
    columns: [
      studentId,
      text('student_name', 'Student Name', ''),
      text('session', 'Session', ''),
      text('class_name', 'Class', 'The class in that session'),
      text('subject', 'Subject', ''),
      ...(['f1', 'f2', 'f3', 'f4', 'f5', 'f6'] as const).map((f) => marks(f, f.toUpperCase(), `Formative assessment ${f.slice(1)}; empty: not entered`)),
      marks('ca', 'CA', ''),
      marks('sa', 'SA', ''),
      marks('fa', 'FA', ''),
      marks('total', 'Total', ''),
      text('grade', 'Grade', ''),
      text('remarks', 'Remarks', ''),
    ],
    from: (schoolId) => sql`from results m
      join students s on s.id = m.student_id
      join subjects j on j.id = m.subject_id
      join academic_sessions a on a.id = m.session_id
      left join student_enrollments e on e.student_id = m.student_id and e.session_id = m.session_id and e.school_id = m.school_id
      where m.school_id = ${schoolId}`,
    sortKey: sql`m.created_at`,
    sortCast: 'timestamptz',
    idKey: sql`m.id::text`,
  },
  {
    file: 'passouts',
    sheet: 'Passouts',
    about: 'Students who graduated or were discharged.',
    columns: [
      studentId,
      text('name', 'Name', ''),
      text('last_class', 'Last Class', ''),
      text('section', 'Section', ''),
      num('roll_number', 'Roll No.', ''),
      num('graduation_year', 'Year', ''),
      day('passout_date', 'Date', ''),
      text('kind', 'Kind', 'graduated or discharged'),
      text('reason', 'Reason', ''),
    ],
    from: (schoolId) => sql`from passouts p where p.school_id = ${schoolId}`,
    sortKey: sql`p.passout_date`,
    sortCast: 'date',
    idKey: sql`p.id::text`,
  },
  {
    file: 'audit-log',
    sheet: 'Audit Log',
    about: 'Who did what and when: every write of money or of student moves, with the record before and after (JSON). Aadhaar numbers in it are masked.',
    columns: [
      time('created_at', 'At', 'India time'),
      text('user_email', 'User', 'The email of the user who acted; empty for the system'),
      text('action', 'Action', ''),
      text('entity', 'Record', ''),
      text('entity_id', 'Record ID', ''),
      text('ip', 'IP Address', ''),
      text('before', 'Before', 'JSON'),
      text('after', 'After', 'JSON'),
    ],
    from: (schoolId) => sql`from audit_log g left join users u on u.id = g.user_id where g.school_id = ${schoolId}`,
    sortKey: sql`g.created_at`,
    sortCast: 'timestamptz',
    idKey: sql`g.id::text`,
  },
];

/** The SELECT list of each entity, in the order of its columns. */
const SELECTS: Record<string, SQL> = {
  students: sql`s.id::text as student_id, s.admission_number, s.name, s.class_name, s.section, s.roll_number, a.name as session, s.status,
    s.father_name, s.mother_name, s.date_of_birth::text as date_of_birth, s.mobile_number,
    ${maskAadhaarSql(sql`s.aadhaar_last4`)} as aadhaar,
    s.residence, s.parent_name, s.parent_phone, s.parent_email, s.parent_whatsapp, s.monthly_bus_fee_paise::text as monthly_bus_fee,
    s.enrollment_date::text as enrollment_date, s.fees_from_month, s.enable_sms_reminders as sms_reminders,
    s.enable_whatsapp_reminders as whatsapp_reminders, s.reminder_preference, ${ist('s.created_at')} as created_at`,
  enrolments: sql`e.student_id::text as student_id, s.name as student_name, a.name as session, e.class_name, e.section, e.roll_number`,
  receipts: sql`r.id::text as receipt_id, r.receipt_number, ${ist('r.received_at')} as received_at, r.status, r.total_paise::text as total,
    r.payment_mode, r.cheque_number, r.bank_name, r.upi_reference, r.transaction_reference, r.source, r.student_id::text as student_id,
    r.student_name, r.class_name, r.section, r.roll_number, a.name as session, r.received_by,
    ${ist('r.cancelled_at')} as cancelled_at, r.cancel_reason`,
  'receipt-lines': sql`l.receipt_id::text as receipt_id, r.receipt_number, r.status as receipt_status, l.position::int as position,
    l.student_id::text as student_id, l.head, l.period, a.name as session, l.amount_paise::text as amount, l.paid_on::text as paid_on`,
  cancellations: sql`r.id::text as receipt_id, r.receipt_number, r.student_id::text as student_id, r.student_name, r.total_paise::text as total,
    ${ist('r.received_at')} as received_at, ${ist('r.cancelled_at')} as cancelled_at, u.email as cancelled_by, r.cancel_reason`,
  'carried-balances': sql`b.student_id::text as student_id, s.name as student_name, b.academic_year as session, b.class_name,
    b.monthly_outstanding_paise::text as monthly_outstanding, b.yearly_outstanding_paise::text as yearly_outstanding,
    b.through_month, b.reason, ${ist('b.recorded_at')} as recorded_at`,
  'fee-structures': sql`f.academic_year, f.class_name, f.monthly_tuition_fee_paise::text as monthly_tuition, f.yearly_fee_paise::text as admission,
    f.exam_fee_paise::text as exam, f.books_fee_paise::text as books, f.uniform_fee_paise::text as uniform, f.misc_fee_paise::text as misc`,
  sessions: sql`a.name, a.start_date::text as start_date, a.end_date::text as end_date, a.is_active, a.is_promotion_completed as promotion_completed`,
  expenses: sql`x.expense_date::text as expense_date, x.category, x.description, x.amount_paise::text as amount,
    ${ist('x.created_at')} as created_at, ${ist('x.deleted_at')} as deleted_at`,
  results: sql`m.student_id::text as student_id, s.name as student_name, a.name as session, e.class_name, j.name as subject,
    m.f1_halves::int as f1, m.f2_halves::int as f2, m.f3_halves::int as f3, m.f4_halves::int as f4, m.f5_halves::int as f5, m.f6_halves::int as f6,
    m.ca_halves::int as ca, m.sa_halves::int as sa, m.fa_halves::int as fa, m.total_halves::int as total, m.grade, m.remarks`,
  passouts: sql`p.student_id::text as student_id, p.name, p.last_class, p.section, p.roll_number, p.graduation_year, p.passout_date::text as passout_date,
    p.kind, p.reason`,
  'audit-log': sql`${ist('g.created_at')} as created_at, u.email as user_email, g.action, g.entity, g.entity_id, g.ip,
    g.before::text as before, g.after::text as after`,
};

export interface Cursor {
  sort: string;
  id: string;
}

export async function countRows(db: Db, entity: Entity, schoolId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n ${entity.from(schoolId)}`));
  return row?.n ?? 0;
}

/** The next page after `after`, in the entity's order; `next` is null after the last page. */
export async function readPage(
  db: Db,
  entity: Entity,
  schoolId: string,
  after: Cursor | null,
  limit: number,
): Promise<{ rows: ExportRow[]; next: Cursor | null }> {
  const cast = sql.raw(entity.sortCast);
  const from = after ? sql`${entity.from(schoolId)} and (${entity.sortKey}, ${entity.idKey}) > (${after.sort}::${cast}, ${after.id})` : entity.from(schoolId);
  const query = sql`select ${SELECTS[entity.file]!}, (${entity.sortKey})::text as "__sort", ${entity.idKey} as "__id"
    ${from} order by ${entity.sortKey}, ${entity.idKey} limit ${limit}`;
  const raw = rowsOf<ExportRow & { __sort: string; __id: string }>(await db.execute(query));
  const last = raw.at(-1);
  const rows = raw.map(({ __sort: _s, __id: _i, ...row }) => (entity.file === 'audit-log' ? maskAuditRow(row) : row));
  return { rows, next: raw.length === limit && last ? { sort: last.__sort, id: last.__id } : null };
}

const AADHAAR_KEY = /aadha?ar/i;

/** Any Aadhaar-named value in an audit record that is more than the masked form is masked (ruling 24). */
export function maskAadhaarInJson(json: string | null): string | null {
  if (json === null) return null;
  let changed = false;
  const value = JSON.parse(json, (key, v: unknown) => {
    if (AADHAAR_KEY.test(key) && typeof v === 'string') {
      const digits = v.replace(/\D/g, '');
      if (digits.length >= 8) {
        changed = true;
        return `XXXX XXXX ${digits.slice(-4)}`;
      }
    }
    return v;
  }) as unknown;
  return changed ? JSON.stringify(value) : json;
}

function maskAuditRow(row: ExportRow): ExportRow {
  return { ...row, before: maskAadhaarInJson(row.before as string | null), after: maskAadhaarInJson(row.after as string | null) };
}
