import { and, asc, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { AppliedConcession } from '../../domain/concessions';
import { computeSessionAccount, carriedBalancePositions, type AccountLine, type CarriedBalancePosition, type FeeStructureAmounts, type SessionAccount } from '../../domain/fees';
import type { FeeHead } from '../../domain/ledger';
import { planTiming, type InstalmentPlan } from '../../domain/instalments';
import { paise, type Paise } from '../../domain/money';
import { normaliseAcademicYear, sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { readTogether } from '../lib/reads';
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
import { openingArrears } from '../opening/arrears';

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
  const text = year.trim();
  const canonical = normaliseAcademicYear(text);
  const names = [...new Set([text, ...(canonical ? [canonical] : [])])];
  const [row] = await db
    .select()
    .from(academicSessions)
    .where(
      and(
        eq(academicSessions.schoolId, schoolId),
        isUuid(text) ? eq(academicSessions.id, text) : inArray(academicSessions.name, names),
      ),
    )
    .limit(1);
  return row;
}

export async function requireSessionByYear(db: Db, { schoolId, year }: { schoolId: string; year: string }): Promise<SessionRow> {
  const row = await findSessionByYear(db, { schoolId, year });
  if (!row) throw badRequest(`Academic session ${year} was not found. Create it under Session Management first.`);
  return row;
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
  if (row) return row;
  if (student.sessionId === session.id || student.sessionId === null) {
    return { className: student.className, section: student.section, rollNumber: student.rollNumber };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Fee structures
// ---------------------------------------------------------------------------------------------

type StructureRow = typeof classFeeStructures.$inferSelect;

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
  const rows = await db.select().from(classFeeStructures).where(eq(classFeeStructures.schoolId, schoolId));
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

/** Live lines of one student for one session (previous-balance lines excluded), with their receipts. */
export async function studentSessionLines(db: Db, { schoolId, studentId, sessionId }: { schoolId: string; studentId: string; sessionId: string }) {
  const rows = await db
    .select({
      id: receiptLines.id,
      head: receiptLines.head,
      period: receiptLines.period,
      amount: receiptLines.amountPaise,
      paidOn: receiptLines.paidOn,
      createdAt: receiptLines.createdAt,
      receiptId: receipts.id,
      receiptNumber: receipts.receiptNumber,
      clientId: receipts.clientId,
    })
    .from(receiptLines)
    .innerJoin(receipts, eq(receipts.id, receiptLines.receiptId))
    .where(
      and(
        eq(receiptLines.schoolId, schoolId),
        eq(receiptLines.studentId, studentId),
        eq(receiptLines.sessionId, sessionId),
        notInArray(receiptLines.head, ['previous_balance', 'opening_balance']),
        eq(receipts.status, 'live'),
      ),
    )
    .orderBy(asc(receiptLines.createdAt), asc(receiptLines.position), asc(receiptLines.id));
  return rows.map((r) => ({ ...r, amount: paise(num(r.amount)) }));
}
export type DetailedLine = Awaited<ReturnType<typeof studentSessionLines>>[number];

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
export function accountOf(ctx: AccountContext): SessionAccount {
  const months = sessionMonths(ctx.session.startDate, ctx.session.endDate);
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

/** Live previous-balance payments per student and session they pay off. */
async function carriedPayments(db: Db, { schoolId, studentId }: { schoolId: string; studentId?: string }): Promise<Map<string, number>> {
  const result = await db.execute(sql`
    select l.student_id, l.session_id, sum(l.amount_paise)::text as paid
    from ${receiptLines} l
    join ${receipts} r on r.id = l.receipt_id and r.status = 'live'
    where l.school_id = ${schoolId} and l.head = 'previous_balance'
      ${studentId ? sql`and l.student_id = ${studentId}` : sql``}
    group by l.student_id, l.session_id`);
  const map = new Map<string, number>();
  for (const row of result.rows as Array<{ student_id: string; session_id: string; paid: string }>) {
    map.set(`${row.student_id}|${row.session_id}`, Number(row.paid));
  }
  return map;
}

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
 * the opening arrears from the old register (decision 0027), then each earlier session's.
 */
export async function carriedBalances(db: Db, { schoolId, studentId }: { schoolId: string; studentId?: string }): Promise<CarriedRow[]> {
  const [carried, opening] = await readTogether(
    db,
    () => sessionCarriedBalances(db, { schoolId, studentId }),
    () => openingArrears(db, { schoolId, studentId }),
  );
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

async function sessionCarriedBalances(db: Db, { schoolId, studentId }: { schoolId: string; studentId?: string }): Promise<CarriedRow[]> {
  const [rows, paid] = await readTogether(
    db,
    () =>
      db
        .select({ balance: previousBalances, sessionStartDate: academicSessions.startDate })
        .from(previousBalances)
        .innerJoin(academicSessions, eq(academicSessions.id, previousBalances.sessionId))
        .where(and(eq(previousBalances.schoolId, schoolId), studentId ? eq(previousBalances.studentId, studentId) : undefined))
        .orderBy(asc(previousBalances.studentId), asc(academicSessions.startDate)),
    () => carriedPayments(db, { schoolId, studentId }),
  );
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

/** Receipts with their lines: two reads for any number of receipts. */
export async function withLines(db: Db, schoolId: string, rows: ReceiptRow[]): Promise<ReceiptWithLines[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .select({ line: receiptLines, academicYear: academicSessions.name })
    .from(receiptLines)
    .innerJoin(academicSessions, eq(academicSessions.id, receiptLines.sessionId))
    .where(and(eq(receiptLines.schoolId, schoolId), inArray(receiptLines.receiptId, rows.map((r) => r.id))))
    .orderBy(asc(receiptLines.createdAt), asc(receiptLines.position), asc(receiptLines.id));
  const byReceipt = new Map<string, ReceiptWithLines['lines']>();
  for (const { line, academicYear } of lines) {
    const list = byReceipt.get(line.receiptId) ?? [];
    list.push({ ...line, academicYear });
    byReceipt.set(line.receiptId, list);
  }
  return rows.map((receipt) => ({ receipt, lines: byReceipt.get(receipt.id) ?? [] }));
}

export async function findReceipt(db: Db, { schoolId, id }: { schoolId: string; id: string }): Promise<ReceiptWithLines | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(receipts)
    .where(and(eq(receipts.schoolId, schoolId), eq(receipts.id, id)))
    .limit(1);
  if (!row) return undefined;
  const [full] = await withLines(db, schoolId, [row]);
  return full;
}

export async function findReceiptByClientId(db: Db, { schoolId, clientId }: { schoolId: string; clientId: string }): Promise<ReceiptWithLines | undefined> {
  const [row] = await db
    .select()
    .from(receipts)
    .where(and(eq(receipts.schoolId, schoolId), eq(receipts.clientId, clientId)))
    .limit(1);
  if (!row) return undefined;
  const [full] = await withLines(db, schoolId, [row]);
  return full;
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
  const rows = await db
    .select()
    .from(receipts)
    .where(
      and(
        eq(receipts.schoolId, f.schoolId),
        f.studentId ? eq(receipts.studentId, f.studentId) : undefined,
        f.sessionId
          ? sql`(${receipts.sessionId} = ${f.sessionId} or exists (select 1 from ${receiptLines} l where l.school_id = ${f.schoolId} and l.receipt_id = ${receipts.id} and l.session_id = ${f.sessionId}))`
          : undefined,
        f.prefix ? eq(receipts.prefix, f.prefix) : undefined,
        f.status ? eq(receipts.status, f.status) : undefined,
        f.from ? sql`${indiaDay(receipts.receivedAt)} >= ${f.from}::date` : undefined,
        f.to ? sql`${indiaDay(receipts.receivedAt)} <= ${f.to}::date` : undefined,
      ),
    )
    .orderBy(desc(receipts.receivedAt), desc(receipts.sequence))
    .limit(f.limit)
    .offset(f.offset);
  return withLines(db, f.schoolId, rows);
}
