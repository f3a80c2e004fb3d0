import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { allocateToMonths, headDue, type SessionAccount } from '../../domain/fees';
import {
  FEE_PAYMENT_REQUIRED_MESSAGE,
  FEE_PAYMENT_TYPES,
  FEE_TYPE_HEAD,
  feePaymentSchema,
  HEAD_LABELS,
  indiaMonthKey,
  isMonthlyHead,
  monthLabel,
  parseMonthInput,
  RECEIPT_PREFIXES,
  receiptNumberRequestSchema,
} from '../../domain/ledger';
import { formatINR, paise, type Paise } from '../../domain/money';
import { indiaDate, sessionMonths } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { badRequest, conflict, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import {
  accountFor,
  assertOpenForFees,
  carriedPaymentLinesOf,
  checkPaidOn,
  defaultSessionOf,
  scheduleFor,
  studentSessionFrom,
} from './context';
import { money, receiptDto, toReceiptDto, type ReceiptDto } from './dto';
import { fineOf, lateFineRuleFrom } from '../policy/fines';
import { readUnderStudentLock } from './locks';
import { carriedFrom, findActiveSession, listReceipts, requireSessionByYear } from './queries';
import { inLedgerTransaction, peekReceiptNumber, receiptPrereadsOf, replayedOf, requestFingerprint, writeReceipt, type NewLine } from './writer';
import { readForSave } from './save-reads';

/** A receipt as Record Fee Payment shows it: the spec's { studentId, fees, totalPaid } plus the receipt. */
export const feePaymentDto = receiptDto.extend({
  fees: z.array(z.object({ type: z.enum(FEE_PAYMENT_TYPES), amount: money, month: z.string().nullable().describe('2025-04 for monthly and transport') })),
  totalPaid: money,
});

export function toFeePaymentDto(receipt: ReceiptDto): z.infer<typeof feePaymentDto> {
  return {
    ...receipt,
    fees: receipt.lines.map((l) => ({ type: l.feeType, amount: l.amount, month: l.period })),
    totalPaid: receipt.total,
  };
}

const listQuery = z.object({
  studentId: z.string().trim().max(100).optional(),
  prefix: z.enum(RECEIPT_PREFIXES).optional(),
  status: z.enum(['live', 'cancelled']).optional(),
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'from must be YYYY-MM-DD').optional(),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'to must be YYYY-MM-DD').optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Every month of the session together has less left for the head than the payment. */
function monthsFullMessage(account: SessionAccount, head: 'tuition' | 'bus', amount: Paise, sessionName: string): string {
  const left = paise(account.months.reduce((s, m) => s + headDue(account, head, m.key).remaining, 0));
  const what = `${HEAD_LABELS[head]} for the ${sessionName} session`;
  if (left === 0) return `${what} is already paid for every month. A fee cannot be paid twice.`;
  return `${what}: only ${formatINR(left)} is still due over all its months; ${formatINR(amount)} is more than that.`;
}

const saveResponse = z.object({ message: z.string(), replayed: z.boolean(), receipt: feePaymentDto });

export async function feePaymentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/fees',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['fees'],
        summary: 'Fee payments (every receipt of the school, newest first), with filters',
        description: 'Cancelled receipts are included (status "cancelled") unless status=live is asked for. from/to are India dates of receipt.',
        security: [{ bearer: [] }],
        querystring: listQuery,
        response: { 200: z.array(feePaymentDto), 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const q = request.query;
      if (q.studentId && !isUuid(q.studentId)) return [];
      const rows = await listReceipts(db, { schoolId, ...q });
      return rows.map((r) => toFeePaymentDto(toReceiptDto(r)));
    },
  );

  app.post(
    '/api/fees',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.collect' },
      schema: {
        tags: ['fees'],
        summary: 'Record Fee Payment: one FEE receipt with a line per fee type',
        description:
          'fees: [{ type, amount, month? }]. monthly is tuition and transport is the bus fee: both pay a month of the student\'s session (month "2025-04" or "April 2025"; when absent, the months still short, oldest first, each up to its due). previous_balance pays balances carried from earlier sessions, oldest first, and is the only type accepted for a passout. totalPaid, when sent, must equal the sum. Idempotent on clientId.',
        security: [{ bearer: [] }],
        body: feePaymentSchema,
        response: { 200: saveResponse, 201: saveResponse, 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const body = request.body;
      const now = clock.now();
      const today = indiaDate(now);
      const fees = body.fees.filter((f): f is typeof f & { amount: Paise } => Boolean(f.amount && f.amount > 0));
      if (fees.length === 0) throw badRequest(FEE_PAYMENT_REQUIRED_MESSAGE);
      const sum = paise(fees.reduce((s, f) => s + f.amount, 0));
      if (body.totalPaid !== null && body.totalPaid !== sum) {
        throw badRequest(`Total paid (${formatINR(body.totalPaid)}) does not match the selected fee amounts (${formatINR(sum)})`);
      }
      const paidOn = body.paidOn ?? today;
      if (paidOn > today) throw badRequest(`The payment date (${paidOn}) cannot be in the future`);
      const hash = requestFingerprint({
        kind: 'fee_payment',
        studentId: body.studentId,
        fees: fees.map((f) => [f.type, f.amount, f.month ?? null]),
        paidOn,
        mode: [body.paymentMode, body.chequeNumber, body.bankName, body.upiReference, body.transactionReference],
      });

      const current = fees.filter((f) => f.type !== 'previous_balance');
      const carriedAmount = paise(fees.filter((f) => f.type === 'previous_balance').reduce((s, f) => s + f.amount, 0));
      const fineTotal = current.filter((f) => f.type === 'fine').reduce((s, f) => s + f.amount, 0);

      const result = await inLedgerTransaction(db, async (tx) => {
        const studentId = body.studentId;
        if (!isUuid(studentId)) throw notFound('Student not found');
        // everything the payment depends on, in one statement after the lock (decision 0049)
        const rows = await readUnderStudentLock(tx, { schoolId, studentId }, () =>
          readForSave(tx, { schoolId, studentId, clientId: body.clientId, actor: request, receivedBy: body.receivedBy, carried: carriedAmount > 0, fine: fineTotal > 0, left: true }),
        );
        const student = rows.student[0];
        if (!student) throw notFound('Student not found');
        const seen = replayedOf(rows.seen[0], hash);
        if (seen) return { receipt: seen, replayed: true };

        const lines: NewLine[] = [];
        let session;
        let placement;
        let dues: SessionAccount | null = null;
        if (student.status === 'passout') {
          if (current.length > 0) {
            throw conflict(`${student.name} has left the school (passouts): only their outstanding balance can be collected, as previous_balance.`);
          }
          const left = rows.leftFrom[0];
          session =
            rows.sessions.find((s) => s.isActive) ?? (left ? rows.sessions.find((s) => s.id === left) : undefined) ?? defaultSessionOf(student, rows.sessions);
          placement = { className: student.className, section: student.section, rollNumber: student.rollNumber };
        } else {
          const ctx = studentSessionFrom(rows, { schoolId, studentId });
          session = ctx.session;
          placement = ctx.placement;
          if (current.length > 0) {
            assertOpenForFees(ctx);
            checkPaidOn(paidOn, { session, today, what: 'this payment' });
            const months = new Set(sessionMonths(session.startDate, session.endDate).map((m) => m.key));
            dues = accountFor(ctx, indiaMonthKey(now));
            const sessionId = ctx.session.id;
            if (fineTotal > 0) {
              // a fine is collected up to today's fine, the same figure fee status shows (issue 16)
              const fine = fineOf({ rule: lateFineRuleFrom(rows.fineRule), waivedKeys: new Set(rows.waivers), account: dues, asOf: today, schedule: scheduleFor(ctx) });
              if (fineTotal > fine.due) {
                throw conflict(`Late Fine: only ${formatINR(fine.due)} is due today (${fine.explanation}); ${formatINR(paise(fineTotal))} is more than that.`);
              }
            }
            for (const fee of current) {
              const head = FEE_TYPE_HEAD[fee.type];
              if (isMonthlyHead(head) && !fee.month) {
                // "Earliest unpaid month": the payment settles months oldest first, each up to its due
                const spread = allocateToMonths(dues, head, fee.amount);
                if (!spread) throw conflict(monthsFullMessage(dues, head, fee.amount, session.name));
                lines.push(...spread.map((c) => ({ ...c, paidOn, sessionId })));
                continue;
              }
              let period: string | null = null;
              if (isMonthlyHead(head)) {
                period = parseMonthInput(fee.month!);
                if (!period) throw badRequest(`"${fee.month!.slice(0, 20)}" is not a month: use 2025-04 or April 2025`);
                if (!months.has(period)) throw badRequest(`${monthLabel(period)} is not a month of the ${session.name} session`);
              } else if (fee.month) {
                throw badRequest(`${HEAD_LABELS[head]} is not paid per month: leave its month empty`);
              }
              lines.push({ head, period, amount: fee.amount, paidOn, sessionId });
            }
          }
        }
        if (carriedAmount > 0) {
          lines.push(...carriedPaymentLinesOf(carriedFrom(rows), { student, amount: carriedAmount, paidOn }));
        }
        // nothing is written after the receipt: its write commits the transaction (decision 0052)
        const receipt = await writeReceipt(tx, request, {
          schoolId,
          prefix: 'FEE',
          source: 'fee_payment',
          session,
          student,
          placement,
          details: body,
          receivedAt: now,
          clientId: body.clientId,
          requestHash: hash,
          lines,
          dues,
        }, receiptPrereadsOf(rows, body.receivedBy), { endsTransaction: true });
        return { receipt, replayed: false };
      });

      reply.status(result.replayed ? 200 : 201);
      return { message: 'Payment recorded successfully', replayed: result.replayed, receipt: toFeePaymentDto(toReceiptDto(result.receipt)) };
    },
  );

  app.post(
    '/api/generate-receipt-number',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.collect', allowWhenExpired: true },
      schema: {
        tags: ['fees'],
        summary: 'Preview the next receipt number of a prefix (takes no number)',
        description:
          'A preview: the number the next receipt of that prefix and academic year will get if nothing else is saved first. It reserves nothing, so numbering stays gapless; the number a receipt really carries is allocated when it is saved and returned in the save\'s receipt.receiptNumber, which is what a printed receipt shows.',
        security: [{ bearer: [] }],
        body: receiptNumberRequestSchema,
        response: {
          200: z.object({ receiptNumber: z.string(), prefix: z.enum(RECEIPT_PREFIXES), academicYear: z.string(), reserved: z.literal(false) }),
          400: errorDto,
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { prefix, academicYear } = request.body;
      const session = academicYear
        ? await requireSessionByYear(db, { schoolId, year: academicYear })
        : await findActiveSession(db, { schoolId });
      if (!session) throw badRequest('Create an academic session under Session Management first.');
      const receiptNumber = await peekReceiptNumber(db, { schoolId, prefix, academicYear: session.name });
      return { receiptNumber, prefix, academicYear: session.name, reserved: false as const };
    },
  );
}
