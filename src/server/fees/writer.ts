import { createHash } from 'node:crypto';
import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { formatReceiptNumber, isBalanceHead, type FeeHead, type PaymentDetails, type ReceiptPrefix, type ReceiptSource } from '../../domain/ledger';
import { findOverpayment, overpaymentMessage, type SessionAccount } from '../../domain/fees';
import { paise, toRupeeString, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { academicSessions, receiptCounters, receiptLines, receipts, users } from '../db/schema';
import { indiaDate } from '../../domain/sessions';
import { audit, type AuditActor } from '../lib/audit';
import { conflict } from '../lib/errors';
import { isUniqueViolation } from '../lib/pg-errors';
import { findReceiptByClientId, type Placement, type ReceiptWithLines, type SessionRow, type StudentRow } from './queries';
import { refreshBalances } from '../balances/refresh';

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
  const seen = await findReceiptByClientId(tx, { schoolId, clientId });
  if (!seen) return null;
  if (seen.receipt.requestHash !== hash) throw conflict(REUSED_CLIENT_ID_MESSAGE);
  return seen;
}

/**
 * Who writes a receipt: a signed-in request, or the system on the school's behalf (an online
 * payment confirmed by the gateway's callback or webhook, which names its "Received by").
 */
export type ReceiptActor = FastifyRequest | Exclude<AuditActor, FastifyRequest>;

const userIdOf = (actor: ReceiptActor): string | null => ('headers' in actor ? (actor.auth?.userId ?? null) : (actor.userId ?? null));

async function receivedByName(tx: Db, request: ReceiptActor, given: string | null): Promise<string> {
  if (given) return given;
  const userId = userIdOf(request);
  if (!userId) return 'School office';
  const [row] = await tx.select({ username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.username ?? 'School office';
}

/**
 * Writes one receipt and its lines inside the caller's transaction. The number is taken from the
 * counter row in the same transaction (ruling 4): a rollback gives it back, and a simultaneous
 * receipt waits on the counter row, so numbers are consecutive with no gaps and no repeats.
 */
export async function writeReceipt(tx: Db, request: ReceiptActor, input: NewReceipt): Promise<ReceiptWithLines> {
  assertWithinDues(input);
  const total = paise(input.lines.reduce((s, l) => s + l.amount, 0));
  const receivedBy = await receivedByName(tx, request, input.details.receivedBy);
  const numbering = await numberingSession(tx, input);
  const academicYear = numbering.name;
  const [counter] = await tx
    .insert(receiptCounters)
    .values({ schoolId: input.schoolId, prefix: input.prefix, academicYear, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [receiptCounters.schoolId, receiptCounters.prefix, receiptCounters.academicYear],
      set: { lastNumber: sql`${receiptCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: receiptCounters.lastNumber });
  const sequence = counter!.lastNumber;
  const [receipt] = await tx
    .insert(receipts)
    .values({
      schoolId: input.schoolId,
      receiptNumber: formatReceiptNumber(input.prefix, academicYear, sequence),
      prefix: input.prefix,
      academicYear,
      sequence,
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
      receivedBy,
      receivedByUserId: userIdOf(request),
      receivedAt: input.receivedAt,
      totalPaise: total,
      clientId: input.clientId,
      requestHash: input.requestHash,
      createdAt: input.receivedAt,
    })
    .returning();
  const inserted = await tx.insert(receiptLines).values(
    input.lines.map((l, position) => ({
      schoolId: input.schoolId,
      position,
      receiptId: receipt!.id,
      studentId: input.student.id,
      sessionId: l.sessionId,
      head: l.head,
      period: l.period,
      amountPaise: l.amount,
      paidOn: l.paidOn,
      createdAt: input.receivedAt,
    })),
  ).returning();
  // the running balances of every session the lines pay, in this same transaction (decision 0041)
  await refreshBalances(tx, { schoolId: input.schoolId, studentIds: [input.student.id] });
  const full: ReceiptWithLines = {
    receipt: receipt!,
    lines: inserted.map((line, i) => ({ ...line, academicYear: input.lines[i]!.academicYear ?? academicYear })),
  };
  await audit(tx, request, {
    action: 'receipt.create',
    entity: 'receipt',
    entityId: receipt!.id,
    before: null,
    after: {
      receiptNumber: receipt!.receiptNumber,
      studentId: input.student.id,
      studentName: input.student.name,
      source: input.source,
      paymentMode: input.details.paymentMode,
      total,
      lines: input.lines.map((l) => ({ head: l.head, period: l.period, amountPaise: l.amount, paidOn: l.paidOn, sessionId: l.sessionId })),
      clientId: input.clientId,
    },
  });
  return full;
}

/**
 * The session a receipt is numbered in: the one its fees belong to, unless that session has not
 * begun on the day of payment (fees paid in March for a session started early): then the session
 * running that day, so no receipt carries the number series of a year that has not begun.
 */
async function numberingSession(tx: Db, input: NewReceipt): Promise<SessionRow> {
  const day = indiaDate(input.receivedAt);
  if (input.session.startDate <= day) return input.session;
  const [running] = await tx
    .select()
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, input.schoolId), lte(academicSessions.startDate, day), gte(academicSessions.endDate, day)))
    .orderBy(desc(academicSessions.startDate))
    .limit(1);
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
  try {
    return await db.transaction((tx) => fn(tx));
  } catch (error) {
    if (isUniqueViolation(error)) return db.transaction((tx) => fn(tx));
    throw error;
  }
}
