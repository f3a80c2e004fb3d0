import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HEAD_LABELS,
  indiaMonthKey,
  NO_NEW_DATA_MESSAGE,
  SELECT_STUDENT_MESSAGE,
  YEARLY_EMPTY_MESSAGE,
  yearlyAmounts,
  yearlyEntrySchema,
  yearlyLockedMessage,
  type YearlyHead,
} from '../../domain/ledger';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { badRequest, conflict, notFound } from '../lib/errors';
import {
  accountFor,
  assertOpenForFees,
  linesAfter,
  checkPaidOn,
  loadStudentSession,
  structureMissingMessage,
  studentSessionFrom,
  type StudentSession,
} from './context';
import { structureAmounts } from './queries';
import { receiptDto, structureDto, toReceiptDto, toStructureDto } from './dto';
import { yearlyEntry, yearlyEntryDto } from './entries';
import { readUnderStudentLock } from './locks';
import { inLedgerTransaction, receiptPrereadsOf, replayedOf, requestFingerprint, writeReceipt, type NewLine } from './writer';
import { readForSave } from './save-reads';
import { isUuid } from '../lib/ids';

const getQuery = z.object({
  studentId: z.string().trim().min(1, SELECT_STUDENT_MESSAGE).max(100),
  year: z.string().trim().max(20).optional().describe('the academic year, 2025-2026 (also 2025-26 or 2025); the student\'s session when absent'),
  academicYear: z.string().trim().max(20).optional().describe('the same as year'),
});

const saveResponse = z.object({
  message: z.string().describe('"Yearly fee data saved successfully!"'),
  replayed: z.boolean(),
  receipt: receiptDto,
  entry: yearlyEntryDto,
});

/** Each yearly head's due for the student's class in the session, or null without a structure. */
function yearlyDues(ctx: StudentSession): Record<YearlyHead, number> | null {
  return ctx.structure ? structureAmounts(ctx.structure).yearly : null;
}

export async function yearlyFeeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/yearly-fee-entries',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['fees'],
        summary: 'The yearly fee entry of a student and session (five cards), read from the ledger',
        description: 'Always answers an entry: fields of heads with nothing received are null and exists is false when nothing is recorded. structure is the class fee structure of that session (expected amounts).',
        security: [{ bearer: [] }],
        querystring: getQuery,
        response: { 200: yearlyEntryDto.and(z.object({ structure: structureDto })), 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { studentId } = request.query;
      const ctx = await loadStudentSession(db, { schoolId, studentId, academicYear: request.query.year ?? request.query.academicYear });
      return { ...yearlyEntry(studentId, ctx.session, ctx.lines, yearlyDues(ctx)), structure: toStructureDto(ctx.structure) };
    },
  );

  app.post(
    '/api/yearly-fee-entries',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.collect' },
      schema: {
        tags: ['fees'],
        summary: 'Save the yearly fee cards: one YRL receipt with a line per head entered',
        description:
          'Idempotent on clientId. A head paid in full is locked (selective protection): another amount for it is refused with 409 "This {yearly/exam/...} fee cannot be modified once entered for the current academic year."; the saved amount sent again is ignored, and empty heads stay open. A head with part of its due received (partialFees) takes the amount sent as a further payment, up to what is still due (ruling 26: more is refused with 409).',
        security: [{ bearer: [] }],
        body: yearlyEntrySchema,
        response: { 200: saveResponse, 201: saveResponse, 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const body = request.body;
      const now = clock.now();
      const today = indiaDate(now);
      const amounts = yearlyAmounts(body);
      if (!amounts.some((a) => a.amount && a.amount > 0)) throw badRequest(YEARLY_EMPTY_MESSAGE);
      const hash = requestFingerprint({
        kind: 'yearly',
        studentId: body.studentId,
        academicYear: body.academicYear,
        amounts: amounts.map((a) => [a.head, a.amount, a.date]),
        mode: [body.paymentMode, body.chequeNumber, body.bankName, body.upiReference, body.transactionReference],
      });

      const result = await inLedgerTransaction(db, async (tx) => {
        if (!isUuid(body.studentId)) throw notFound('Student not found');
        // everything the save depends on, in one statement after the lock (decision 0049)
        const rows = await readUnderStudentLock(tx, { schoolId, studentId: body.studentId }, () =>
          readForSave(tx, { schoolId, studentId: body.studentId, academicYear: body.academicYear, clientId: body.clientId, actor: request, receivedBy: body.receivedBy }),
        );
        const ctx = studentSessionFrom(rows, { schoolId, studentId: body.studentId, academicYear: body.academicYear });
        const seen = replayedOf(rows.seen[0], hash);
        const dues = yearlyDues(ctx);
        if (seen) return { receipt: seen, replayed: true, session: ctx.session, lines: ctx.lines, dues };
        assertOpenForFees(ctx);
        if (!ctx.structure) throw badRequest(structureMissingMessage(ctx.placement.className, ctx.session.name));

        const lines: NewLine[] = [];
        let unchanged = 0;
        for (const { head, amount, date } of amounts) {
          if (!amount) continue;
          const saved = ctx.lines.filter((l) => l.head === head);
          const savedTotal = saved.reduce((s, l) => s + l.amount, 0);
          // a head paid in full is locked; a part-paid head takes the rest (ruling 26 caps it)
          if (savedTotal > 0 && savedTotal >= (dues?.[head] ?? 0)) {
            if (savedTotal === amount && (!date || saved.some((l) => l.paidOn === date))) {
              unchanged += 1;
              continue;
            }
            throw conflict(yearlyLockedMessage(head), { head });
          }
          const paidOn = date ?? today;
          checkPaidOn(paidOn, { session: ctx.session, today, what: `the ${HEAD_LABELS[head].toLowerCase()}` });
          lines.push({ head, period: null, amount, paidOn, sessionId: ctx.session.id });
        }
        if (lines.length === 0) throw badRequest(unchanged > 0 ? NO_NEW_DATA_MESSAGE : YEARLY_EMPTY_MESSAGE);
        // nothing is written after the receipt: its write commits the transaction (decision 0052)
        const receipt = await writeReceipt(tx, request, {
          schoolId,
          prefix: 'YRL',
          source: 'yearly',
          session: ctx.session,
          student: ctx.student,
          placement: ctx.placement,
          details: body,
          receivedAt: now,
          clientId: body.clientId,
          requestHash: hash,
          lines,
          dues: accountFor(ctx, indiaMonthKey(now)),
        }, receiptPrereadsOf(rows, body.receivedBy), { endsTransaction: true });
        return { receipt, replayed: false, session: ctx.session, lines: linesAfter(ctx, receipt), dues };
      });

      reply.status(result.replayed ? 200 : 201);
      return {
        message: 'Yearly fee data saved successfully!',
        replayed: result.replayed,
        receipt: toReceiptDto(result.receipt),
        entry: yearlyEntry(body.studentId, result.session, result.lines, result.dues),
      };
    },
  );
}
