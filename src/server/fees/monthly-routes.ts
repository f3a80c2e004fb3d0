import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  indiaMonthKey,
  monthKey,
  monthlyBulkSchema,
  MONTHLY_LOCKED_MESSAGE,
  NO_DATA_MESSAGE,
  NO_NEW_DATA_MESSAGE,
  SELECT_STUDENT_MESSAGE,
  type MonthlyHead,
} from '../../domain/ledger';
import { MONTH_NAMES, indiaDate, sessionMonths } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { badRequest, conflict, notFound } from '../lib/errors';
import {
  accountFor,
  assertOpenForFees,
  linesAfter,
  carriedPaymentLinesOf,
  checkNotFuture,
  checkPaidOn,
  loadStudentSession,
  studentSessionFrom,
  monthWhat,
  structureMissingMessage,
} from './context';
import { carriedSummaryDto, receiptDto, toCarriedSummaryDto, toReceiptDto } from './dto';
import { monthlyEntries, monthlyEntryDto } from './entries';
import { readUnderStudentLock } from './locks';
import { carriedBalances, carriedFrom, summariseCarried } from './queries';
import { readForSave } from './save-reads';
import { inLedgerTransaction, receiptPrereadsOf, replayedOf, requestFingerprint, writeReceipt, type NewLine } from './writer';
import { isUuid } from '../lib/ids';

const listQuery = z.object({
  studentId: z.string().trim().min(1, SELECT_STUDENT_MESSAGE).max(100),
  academicYear: z.string().trim().max(20).optional().describe('2025-2026 (also 2025-26 or 2025); the student\'s session when absent'),
  withContinuity: z.enum(['true', 'false']).optional().describe('true: answer { entries, previousBalance }'),
});

const saveResponse = z.object({
  message: z.string().describe('"Monthly fee data saved successfully!"'),
  replayed: z.boolean().describe('true when this clientId was already applied: nothing new was written'),
  receipt: receiptDto,
  entries: z.array(monthlyEntryDto).describe('every month of the session with something received, after the save'),
});

export async function monthlyFeeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/monthly-fee-entries',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['fees'],
        summary: 'Monthly fee entries of a student and session, read from the ledger',
        description:
          'A plain list of the months with something received; with withContinuity=true an object { entries, previousBalance } where previousBalance is what is still owed from earlier sessions (the "Previous Balance Pending" banner).',
        security: [{ bearer: [] }],
        querystring: listQuery,
        response: {
          200: z.union([z.array(monthlyEntryDto), z.object({ entries: z.array(monthlyEntryDto), previousBalance: carriedSummaryDto })]),
          400: errorDto,
          404: errorDto,
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { studentId, academicYear, withContinuity } = request.query;
      const ctx = await loadStudentSession(db, { schoolId, studentId, academicYear });
      const entries = monthlyEntries(studentId, ctx.session, ctx.lines);
      if (withContinuity !== 'true') return entries;
      const carried = await carriedBalances(db, { schoolId, studentId });
      const earlier = summariseCarried(carried, (r) => (r.kind === 'opening' || r.sessionId !== ctx.session.id) && r.remaining > 0);
      return { entries, previousBalance: toCarriedSummaryDto(earlier) };
    },
  );

  app.post(
    '/api/monthly-fee-entries/bulk',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.collect' },
      schema: {
        tags: ['fees'],
        summary: 'Save the monthly fee grid: one MON receipt with a line per month and head',
        description:
          'Idempotent on clientId (the top-level one, else the entries\' clientIds together): a retry answers 200 with the same receipt and replayed=true. A month whose tuition or bus fee is already saved is locked: sending a different amount for it is refused with 409; sending the saved amount again is ignored. Amounts are rupees (strings or numbers, at most two decimals, at most ₹1,00,00,000 per line); dates YYYY-MM-DD within the session and not in the future (today when absent). previousBalancePaid pays the balance carried from earlier sessions on the same receipt.',
        security: [{ bearer: [] }],
        body: monthlyBulkSchema,
        response: { 200: saveResponse, 201: saveResponse, 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const body = request.body;
      const now = clock.now();
      const today = indiaDate(now);
      const entryKeys = body.entries.map((e) => e.clientId).filter((k): k is string => Boolean(k));
      const clientId = body.clientId ?? (entryKeys.length > 0 ? `entries:${requestFingerprint([...entryKeys].sort())}` : null);
      const hash = requestFingerprint({
        kind: 'monthly',
        studentId: body.studentId,
        academicYear: body.academicYear,
        entries: body.entries.map((e) => [e.month, e.year, e.tuitionFee, e.tuitionDate, e.busFee, e.busDate]),
        previousBalance: [body.previousBalancePaid, body.previousBalanceDate],
        mode: [body.paymentMode, body.chequeNumber, body.bankName, body.upiReference, body.transactionReference],
      });

      const result = await inLedgerTransaction(db, async (tx) => {
        const student = body.studentId;
        if (!isUuid(student)) throw notFound('Student not found');
        // lock first: a save for this student that is just finishing must be seen in full; then
        // everything the save depends on, in one statement (decision 0049) sent with the lock (0054)
        const rows = await readUnderStudentLock(tx, { schoolId, studentId: student }, () =>
          readForSave(tx, {
            schoolId,
            studentId: student,
            academicYear: body.academicYear,
            clientId,
            actor: request,
            receivedBy: body.receivedBy,
            carried: Boolean(body.previousBalancePaid),
          }),
        );
        const ctx = studentSessionFrom(rows, { schoolId, studentId: student, academicYear: body.academicYear });
        const seen = replayedOf(rows.seen[0], hash);
        if (seen) return { receipt: seen, replayed: true, session: ctx.session, lines: ctx.lines };
        assertOpenForFees(ctx);
        if (!ctx.structure) throw badRequest(structureMissingMessage(ctx.placement.className, ctx.session.name));

        const months = new Set(sessionMonths(ctx.session.startDate, ctx.session.endDate).map((m) => m.key));
        const saved = new Map<string, { amount: number; dates: Set<string> }>();
        for (const line of ctx.lines) {
          if (line.head !== 'tuition' && line.head !== 'bus') continue;
          const key = `${line.head}:${line.period}`;
          const cur = saved.get(key) ?? { amount: 0, dates: new Set<string>() };
          cur.amount += line.amount;
          cur.dates.add(line.paidOn);
          saved.set(key, cur);
        }

        const lines: NewLine[] = [];
        const seenMonths = new Set<string>();
        let unchanged = 0;
        for (const entry of body.entries) {
          if (entry.studentId && entry.studentId !== student) throw badRequest('Every entry must be for the selected student');
          const key = monthKey(entry.year, MONTH_NAMES.indexOf(entry.month) + 1);
          if (!months.has(key)) throw badRequest(`${entry.month} ${entry.year} is not a month of the ${ctx.session.name} session`);
          if (seenMonths.has(key)) throw badRequest(`${entry.month} ${entry.year} appears more than once in this save`);
          seenMonths.add(key);
          const heads: Array<[MonthlyHead, number | null, string | null]> = [
            ['tuition', entry.tuitionFee, entry.tuitionDate],
            ['bus', entry.busFee, entry.busDate],
          ];
          for (const [head, amount, date] of heads) {
            if (!amount) continue;
            const before = saved.get(`${head}:${key}`);
            if (before && before.amount > 0) {
              if (before.amount === amount && (!date || before.dates.has(date))) {
                unchanged += 1;
                continue;
              }
              throw conflict(MONTHLY_LOCKED_MESSAGE, { month: entry.month, year: entry.year, head });
            }
            const paidOn = date ?? today;
            checkPaidOn(paidOn, { session: ctx.session, today, what: monthWhat(head, key) });
            lines.push({ head, period: key, amount: amount as NewLine['amount'], paidOn, sessionId: ctx.session.id });
          }
        }
        if (body.previousBalancePaid) {
          const paidOn = body.previousBalanceDate ?? today;
          // a carried balance belongs to an earlier session: like Record Fee Payment, any date up to today
          checkNotFuture(paidOn, { today, what: 'the previous balance payment' });
          lines.push(...carriedPaymentLinesOf(carriedFrom(rows), { student: ctx.student, amount: body.previousBalancePaid, paidOn }));
        }
        if (lines.length === 0) throw badRequest(unchanged > 0 ? NO_NEW_DATA_MESSAGE : NO_DATA_MESSAGE);

        // nothing is written after the receipt: its write commits the transaction (decision 0052)
        const receipt = await writeReceipt(tx, request, {
          schoolId,
          prefix: 'MON',
          source: 'monthly',
          session: ctx.session,
          student: ctx.student,
          placement: ctx.placement,
          details: body,
          receivedAt: now,
          clientId,
          requestHash: hash,
          lines,
          dues: accountFor(ctx, indiaMonthKey(now)),
        }, receiptPrereadsOf(rows, body.receivedBy), { endsTransaction: true });
        return { receipt, replayed: false, session: ctx.session, lines: linesAfter(ctx, receipt) };
      });

      reply.status(result.replayed ? 200 : 201);
      return {
        message: 'Monthly fee data saved successfully!',
        replayed: result.replayed,
        receipt: toReceiptDto(result.receipt),
        entries: monthlyEntries(body.studentId, result.session, result.lines),
      };
    },
  );
}
