import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatINR, paise, toRupeeString, type Paise } from '../../domain/money';
import { clientIdInput, lineAmount } from '../../domain/ledger';
import { allocateLinkPayment, LINK_FEE_TYPES, linkFeeProblem } from '../../domain/payment-links';
import { indiaDate, sessionMonths } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import type { Db } from '../db/client';
import { receipts, studentCreditEntries, users } from '../db/schema';
import { lockStudentLedger } from '../fees/locks';
import { creditBalance } from '../fees/credit';
import { findStudentOr404 } from '../fees/queries';
import { inLedgerTransaction, replayed, REUSED_CLIENT_ID_MESSAGE, requestFingerprint, writeReceipt, type NewLine } from '../fees/writer';
import { audit } from '../lib/audit';
import { badRequest, conflict } from '../lib/errors';
import { loadStudentDues } from '../payment-links/dues';
import { refreshBalances } from '../balances/refresh';

const entryDto = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.enum(['online_excess', 'applied', 'refund']),
  amount: z.string().describe('signed rupees: "+" for money kept, "-" for credit used or refunded, e.g. "-500.00"'),
  reason: z.string().nullable(),
  mode: z.string().nullable(),
  receiptNumber: z.string().nullable(),
  by: z.string(),
});

const signedRupees = (p: number) => (p < 0 ? `-${toRupeeString(paise(-p))}` : toRupeeString(paise(p)));

async function userName(db: Db, userId: string | null | undefined): Promise<string> {
  if (!userId) return 'School office';
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.username ?? 'School office';
}

/** The refund a Refund dialog's key recorded (any student of the school: the caller compares). */
async function findRefundByClientId(db: Db, { schoolId, clientId }: { schoolId: string; clientId: string }) {
  const [row] = await db
    .select()
    .from(studentCreditEntries)
    .where(and(eq(studentCreditEntries.schoolId, schoolId), eq(studentCreditEntries.clientId, clientId)))
    .limit(1);
  return row;
}

const NO_CREDIT = (name: string, balance: Paise, amount: Paise) =>
  balance === 0 ? `${name} has no credit.` : `${name} has only ${formatINR(balance)} of credit; ${formatINR(amount)} is more than that.`;

export async function creditRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  const params = z.object({ id: z.string() });

  app.get(
    '/api/students/:id/credit',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['online payments'],
        summary: "A student's credit (ruling 27): money received online for fees already paid, and how it was applied or refunded",
        security: [{ bearer: [] }],
        params,
        response: { 200: z.object({ balance: z.string(), entries: z.array(entryDto) }), 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const student = await findStudentOr404(db, { schoolId, studentId: request.params.id });
      const rows = await db
        .select({ e: studentCreditEntries, receiptNumber: receipts.receiptNumber })
        .from(studentCreditEntries)
        .leftJoin(receipts, and(eq(receipts.id, studentCreditEntries.receiptId), eq(receipts.schoolId, studentCreditEntries.schoolId)))
        .where(and(eq(studentCreditEntries.schoolId, schoolId), eq(studentCreditEntries.studentId, student.id)))
        .orderBy(asc(studentCreditEntries.at), sql`array_position(array['online_excess','applied','refund'], ${studentCreditEntries.kind})`, asc(studentCreditEntries.id));
      const balance = rows.reduce((s, r) => s + r.e.amountPaise, 0);
      return {
        balance: toRupeeString(paise(balance)),
        entries: rows.map(({ e, receiptNumber }) => ({
          id: e.id,
          at: e.at.toISOString(),
          kind: e.kind,
          amount: signedRupees(e.amountPaise),
          reason: e.reason,
          mode: e.mode,
          receiptNumber: receiptNumber ?? null,
          by: e.byName,
        })),
      };
    },
  );

  app.post(
    '/api/students/:id/credit/apply',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.collect' },
      schema: {
        tags: ['online payments'],
        summary: "Pay a fee from the student's credit: a FEE receipt of mode credit (not cash income: the money was counted when it arrived)",
        description:
          'amount may not exceed the credit nor what the fee still has due (feeType as for payment links; feeMonth for tuition and bus). ' +
          'Idempotent on clientId (ruling 5): the same clientId with the same fields answers 200 with the first receipt; with other fields, 409.',
        security: [{ bearer: [] }],
        params,
        body: z.object({
          feeType: z.enum(LINK_FEE_TYPES),
          feeMonth: z.string().trim().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'feeMonth must be a month such as 2026-04').nullish(),
          amount: lineAmount('Amount').refine((v) => v !== null && v > 0, 'Enter the amount to apply'),
          clientId: clientIdInput,
        }),
        response: {
          200: z.object({ receiptId: z.string(), receiptNumber: z.string() }).describe('the same clientId again: the receipt the first request made, nothing applied'),
          201: z.object({ receiptId: z.string(), receiptNumber: z.string() }),
          400: errorDto,
          402: errorDto,
          404: errorDto,
          409: errorDto,
        },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const { feeType, clientId } = request.body;
      const feeMonth = request.body.feeMonth ?? null;
      const amount = request.body.amount as Paise;
      const requestHash = requestFingerprint({ studentId: request.params.id, feeType, feeMonth, amount });
      const result = await inLedgerTransaction(db, async (tx) => {
        const { id: studentId } = await findStudentOr404(tx, { schoolId, studentId: request.params.id });
        await lockStudentLedger(tx, { schoolId, studentId });
        const seen = await replayed(tx, { schoolId, clientId, hash: requestHash });
        if (seen) return { ...seen, replayed: true };
        // the student as they are under the lock: an edit that held it has committed, so the receipt
        // carries the name and placement it made, not those read before the wait
        const dues = await loadStudentDues(tx, { schoolId, studentId, now });
        const { student } = dues;
        const balance = await creditBalance(tx, { schoolId, studentId });
        if (amount > balance) throw conflict(NO_CREDIT(student.name, balance, amount));
        const problem = linkFeeProblem(feeType, feeMonth, dues.open ? sessionMonths(dues.session.startDate, dues.session.endDate).map((m) => m.key) : null);
        if (problem) throw badRequest(problem);
        const split = allocateLinkPayment({ feeType, feeMonth }, dues.account, dues.carried, amount, dues.fine);
        if (split.credit > 0) {
          throw conflict(`Only ${formatINR(paise(amount - split.credit))} is still due for this fee; ${formatINR(amount)} is more than that. A fee cannot be paid twice.`);
        }
        const paidOn = indiaDate(now);
        const lines: NewLine[] = [
          ...split.carried.map((c) => ({ head: 'previous_balance' as const, period: null, amount: c.amount, paidOn, sessionId: c.sessionId, academicYear: c.academicYear })),
          ...split.claims.map((c) => ({ ...c, paidOn, sessionId: dues.session.id })),
        ];
        const placement = dues.open?.placement ?? { className: student.className, section: student.section, rollNumber: student.rollNumber };
        const written = await writeReceipt(tx, request, {
          schoolId,
          prefix: 'FEE',
          source: 'fee_payment',
          session: dues.session,
          student,
          placement,
          details: { paymentMode: 'credit', chequeNumber: null, bankName: null, upiReference: null, transactionReference: null, receivedBy: null },
          receivedAt: now,
          clientId,
          requestHash: clientId ? requestHash : null,
          lines,
          dues: split.claims.length > 0 ? dues.account : null,
        });
        await tx.insert(studentCreditEntries).values({
          schoolId,
          studentId: student.id,
          at: now,
          kind: 'applied',
          amountPaise: -amount,
          reason: `Applied to ${written.receipt.receiptNumber}`,
          receiptId: written.receipt.id,
          byUserId: request.auth?.userId ?? null,
          byName: written.receipt.receivedBy,
        });
        await refreshBalances(tx, { schoolId, studentIds: [student.id] });
        await audit(tx, request, { action: 'credit.apply', entity: 'student', entityId: student.id, after: { amountPaise: amount, receiptNumber: written.receipt.receiptNumber } });
        return { ...written, replayed: false };
      });
      reply.status(result.replayed ? 200 : 201);
      return { receiptId: result.receipt.id, receiptNumber: result.receipt.receiptNumber };
    },
  );

  app.post(
    '/api/students/:id/credit/refund',
    {
      onRequest: requireSchool,
      config: { permission: 'payments.reconcile' },
      schema: {
        tags: ['online payments'],
        summary: "Refund (part of) the student's credit to the family, with a reason; audited",
        description:
          'Idempotent on clientId (ruling 5): the same clientId with the same amount, reason and mode answers 200 with the refund the first ' +
          'request recorded and refunds nothing more; with other fields, 409.',
        security: [{ bearer: [] }],
        params,
        body: z.object({
          amount: lineAmount('Amount').refine((v) => v !== null && v > 0, 'Enter the amount to refund'),
          reason: z.string({ error: 'Enter the reason for the refund' }).trim().min(3, 'Enter the reason for the refund').max(300, 'The reason is too long'),
          mode: z.enum(['cash', 'upi', 'bank_transfer', 'cheque'], { error: 'Refund mode must be cash, upi, bank_transfer or cheque' }),
          clientId: clientIdInput,
        }),
        response: { 200: entryDto, 201: entryDto, 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const amount = request.body.amount as Paise;
      const { clientId } = request.body;
      const { entry, replayed: again } = await db.transaction(async (tx) => {
        const student = await findStudentOr404(tx, { schoolId, studentId: request.params.id });
        await lockStudentLedger(tx, { schoolId, studentId: student.id });
        const first = clientId ? await findRefundByClientId(tx, { schoolId, clientId }) : undefined;
        if (first) {
          const same = first.studentId === student.id && first.amountPaise === -amount && first.reason === request.body.reason && first.mode === request.body.mode;
          if (!same) throw conflict(REUSED_CLIENT_ID_MESSAGE);
          return { entry: first, replayed: true };
        }
        const balance = await creditBalance(tx, { schoolId, studentId: student.id });
        if (amount > balance) throw conflict(NO_CREDIT(student.name, balance, amount));
        const by = await userName(tx, request.auth?.userId);
        const [row] = await tx
          .insert(studentCreditEntries)
          .values({
            schoolId,
            studentId: student.id,
            at: now,
            kind: 'refund',
            amountPaise: -amount,
            reason: request.body.reason,
            mode: request.body.mode,
            byUserId: request.auth?.userId ?? null,
            byName: by,
            clientId,
          })
          .returning();
        await audit(tx, request, { action: 'credit.refund', entity: 'student', entityId: student.id, after: { amountPaise: amount, reason: request.body.reason, mode: request.body.mode } });
        await refreshBalances(tx, { schoolId, studentIds: [student.id] });
        return { entry: row!, replayed: false };
      });
      reply.status(again ? 200 : 201);
      return { id: entry.id, at: entry.at.toISOString(), kind: entry.kind, amount: signedRupees(entry.amountPaise), reason: entry.reason, mode: entry.mode, receiptNumber: null, by: entry.byName };
    },
  );
}
