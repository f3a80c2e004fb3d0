import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { headDue } from '../../domain/fees';
import { monthLabel, type FeeHead } from '../../domain/ledger';
import { toRupeeString, type Paise } from '../../domain/money';
import { OPENING_MESSAGES, paidMonthsProblems, type OpeningHead } from '../../domain/opening';
import { indiaDate, sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { openingBalances, receipts } from '../db/schema';
import { audit } from '../lib/audit';
import { badRequest, conflict } from '../lib/errors';
import { accountFor, assertOpenForFees, loadStudentSession, structureMissingMessage } from '../fees/context';
import { lockStudentLedger } from '../fees/locks';
import type { ReceiptWithLines, StudentRow } from '../fees/queries';
import { writeReceipt, type NewLine } from '../fees/writer';
import { refreshBalances } from '../balances/refresh';

/** The name printed as "Received by" on an opening receipt: nobody at this counter received it. */
export const OPENING_RECEIVED_BY = 'Opening entry (old register)';

/** Whether the student already has live opening entries (arrears or an OPN receipt): never doubled. */
export async function hasOpeningEntries(db: Db, { schoolId, studentId }: { schoolId: string; studentId: string }): Promise<boolean> {
  const result = await db.execute(sql`select (
      exists (select 1 from ${openingBalances} o where o.school_id = ${schoolId} and o.student_id = ${studentId} and o.cancelled_at is null)
      or exists (select 1 from ${receipts} r where r.school_id = ${schoolId} and r.student_id = ${studentId} and r.source = 'opening' and r.status = 'live')
    ) as has`);
  return Boolean((result.rows[0] as { has?: boolean } | undefined)?.has);
}

export interface OpeningRequest {
  schoolId: string;
  student: StudentRow;
  arrears: Array<{ head: OpeningHead; amount: Paise }>;
  /**
   * `list`: exactly these months (the dialog), each must still have something due;
   * `through`: every month of the session up to this one that still has something due (the import).
   */
  months: { list: string[] } | { through: string } | null;
  note: string;
  now: Date;
}

export interface OpeningResult {
  arrearIds: string[];
  receipt: ReceiptWithLines | null;
  monthsPaid: string[];
}

/**
 * Enters one student's opening balance inside the caller's transaction: the arrears rows, and the
 * months already paid as one OPN receipt through `writeReceipt` (ledger lock, ruling 26, gapless
 * numbering). Refuses a student who already has opening entries.
 */
export async function enterOpening(tx: Db, request: FastifyRequest, input: OpeningRequest): Promise<OpeningResult> {
  const { schoolId, student, now } = input;
  await lockStudentLedger(tx, { schoolId, studentId: student.id });
  if (await hasOpeningEntries(tx, { schoolId, studentId: student.id })) throw conflict(OPENING_MESSAGES.already(student.name));
  const ctx = await loadStudentSession(tx, { schoolId, studentId: student.id });
  const today = indiaDate(now);
  const currentMonth = today.slice(0, 7);

  let monthsPaid: string[] = [];
  let receipt: ReceiptWithLines | null = null;
  if (input.months) {
    assertOpenForFees(ctx);
    if (!ctx.structure) throw badRequest(structureMissingMessage(ctx.placement.className, ctx.session.name));
    const months = sessionMonths(ctx.session.startDate, ctx.session.endDate);
    const account = accountFor(ctx, currentMonth);
    const keys = 'list' in input.months ? input.months.list : months.filter((m) => m.key <= (input.months as { through: string }).through).map((m) => m.key);
    const asked = 'list' in input.months ? input.months.list : [input.months.through];
    const problems = paidMonthsProblems(asked, { months, currentMonth, sessionName: ctx.session.name, label: monthLabel });
    if (problems.length > 0) throw badRequest(problems.join('; '), { problems });
    const lines: NewLine[] = [];
    for (const key of keys) {
      const before = lines.length;
      for (const head of ['tuition', 'bus'] as const) {
        const { remaining } = headDue(account, head, key);
        if (remaining > 0) lines.push({ head: head as FeeHead, period: key, amount: remaining, paidOn: today, sessionId: ctx.session.id });
      }
      if (lines.length > before) monthsPaid.push(key);
      else if ('list' in input.months) throw badRequest(OPENING_MESSAGES.monthNothingDue(monthLabel(key)));
    }
    if (lines.length > 0) {
      receipt = await writeReceipt(tx, request, {
        schoolId,
        prefix: 'OPN',
        source: 'opening',
        session: ctx.session,
        student: ctx.student,
        placement: ctx.placement,
        details: { paymentMode: 'cash', chequeNumber: null, bankName: null, upiReference: null, transactionReference: null, receivedBy: OPENING_RECEIVED_BY },
        receivedAt: now,
        clientId: null,
        requestHash: null,
        lines,
        dues: account,
      });
    }
  } else {
    monthsPaid = [];
  }

  const arrearIds: string[] = [];
  if (input.arrears.length > 0) {
    const rows = await tx
      .insert(openingBalances)
      .values(
        input.arrears.map((a) => ({
          schoolId,
          studentId: student.id,
          sessionId: ctx.session.id,
          head: a.head,
          amountPaise: a.amount,
          note: input.note,
          createdBy: request.auth?.userId ?? null,
          createdAt: now,
        })),
      )
      .returning({ id: openingBalances.id });
    arrearIds.push(...rows.map((r) => r.id));
  }
  if (arrearIds.length === 0 && !receipt) throw badRequest(OPENING_MESSAGES.nothing);
  if (arrearIds.length > 0) await refreshBalances(tx, { schoolId, studentIds: [student.id] });
  await audit(tx, request, {
    action: 'opening.enter',
    entity: 'student',
    entityId: student.id,
    before: null,
    after: {
      studentName: student.name,
      arrears: input.arrears.map((a) => ({ head: a.head, amount: toRupeeString(a.amount) })),
      monthsPaid,
      receiptNumber: receipt?.receipt.receiptNumber ?? null,
      note: input.note,
    },
  });
  return { arrearIds, receipt, monthsPaid };
}

/** Live opening arrears rows of a student (for the cancel check). */
export async function liveArrearRows(tx: Db, { schoolId, studentId }: { schoolId: string; studentId: string }) {
  return tx
    .select()
    .from(openingBalances)
    .where(and(eq(openingBalances.schoolId, schoolId), eq(openingBalances.studentId, studentId), isNull(openingBalances.cancelledAt)));
}
