import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { formatReceiptNumber, isBalanceHead, RECEIPT_SEQUENCE_DIGITS, receiptNumberStem, type FeeHead, type PaymentDetails, type ReceiptPrefix, type ReceiptSource } from '../../domain/ledger';
import { findOverpayment, overpaymentMessage, type SessionAccount } from '../../domain/fees';
import { paise, toRupeeString, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { auditLog, receiptCounters, receiptLines, receipts, users } from '../db/schema';
import { indiaDate } from '../../domain/sessions';
import { auditWho, type AuditActor } from '../lib/audit';
import { conflict } from '../lib/errors';
import { isUniqueViolation } from '../lib/pg-errors';
import { onlyIf, read, readAtOnce, tableRowParser, type Bound, type RawRow, type Read, type ReadRows } from '../lib/read-at-once';
import { rowsOf } from '../lib/sql-rows';
import { findReceiptByClientId, receiptByClientIdRead, type Placement, type ReceiptWithLines, type SessionRow, type StudentRow } from './queries';
import { oneStudentBalanceSql, oneStudentBalanceValues, type OneStudentBalanceShape } from '../balances/refresh';
import { computeBalances } from '../balances/compute';
import { balanceInputReads, balanceInputsFrom, withReceiptLines, type BalanceInputs } from '../balances/inputs';
import { inPipelinedTransaction, memoByShape, writeStatement } from '../lib/prepared';
import { raiseSchoolVersion, versionRaisedBy } from '../stats/versions';

export interface NewLine {
  head: FeeHead;
  period: string | null;
  amount: Paise;
  paidOn: string;
  /** the session whose fees the line pays */
  sessionId: string;
  /** that session's name, when it is not the receipt's own session (previous balances) */
  academicYear?: string;
}

export interface NewReceipt {
  schoolId: string;
  prefix: ReceiptPrefix;
  source: ReceiptSource;
  /** the session the receipt is numbered in */
  session: SessionRow;
  student: StudentRow;
  placement: Placement;
  details: PaymentDetails;
  receivedAt: Date;
  clientId: string | null;
  requestHash: string | null;
  lines: NewLine[];
  /**
   * The student's account in `session` before this receipt (ruling 26): every line for that session
   * is checked against what is still due there. Null only for a receipt of carried balances alone,
   * which `carriedPaymentLines` caps.
   */
  dues: SessionAccount | null;
}

/** A stable fingerprint of what a request asked for: the same clientId must always mean the same save. */
export function requestFingerprint(value: unknown): string {
  const stable = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(stable);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, stable((v as Record<string, unknown>)[k])]));
    }
    return v ?? null;
  };
  return createHash('sha256').update(JSON.stringify(stable(value))).digest('hex');
}

export const REUSED_CLIENT_ID_MESSAGE =
  'This save was already recorded with different amounts (the same clientId was used). Refresh the page to see what was saved.';

/**
 * Ruling 5: a request whose clientId was already applied answers with the receipt it made, and
 * changes nothing. Call it after taking the student's ledger lock, so a simultaneous retry waits
 * for the first request and then finds its receipt.
 */
export async function replayed(tx: Db, { schoolId, clientId, hash }: { schoolId: string; clientId: string | null; hash: string }): Promise<ReceiptWithLines | null> {
  if (!clientId) return null;
  return replayedOf(await findReceiptByClientId(tx, { schoolId, clientId }), hash);
}

/** `replayed` from the receipt the clientId made, already read (`receiptByClientIdRead`). */
export function replayedOf(seen: ReceiptWithLines | undefined, hash: string): ReceiptWithLines | null {
  if (!seen) return null;
  if (seen.receipt.requestHash !== hash) throw conflict(REUSED_CLIENT_ID_MESSAGE);
  return seen;
}

/** The read of the receipt a clientId made, or none without a clientId; beside a save's other reads. */
export function replayRead({ schoolId, clientId }: { schoolId: Bound; clientId: Bound | null }): Read<ReceiptWithLines> {
  return onlyIf(clientId !== null, { seen: receiptByClientIdRead({ schoolId, clientId: clientId ?? '' }) }).seen;
}

/**
 * Who writes a receipt: a signed-in request, or the system on the school's behalf (an online
 * payment confirmed by the gateway's callback or webhook, which names its "Received by").
 */
export type ReceiptActor = FastifyRequest | Exclude<AuditActor, FastifyRequest>;

const userIdOf = (actor: ReceiptActor): string | null => ('headers' in actor ? (actor.auth?.userId ?? null) : (actor.userId ?? null));

/** The user whose name a receipt shows as "Received by" when none was given: who saves it; null when a name was given. */
export const receiverIdOf = (actor: ReceiptActor, receivedBy: string | null): string | null => (receivedBy ? null : userIdOf(actor));

/**
 * What a receipt's one write needs to have read, after the student's ledger lock: the running
 * balances' inputs of the student (decision 0041) and the name of who received the money. A save
 * puts these beside its own reads in its one `readAtOnce` (`plans` is the fee screen's read under the
 * same name; the fee screen reads only its student's structures, as `studentStructures`).
 */
export function receiptWriteReads({ schoolId, studentId, userId }: { schoolId: Bound; studentId: Bound; userId: Bound | null }) {
  return {
    ...balanceInputReads({ schoolId, studentIds: { one: studentId } }),
    receivedByUser: read(
      userId ? sql`select username from ${users} where id = ${userId} limit 1` : sql`select null::text as username where false`,
      (r) => String(r.username),
    ),
  };
}

export interface ReceiptPrereads {
  balances: BalanceInputs;
  receivedBy: string;
}

export function receiptPrereadsOf(rows: ReadRows<ReturnType<typeof receiptWriteReads>>, given: string | null): ReceiptPrereads {
  return { balances: balanceInputsFrom(rows), receivedBy: given ? given : (rows.receivedByUser[0] ?? 'School office') };
}

/**
 * Writes one receipt and its lines inside the caller's transaction, in ONE statement (issue 14,
 * decision 0049): the counter row is taken (ruling 4), the receipt and its lines inserted, the
 * student's running balances stored and the audit row written. Everything it depends on was read
 * before (`prereads`, read after the ledger lock; read here when the caller did not), and the
 * balances are computed in memory from those inputs plus the new lines, so the counter row, which
 * every receipt of the school and prefix waits on, is held from this statement to COMMIT only.
 * A rollback gives the number back, so numbers stay consecutive with no gaps and no repeats.
 *
 * `endsTransaction`: the caller writes nothing after the receipt; in a pipelined ledger transaction
 * (`inLedgerTransaction`) the write then commits it (see `executeAndCommit`).
 */
export async function writeReceipt(
  tx: Db,
  request: ReceiptActor,
  input: NewReceipt,
  prereads?: ReceiptPrereads,
  { endsTransaction = false }: { endsTransaction?: boolean } = {},
): Promise<ReceiptWithLines> {
  assertWithinDues(input);
  const pre =
    prereads ??
    receiptPrereadsOf(
      await readAtOnce(tx, receiptWriteReads({ schoolId: input.schoolId, studentId: input.student.id, userId: receiverIdOf(request, input.details.receivedBy) })),
      input.details.receivedBy,
    );
  // inputs of another student would store their balances as this one's and delete the rest
  if (!pre.balances.students.some((s) => s.id === input.student.id)) throw new Error('the pre-read balances are not of the receipt\'s student');
  const total = paise(input.lines.reduce((s, l) => s + l.amount, 0));
  const numbering = numberingSession(input, pre.balances.sessions.values());
  const academicYear = numbering.name;
  const added = input.lines.map((l) => ({ sessionId: l.sessionId, line: { head: l.head, period: l.period, amount: l.amount, paidOn: l.paidOn } }));
  const balances = oneStudentBalanceValues(input.student.id, computeBalances(withReceiptLines(pre.balances, input.student.id, added)));
  const who = auditWho(request);
  const receivedAt = input.receivedAt.toISOString();
  const after = {
    studentId: input.student.id,
    studentName: input.student.name,
    source: input.source,
    paymentMode: input.details.paymentMode,
    total,
    lines: input.lines.map((l) => ({ head: l.head, period: l.period, amountPaise: l.amount, paidOn: l.paidOn, sessionId: l.sessionId })),
    clientId: input.clientId,
  };
  const lines = input.lines.map((l, position) => ({ position, session_id: l.sessionId, head: l.head, period: l.period, amount_paise: l.amount, paid_on: l.paidOn }));
  // a save that commits with its write raises the school's data version in it too (stats/versions.ts)
  const raisesVersion = endsTransaction && 'headers' in request && request.auth?.schoolId === input.schoolId;
  const values: Record<ReceiptValue, unknown> = {
    schoolId: input.schoolId,
    prefix: input.prefix,
    academicYear,
    numberStem: receiptNumberStem(input.prefix, academicYear),
    numberDigits: RECEIPT_SEQUENCE_DIGITS,
    source: input.source,
    studentId: input.student.id,
    sessionId: numbering.id,
    studentName: input.student.name,
    className: input.placement.className,
    section: input.placement.section,
    rollNumber: input.placement.rollNumber,
    paymentMode: input.details.paymentMode,
    chequeNumber: input.details.chequeNumber,
    bankName: input.details.bankName,
    upiReference: input.details.upiReference,
    transactionReference: input.details.transactionReference,
    receivedBy: pre.receivedBy,
    receivedByUserId: userIdOf(request),
    receivedAt,
    total,
    clientId: input.clientId,
    requestHash: input.requestHash,
    lines: JSON.stringify(lines),
    auditSchoolId: who.schoolId,
    auditUserId: who.userId,
    audit: JSON.stringify(after),
    ip: who.ip,
  };
  // one named prepared statement, assembled once per shape (decision 0086); a save whose last
  // statement this is commits with it, so the counter row is released as soon as PostgreSQL has
  // written the receipt (executeAndCommit, decision 0052)
  const write = receiptStatement({ ...balances.shape, raisesVersion });
  const all = { ...balances.values, ...values };
  const result = await (endsTransaction ? write.runAndCommit(tx, all) : write.run(tx, all));
  if (raisesVersion) versionRaisedBy(request);
  const [row] = rowsOf<{ receipt: RawRow | string; lines: RawRow[] | string }>(result);
  const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  const receipt = receiptRow(json(row!.receipt));
  const written = json(row!.lines).map(lineRow);
  return {
    receipt,
    lines: written.map((line) => ({ ...line, academicYear: input.lines[line.position]!.academicYear ?? academicYear })),
  };
}

/** The values of a receipt's write beside its running balances' (`oneStudentBalanceValues`). */
type ReceiptValue =
  | 'schoolId' | 'prefix' | 'academicYear' | 'numberStem' | 'numberDigits' | 'source' | 'studentId' | 'sessionId' | 'studentName'
  | 'className' | 'section' | 'rollNumber' | 'paymentMode' | 'chequeNumber' | 'bankName' | 'upiReference' | 'transactionReference'
  | 'receivedBy' | 'receivedByUserId' | 'receivedAt' | 'total' | 'clientId' | 'requestHash' | 'lines' | 'auditSchoolId' | 'auditUserId'
  | 'audit' | 'ip';

/**
 * A receipt's one write (see `writeReceipt`), assembled once per shape: which of the student's
 * balance rows it stores, and whether it raises the school's data version. The counter row is taken,
 * the receipt and its lines inserted, the running balances stored and the audit row written.
 */
const receiptStatement = memoByShape((shape: OneStudentBalanceShape & { raisesVersion: boolean }) =>
  writeStatement<string>((p) => {
    const statements = oneStudentBalanceSql(p, p.schoolId!, shape).map((statement, i) => sql`, ${sql.identifier(`balances_${i}`)} as (${statement})`);
    if (shape.raisesVersion) statements.push(sql`, version_raised as (${raiseSchoolVersion(p.schoolId!)})`);
    return sql`
    with counter as (
      insert into ${receiptCounters} (school_id, prefix, academic_year, last_number)
      values (${p.schoolId}::uuid, ${p.prefix}, ${p.academicYear}, 1)
      on conflict (school_id, prefix, academic_year) do update set last_number = ${receiptCounters}.last_number + 1
      returning last_number
    ),
    receipt as (
      insert into ${receipts} (school_id, receipt_number, prefix, academic_year, sequence, source, student_id, session_id, student_name,
        class_name, section, roll_number, payment_mode, cheque_number, bank_name, upi_reference, transaction_reference, received_by,
        received_by_user_id, received_at, total_paise, client_id, request_hash, created_at)
      select ${p.schoolId}::uuid,
        ${p.numberStem} || lpad(c.last_number::text, greatest(${p.numberDigits}::int, length(c.last_number::text)), '0'),
        ${p.prefix}, ${p.academicYear}, c.last_number, ${p.source}, ${p.studentId}::uuid, ${p.sessionId}::uuid, ${p.studentName},
        ${p.className}, ${p.section}, ${p.rollNumber}::int, ${p.paymentMode},
        ${p.chequeNumber}::text, ${p.bankName}::text, ${p.upiReference}::text, ${p.transactionReference}::text,
        ${p.receivedBy}, ${p.receivedByUserId}::uuid, ${p.receivedAt}::timestamptz, ${p.total}::bigint, ${p.clientId}::text, ${p.requestHash}::text,
        ${p.receivedAt}::timestamptz
      from counter c
      returning *
    ),
    lines as (
      insert into ${receiptLines} (school_id, position, receipt_id, student_id, session_id, head, period, amount_paise, paid_on, created_at)
      select ${p.schoolId}::uuid, x.position, r.id, ${p.studentId}::uuid, x.session_id, x.head, x.period, x.amount_paise, x.paid_on, ${p.receivedAt}::timestamptz
      from receipt r
      cross join jsonb_to_recordset(${p.lines}::jsonb) as x(position smallint, session_id uuid, head text, period text, amount_paise bigint, paid_on date)
      returning *
    )${sql.join(statements, sql``)},
    audited as (
      insert into ${auditLog} (school_id, user_id, action, entity, entity_id, before, after, ip)
      select ${p.auditSchoolId}::uuid, ${p.auditUserId}::uuid, 'receipt.create', 'receipt', r.id::text, null,
        jsonb_set(${p.audit}::jsonb, '{receiptNumber}', to_jsonb(r.receipt_number)), ${p.ip}::text
      from receipt r
    )
    select (select row_to_json(r.*) from receipt r) as receipt,
           (select coalesce(json_agg(l.* order by l.position), '[]'::json) from lines l) as lines`;
  }),
);

const receiptRow = tableRowParser(receipts);
const lineRow = tableRowParser(receiptLines);

/**
 * The session a receipt is numbered in: the one its fees belong to, unless that session has not
 * begun on the day of payment (fees paid in March for a session started early): then the session
 * running that day, so no receipt carries the number series of a year that has not begun.
 */
function numberingSession(input: NewReceipt, sessions: Iterable<SessionRow>): SessionRow {
  const day = indiaDate(input.receivedAt);
  if (input.session.startDate <= day) return input.session;
  const running = [...sessions]
    .filter((s) => s.schoolId === input.schoolId && s.startDate <= day && s.endDate >= day)
    .sort((a, b) => b.startDate.localeCompare(a.startDate))[0];
  return running ?? input.session;
}

/**
 * Ruling 26 at the one place every receipt passes: per head and period, what is received never
 * exceeds what is due. Callers hold the student's ledger lock and read `dues` after taking it, so two
 * clerks paying the same month at once take turns and the second is refused here.
 */
function assertWithinDues(input: NewReceipt): void {
  const claims = input.lines.filter((l) => !isBalanceHead(l.head));
  if (claims.length === 0) return;
  if (claims.some((l) => l.sessionId !== input.session.id)) throw new Error('a fee line names another session than its receipt');
  if (!input.dues) throw new Error('a receipt with fee lines needs the account it pays into');
  const over = findOverpayment(input.dues, claims);
  if (over) {
    throw conflict(overpaymentMessage(over, input.session.name), {
      head: over.head,
      month: over.due.period,
      due: toRupeeString(over.due.due),
      received: toRupeeString(over.due.received),
      remaining: toRupeeString(over.due.remaining),
    });
  }
}

/** The next number a prefix would get, without taking it (the preview of generate-receipt-number). */
export async function peekReceiptNumber(db: Db, { schoolId, prefix, academicYear }: { schoolId: string; prefix: ReceiptPrefix; academicYear: string }): Promise<string> {
  const [row] = await db
    .select({ lastNumber: receiptCounters.lastNumber })
    .from(receiptCounters)
    .where(and(eq(receiptCounters.schoolId, schoolId), eq(receiptCounters.prefix, prefix), eq(receiptCounters.academicYear, academicYear)))
    .limit(1);
  return formatReceiptNumber(prefix, academicYear, (row?.lastNumber ?? 0) + 1);
}

/**
 * Runs a ledger write in one transaction. Two requests with the same clientId for different
 * students hold different student locks, so the second can only notice the first at the unique
 * index: it is then run once more, and finds the first's receipt to answer with.
 */
export async function inLedgerTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  // pipelined: the lock and the read behind it go with BEGIN, the last write with COMMIT (decision 0054)
  try {
    return await inPipelinedTransaction(db, fn);
  } catch (error) {
    if (isUniqueViolation(error)) return inPipelinedTransaction(db, fn);
    throw error;
  }
}
