import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AppliedConcession } from '../../domain/concessions';
import { computeSessionAccount, carriedBalancePositions, type AccountLine, type CarriedBalancePosition, type FeeStructureAmounts, type SessionAccount } from '../../domain/fees';
import { isBalanceHead, type FeeHead } from '../../domain/ledger';
import { planTiming, type InstalmentPlan } from '../../domain/instalments';
import { paise, type Paise } from '../../domain/money';
import { normaliseAcademicYear, sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { read, readAtOnce, readEach, readRows, tableRead, tableRowParser, type Bound, type RawRow, type Read, type ReadRows } from '../lib/read-at-once';
import {
  academicSessions,
  classFeeStructures,
  previousBalances,
  receiptLines,
  receipts,
  studentEnrollments,
  students,
} from '../db/schema';
import { badRequest, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { inIds } from '../lib/sql-sets';
import { openingArrearsFrom, openingArrearsRead } from '../opening/arrears';

export type StudentRow = typeof students.$inferSelect;
import type { SessionRow } from '../sessions/queries';
export type { SessionRow };
export type ReceiptRow = typeof receipts.$inferSelect;
export type ReceiptLineRow = typeof receiptLines.$inferSelect;
export type PreviousBalanceRow = typeof previousBalances.$inferSelect;

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

export async function findStudentOr404(db: Db, { schoolId, studentId }: { schoolId: string; studentId: string }): Promise<StudentRow> {
  if (!isUuid(studentId)) throw notFound('Student not found');
  const [row] = await db
    .select()
    .from(students)
    .where(and(eq(students.schoolId, schoolId), eq(students.id, studentId)))
    .limit(1);
  if (!row) throw notFound('Student not found');
  return row;
}

/** A session named in any spelling (`2025-2026`, `2025-26`, `2025`) or by id. */
export async function findSessionByYear(db: Db, { schoolId, year }: { schoolId: string; year: string }): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, schoolId), sessionNamed(year)))
    .limit(1);
  return row;
}

/** The condition on `academic_sessions` of `findSessionByYear`: the id, or the name in any spelling. */
export function sessionNamed(year: string): SQL {
  return sessionMatching(sessionKeys(year));
}

/**
 * What a year given by a user matches (`sessionNamed`): a session id, or the names it may be spelt as
 * (`2025-26` is also `2025-2026`). Values, so a statement assembled once takes them as parameters.
 */
export interface SessionKeys {
  id: string | null;
  names: string[];
}

export function sessionKeys(year: string): SessionKeys {
  const text = year.trim();
  if (isUuid(text)) return { id: text, names: [] };
  const canonical = normaliseAcademicYear(text);
  return { id: null, names: [...new Set([text, ...(canonical ? [canonical] : [])])] };
}

/** The condition on `academic_sessions` matching `SessionKeys`, given as values or as placeholders. */
export function sessionMatching({ id, names }: { id: Bound | null; names: Bound | readonly string[] }): SQL {
  // an array is one parameter (Drizzle would spread a bare array into a list)
  const list = Array.isArray(names) ? sql.param(names) : names;
  return sql`(${academicSessions.id} = ${id}::uuid or ${academicSessions.name} = any(${list}::text[]))`;
}

export async function requireSessionByYear(db: Db, { schoolId, year }: { schoolId: string; year: string }): Promise<SessionRow> {
  const row = await findSessionByYear(db, { schoolId, year });
  if (!row) throw badRequest(`Academic session ${year} was not found. Create it under Session Management first.`);
  return row;
}

/** Every session of the school (a handful), to read beside others (`readAtOnce`). */
export function sessionsRead(schoolId: Bound): Read<SessionRow> {
  return tableRead(academicSessions, sql`select * from ${academicSessions} where school_id = ${schoolId}`);
}

/** The student's row, to read beside others (`readAtOnce`); `studentId` must be a uuid. */
export function studentRead({ schoolId, studentId }: { schoolId: Bound; studentId: Bound }): Read<StudentRow> {
  return tableRead(students, sql`select * from ${students} where school_id = ${schoolId} and id = ${studentId}`);
}

// one place for session lookups: the sessions area owns them
export { findActiveSession, findSession as findSessionById } from '../sessions/queries';

export interface Placement {
  className: string;
  section: string;
  rollNumber: number;
}

/** Where the student sat in a session: their enrollment, or their current placement for their own session. */
export async function placementIn(db: Db, student: StudentRow, session: SessionRow): Promise<Placement | null> {
  const [row] = await db
    .select({ className: studentEnrollments.className, section: studentEnrollments.section, rollNumber: studentEnrollments.rollNumber })
    .from(studentEnrollments)
    .where(
      and(
        eq(studentEnrollments.schoolId, student.schoolId),
        eq(studentEnrollments.studentId, student.id),
        eq(studentEnrollments.sessionId, session.id),
      ),
    )
    .limit(1);
  return row ?? placementOutside(student, session);
}

/** Without an enrollment: their current placement, if the session is their own (or they have none). */
export function placementOutside(student: StudentRow, session: SessionRow): Placement | null {
  if (student.sessionId === session.id || student.sessionId === null) {
    return { className: student.className, section: student.section, rollNumber: student.rollNumber };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Fee structures
// ---------------------------------------------------------------------------------------------

export type StructureRow = typeof classFeeStructures.$inferSelect;

export function structureAmounts(row: StructureRow): FeeStructureAmounts {
  return {
    monthlyTuition: paise(num(row.monthlyTuitionFeePaise)),
    yearly: {
      admission: paise(num(row.yearlyFeePaise)),
      exam: paise(num(row.examFeePaise)),
      books: paise(num(row.booksFeePaise)),
      uniform: paise(num(row.uniformFeePaise)),
      misc: paise(num(row.miscFeePaise)),
    },
  };
}

const structureKey = (className: string, year: string) => `${className.trim().toLowerCase()}|${normaliseAcademicYear(year) ?? year.trim()}`;

/**
 * The school's class fee structures keyed by class (any case) and academic year (any spelling):
 * one read, small (classes × years), then looked up in memory for any number of students.
 */
export async function loadStructures(db: Db, { schoolId }: { schoolId: string }): Promise<Map<string, StructureRow>> {
  return structuresFrom(await readRows(db, structuresRead(schoolId)));
}

/** The school's structures as one read, to run beside others (`readAtOnce`); `structuresFrom` keys them. */
export function structuresRead(schoolId: Bound): Read<StructureRow> {
  return tableRead(classFeeStructures, sql`select * from ${classFeeStructures} where school_id = ${schoolId}`);
}

/**
 * The structures one student's fee screen may need: every year's of the class they sat in in the
 * session and of their current class (`structureFor` picks the one), not the whole school's. At 15
 * classes and three years those were 45 rows, 18 KB of the fee status statement's 45 KB answer,
 * built into JSON by PostgreSQL and parsed by the app on every request (decision 0082). Matched as
 * `structureFor` keys them, trimmed and in any case.
 */
export function studentStructuresRead({ schoolId, studentId, sessionId }: { schoolId: Bound; studentId: Bound; sessionId: Bound | SQL }): Read<StructureRow> {
  return classStructuresRead(schoolId, { enrolled: sql` and e.student_id = ${studentId} and e.session_id = ${sessionId}`, current: sql` and s.id = ${studentId}` });
}

/**
 * Every year's structures of the classes some students sat in (their enrollments `e` that
 * `enrolled` keeps) or sit in now (the students `s` that `current` keeps), matched as `structureFor`
 * keys them, trimmed and in any case: a fee screen's (`studentStructuresRead`) and a save's balance
 * inputs (`balances/inputs.ts`, decision 0093). Each condition starts with ` and `.
 */
export function classStructuresRead(schoolId: Bound, { enrolled, current }: { enrolled: SQL; current: SQL }): Read<StructureRow> {
  return tableRead(
    classFeeStructures,
    sql`select * from ${classFeeStructures}
        where school_id = ${schoolId} and lower(btrim(class_name)) in (
          select lower(btrim(e.class_name)) from ${studentEnrollments} e where e.school_id = ${schoolId}${enrolled}
          union all
          select lower(btrim(s.class_name)) from ${students} s where s.school_id = ${schoolId}${current})`,
  );
}

export function structuresFrom(rows: readonly StructureRow[]): Map<string, StructureRow> {
  const map = new Map<string, StructureRow>();
  for (const row of rows) map.set(structureKey(row.className, row.academicYear), row);
  return map;
}

export function structureFor(map: Map<string, StructureRow>, className: string, sessionName: string): StructureRow | undefined {
  return map.get(structureKey(className, sessionName));
}

// ---------------------------------------------------------------------------------------------
// Ledger reads
// ---------------------------------------------------------------------------------------------

/** A live line of a student's session with the receipt it is on, as the fee screens read it. */
export interface DetailedLine {
  id: string;
  head: FeeHead;
  period: string | null;
  amount: Paise;
  paidOn: string;
  createdAt: Date;
  receiptId: string;
  receiptNumber: string;
  clientId: string | null;
}

/** Live lines of one student for one session (previous-balance lines excluded), with their receipts. */
export async function studentSessionLines(db: Db, { schoolId, studentId, sessionId }: { schoolId: string; studentId: string; sessionId: string }): Promise<DetailedLine[]> {
  return readRows(db, studentSessionLinesRead({ schoolId, studentId, sessionId }));
}

/**
 * `studentSessionLines` from the student's receipts of the session with their lines (`receiptsRead`
 * with that session, all of them: the caller checks none was left beyond its limit), where every
 * line of the session is found: fee status reads its receipts anyway, and reading the lines again
 * cost a fifth of the statement's PostgreSQL time and of its answer (decision 0101).
 * In the read's order (created, position, id), to the millisecond.
 */
export function sessionLinesOf(list: readonly ReceiptWithLines[], sessionId: string): DetailedLine[] {
  const found: Array<DetailedLine & { position: number }> = [];
  for (const { receipt, lines } of list) {
    if (receipt.status !== 'live') continue;
    for (const l of lines) {
      if (l.sessionId !== sessionId || isBalanceHead(l.head)) continue;
      found.push({
        id: l.id,
        head: l.head,
        period: l.period,
        amount: paise(num(l.amountPaise)),
        paidOn: l.paidOn,
        createdAt: l.createdAt,
        receiptId: receipt.id,
        receiptNumber: receipt.receiptNumber,
        clientId: receipt.clientId,
        position: l.position,
      });
    }
  }
  found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return found.map(({ position: _position, ...line }) => line);
}

/** `studentSessionLines` as one read; the session by id or by SQL naming one (a common table of the batch). */
export function studentSessionLinesRead({ schoolId, studentId, sessionId }: { schoolId: Bound; studentId: Bound; sessionId: Bound | SQL }): Read<DetailedLine> {
  return read(
    sql`select l.id, l.head, l.period, l.amount_paise, l.paid_on, l.created_at, r.id as receipt_id, r.receipt_number, r.client_id
        from ${receiptLines} l
        join ${receipts} r on r.id = l.receipt_id
        where l.school_id = ${schoolId} and l.student_id = ${studentId} and l.session_id = ${sessionId}
          and l.head not in ('previous_balance', 'opening_balance') and r.status = 'live'
        order by l.created_at, l.position, l.id`,
    (r) => ({
      id: String(r.id),
      head: r.head as FeeHead,
      period: (r.period as string | null) ?? null,
      amount: paise(num(r.amount_paise)),
      paidOn: String(r.paid_on),
      createdAt: toDate(r.created_at),
      receiptId: String(r.receipt_id),
      receiptNumber: String(r.receipt_number),
      clientId: (r.client_id as string | null) ?? null,
    }),
  );
}

/** A timestamp as either driver (text) or `to_json` (ISO text) gives it. */
const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/**
 * Live lines of a whole session, summed per student, head and month: one grouped read that feeds
 * the outstanding of every student in a rollover or a class's graduation.
 */
export async function sessionLineTotals(
  db: Db,
  { schoolId, sessionId, studentIds }: { schoolId: string; sessionId: string; /** only these students */ studentIds?: readonly string[] },
): Promise<Map<string, AccountLine[]>> {
  if (studentIds && studentIds.length === 0) return new Map();
  const only = studentIds ? sql` and ${inIds(sql`l.student_id`, studentIds)}` : sql``;
  const result = await db.execute(sql`
    select l.student_id, l.head, l.period, sum(l.amount_paise)::text as amount, max(l.paid_on)::text as paid_on
    from ${receiptLines} l
    join ${receipts} r on r.id = l.receipt_id and r.status = 'live'
    where l.school_id = ${schoolId} and l.session_id = ${sessionId} and l.head not in ('previous_balance', 'opening_balance')${only}
    group by l.student_id, l.head, l.period`);
  const map = new Map<string, AccountLine[]>();
  for (const row of result.rows as Array<{ student_id: string; head: FeeHead; period: string | null; amount: string; paid_on: string }>) {
    const list = map.get(row.student_id) ?? [];
    list.push({ head: row.head, period: row.period, amount: paise(Number(row.amount)), paidOn: row.paid_on });
    map.set(row.student_id, list);
  }
  return map;
}

export interface AccountContext {
  session: SessionRow;
  className: string;
  busFee: Paise;
  /** the student's fees-from month (`YYYY-MM`), null: the whole session */
  feesFrom: string | null;
  structure: StructureRow | undefined;
  lines: AccountLine[];
  asOfMonth: string;
  /** approved concessions of the student in the session (issue 16) */
  concessions?: readonly AppliedConcession[];
  /** the class's instalment plan (`policy/plans.ts` `planFor`); monthly when left out */
  plan?: InstalmentPlan;
}

/** The one computation of ruling 6, fed from the database. */
/** The months of the last session asked for: a rollover computes 5,000 accounts of one session. */
let lastMonths: { startDate: string; endDate: string; months: ReturnType<typeof sessionMonths> } | null = null;

function monthsOfSession(startDate: string, endDate: string): ReturnType<typeof sessionMonths> {
  if (lastMonths?.startDate !== startDate || lastMonths.endDate !== endDate) lastMonths = { startDate, endDate, months: sessionMonths(startDate, endDate) };
  return lastMonths.months;
}

export function accountOf(ctx: AccountContext): SessionAccount {
  const months = monthsOfSession(ctx.session.startDate, ctx.session.endDate);
  const structure = ctx.structure ? structureAmounts(ctx.structure) : null;
  return computeSessionAccount({
    months,
    asOfMonth: ctx.asOfMonth,
    structure,
    busFee: ctx.busFee,
    feesFrom: ctx.feesFrom,
    lines: ctx.lines,
    concessions: ctx.concessions,
    timing: ctx.plan ? planTiming(structure, ctx.plan, { months, busFee: ctx.busFee }) : null,
  });
}

/** The last month of the session, or `month` when earlier: the horizon of a balance left mid-session. */
export function throughMonth(session: SessionRow, month: string): string {
  const last = session.endDate.slice(0, 7);
  return month < last ? month : last;
}

// ---------------------------------------------------------------------------------------------
// Carried balances
// ---------------------------------------------------------------------------------------------

export interface CarriedRow extends CarriedBalancePosition {
  id: string;
  /** `carried`: left in an earlier session; `opening`: arrears from the old register (decision 0027) */
  kind: 'carried' | 'opening';
  studentId: string;
  className: string;
  throughMonth: string;
  reason: PreviousBalanceRow['reason'] | 'opening';
  recordedAt: Date;
  adjustedAt: Date | null;
  sessionStartDate: string;
}

/** The opening arrears sort before every session: they are older than anything in the books. */
export const OPENING_SORT_DATE = '0001-01-01';
export const OPENING_ACADEMIC_YEAR = 'Opening arrears';

/**
 * Every balance carried for the school (or one student), with what is left of it, oldest first:
 * the opening arrears from the old register (decision 0027), then each earlier session's. One round
 * trip for a student; a whole school's rows are read table by table, not gathered into one value.
 */
export async function carriedBalances(db: Db, { schoolId, studentId }: { schoolId: string; studentId?: string }): Promise<CarriedRow[]> {
  const reads = carriedReads({ schoolId, studentId });
  return carriedFrom(studentId ? await readAtOnce(db, reads) : await readEach(db, reads));
}

interface CarriedPaid {
  studentId: string;
  sessionId: string;
  paid: number;
}

/** What `carriedBalances` is computed from, as reads to run beside others (`readAtOnce`). */
export function carriedReads({ schoolId, studentId }: { schoolId: Bound; studentId?: Bound | undefined }) {
  const ofStudent = (column: SQL) => (studentId ? sql` and ${column} = ${studentId}` : sql``);
  return {
    carriedRows: read(
      sql`select b.*, a.start_date as session_start_date
          from ${previousBalances} b join ${academicSessions} a on a.id = b.session_id
          where b.school_id = ${schoolId}${ofStudent(sql`b.student_id`)}
          order by b.student_id, a.start_date`,
      (r) => ({ balance: previousBalanceRow(r), sessionStartDate: String(r.session_start_date) }),
    ),
    // live previous-balance payments per student and the session they pay off
    carriedPaid: read(
      sql`select l.student_id, l.session_id, sum(l.amount_paise)::text as paid
          from ${receiptLines} l
          join ${receipts} r on r.id = l.receipt_id and r.status = 'live'
          where l.school_id = ${schoolId} and l.head = 'previous_balance'${ofStudent(sql`l.student_id`)}
          group by l.student_id, l.session_id`,
      (r): CarriedPaid => ({ studentId: String(r.student_id), sessionId: String(r.session_id), paid: num(r.paid) }),
    ),
    openingArrears: openingArrearsRead({ schoolId, studentId }),
  };
}

const previousBalanceRow = tableRowParser(previousBalances);

export function carriedFrom(rows: ReadRows<ReturnType<typeof carriedReads>>): CarriedRow[] {
  const carried = sessionCarriedFrom(rows.carriedRows, rows.carriedPaid);
  const opening = openingArrearsFrom(rows.openingArrears);
  if (opening.length === 0) return carried;
  const openingRows = opening.map((o): CarriedRow => {
    const [pos] = carriedBalancePositions(
      [{ sessionId: o.sessionId, academicYear: OPENING_ACADEMIC_YEAR, monthly: o.monthly, yearly: o.yearly }],
      new Map([[o.sessionId, o.paid]]),
    );
    return {
      ...pos!,
      id: `opening:${o.studentId}`,
      kind: 'opening',
      studentId: o.studentId,
      className: '',
      throughMonth: '',
      reason: 'opening',
      recordedAt: o.recordedAt,
      adjustedAt: null,
      sessionStartDate: OPENING_SORT_DATE,
    };
  });
  return [...openingRows, ...carried].sort((a, b) => (a.studentId < b.studentId ? -1 : a.studentId > b.studentId ? 1 : a.sessionStartDate.localeCompare(b.sessionStartDate)));
}

function sessionCarriedFrom(rows: ReadonlyArray<{ balance: PreviousBalanceRow; sessionStartDate: string }>, payments: readonly CarriedPaid[]): CarriedRow[] {
  const paid = new Map(payments.map((p) => [`${p.studentId}|${p.sessionId}`, p.paid]));
  const out: CarriedRow[] = [];
  for (const { balance: b, sessionStartDate } of rows) {
    const paidBySession = new Map([[b.sessionId, paid.get(`${b.studentId}|${b.sessionId}`) ?? 0]]);
    const [pos] = carriedBalancePositions(
      [{ sessionId: b.sessionId, academicYear: b.academicYear, monthly: paise(num(b.monthlyOutstandingPaise)), yearly: paise(num(b.yearlyOutstandingPaise)) }],
      paidBySession,
    );
    out.push({
      ...pos!,
      id: b.id,
      kind: 'carried',
      studentId: b.studentId,
      className: b.className,
      throughMonth: b.throughMonth,
      reason: b.reason,
      recordedAt: b.recordedAt,
      adjustedAt: b.adjustedAt,
      sessionStartDate,
    });
  }
  return out;
}

export interface CarriedSummary {
  monthlyOutstanding: Paise;
  yearlyOutstanding: Paise;
  balance: Paise;
  rows: CarriedRow[];
}

export function summariseCarried(rows: CarriedRow[], filter: (row: CarriedRow) => boolean = () => true): CarriedSummary {
  const picked = rows.filter(filter);
  const monthly = picked.reduce((s, r) => s + r.monthlyRemaining, 0);
  const yearly = picked.reduce((s, r) => s + r.yearlyRemaining, 0);
  return { monthlyOutstanding: paise(monthly), yearlyOutstanding: paise(yearly), balance: paise(monthly + yearly), rows: picked };
}

// ---------------------------------------------------------------------------------------------
// Receipts
// ---------------------------------------------------------------------------------------------

export interface ReceiptWithLines {
  receipt: ReceiptRow;
  lines: Array<ReceiptLineRow & { academicYear: string }>;
}

const receiptRow = tableRowParser(receipts);
const receiptLineRow = tableRowParser(receiptLines);

/**
 * Receipts with their lines as ONE read: the receipts `where` picks, in `orderBy` and cut to `limit`,
 * each with its lines in entry order as a JSON array beside it (computed for the receipts picked only).
 */
export function receiptsWithLinesRead(schoolId: Bound, { where, orderBy, limit }: { where: SQL; orderBy?: SQL; limit?: SQL }): Read<ReceiptWithLines> {
  const order = orderBy ? sql` order by ${orderBy}` : sql``;
  return read(
    sql`select ${receipts}.*, (
          select coalesce(json_agg(x.* order by x.created_at, x.position, x.id), '[]'::json)
          from (select l.*, a.name as academic_year
                from ${receiptLines} l join ${academicSessions} a on a.id = l.session_id
                where l.school_id = ${schoolId} and l.receipt_id = ${receipts}.id) x
        ) as receipt_lines_json
        from (select * from ${receipts} where ${receipts}.school_id = ${schoolId} and ${where}${order}${limit ? sql` ${limit}` : sql``}) as ${receipts}${order}`,
    (raw) => {
      const lines = (typeof raw.receipt_lines_json === 'string' ? JSON.parse(raw.receipt_lines_json) : raw.receipt_lines_json) as RawRow[];
      return { receipt: receiptRow(raw), lines: lines.map((l) => ({ ...receiptLineRow(l), academicYear: String(l.academic_year) })) };
    },
  );
}

export async function findReceipt(db: Db, { schoolId, id }: { schoolId: string; id: string }): Promise<ReceiptWithLines | undefined> {
  if (!isUuid(id)) return undefined;
  const [full] = await readRows(db, receiptsWithLinesRead(schoolId, { where: sql`${receipts.id} = ${id}` }));
  return full;
}

export async function findReceiptByClientId(db: Db, { schoolId, clientId }: { schoolId: string; clientId: string }): Promise<ReceiptWithLines | undefined> {
  const [full] = await readRows(db, receiptByClientIdRead({ schoolId, clientId }));
  return full;
}

/** The receipt a clientId made (ruling 5), as one read to run beside others. */
export function receiptByClientIdRead({ schoolId, clientId }: { schoolId: Bound; clientId: Bound }): Read<ReceiptWithLines> {
  return receiptsWithLinesRead(schoolId, { where: sql`${receipts.clientId} = ${clientId}` });
}

export interface ReceiptFilter {
  schoolId: string;
  studentId?: string | undefined;
  /** receipts numbered in this session or paying any of its fees */
  sessionId?: string | undefined;
  prefix?: ReceiptRow['prefix'] | undefined;
  status?: ReceiptRow['status'] | undefined;
  from?: string | undefined;
  to?: string | undefined;
  limit: number;
  offset: number;
}

/** The India calendar day of a timestamp (UTC+5:30, no daylight saving), without relying on tz data. */
const indiaDay = (column: typeof receipts.receivedAt) => sql`((${column} at time zone 'UTC') + interval '330 minutes')::date`;

/** Newest first; `from`/`to` are India dates of receipt. */
export async function listReceipts(db: Db, f: ReceiptFilter): Promise<ReceiptWithLines[]> {
  return readRows(db, receiptsRead(f));
}

/** `listReceipts` as one read, to run beside others (`readAtOnce`); a session may be SQL naming one. */
export function receiptsRead(f: Omit<ReceiptFilter, 'schoolId' | 'studentId' | 'sessionId'> & { schoolId: Bound; studentId?: Bound | undefined; sessionId?: Bound | SQL | undefined }): Read<ReceiptWithLines> {
  const where = and(
    f.studentId ? eq(receipts.studentId, f.studentId) : undefined,
    f.sessionId
      ? sql`(${receipts.sessionId} = ${f.sessionId} or exists (select 1 from ${receiptLines} l where l.school_id = ${f.schoolId} and l.receipt_id = ${receipts.id} and l.session_id = ${f.sessionId}))`
      : undefined,
    f.prefix ? eq(receipts.prefix, f.prefix) : undefined,
    f.status ? eq(receipts.status, f.status) : undefined,
    f.from ? sql`${indiaDay(receipts.receivedAt)} >= ${f.from}::date` : undefined,
    f.to ? sql`${indiaDay(receipts.receivedAt)} <= ${f.to}::date` : undefined,
  );
  return receiptsWithLinesRead(f.schoolId, {
    where: where ?? sql`true`,
    orderBy: sql`${receipts.receivedAt} desc, ${receipts.sequence} desc`,
    limit: sql`limit ${f.limit} offset ${f.offset}`,
  });
}
