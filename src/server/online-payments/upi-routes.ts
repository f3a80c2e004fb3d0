import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toRupeeString, type Paise } from '../../domain/money';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import type { Db } from '../db/client';
import { onlinePayments, receipts, students, upiConfirmations, users } from '../db/schema';
import { inLedgerTransaction } from '../fees/writer';
import { audit } from '../lib/audit';
import { conflict, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { captureOnlinePayment } from './capture';

const itemDto = z.object({
  id: z.string(),
  linkId: z.string(),
  studentName: z.string(),
  className: z.string(),
  amount: z.string(),
  upiReference: z.string(),
  payerName: z.string().nullable(),
  submittedAt: z.string(),
  status: z.enum(['pending', 'confirmed', 'rejected']),
  reason: z.string().nullable(),
  receiptNumber: z.string().nullable(),
});

async function listItems(db: Db, { schoolId, status, id }: { schoolId: string; status?: 'pending' | 'confirmed' | 'rejected'; id?: string }) {
  const rows = await db
    .select({ c: upiConfirmations, studentName: students.name, className: students.className, receiptNumber: receipts.receiptNumber })
    .from(upiConfirmations)
    .innerJoin(students, and(eq(students.id, upiConfirmations.studentId), eq(students.schoolId, upiConfirmations.schoolId)))
    .leftJoin(onlinePayments, and(eq(onlinePayments.id, upiConfirmations.onlinePaymentId), eq(onlinePayments.schoolId, upiConfirmations.schoolId)))
    .leftJoin(receipts, and(eq(receipts.id, onlinePayments.receiptId), eq(receipts.schoolId, upiConfirmations.schoolId)))
    .where(
      and(
        eq(upiConfirmations.schoolId, schoolId),
        status ? eq(upiConfirmations.status, status) : undefined,
        id ? eq(upiConfirmations.id, id) : undefined,
      ),
    )
    .orderBy(desc(upiConfirmations.submittedAt), desc(upiConfirmations.id))
    .limit(500);
  return rows.map(({ c, studentName, className, receiptNumber }) => ({
    id: c.id,
    linkId: c.linkId,
    studentName,
    className,
    amount: toRupeeString(c.amountPaise as Paise),
    upiReference: c.upiReference,
    payerName: c.payerName,
    submittedAt: c.submittedAt.toISOString(),
    status: c.status,
    reason: c.reason,
    receiptNumber: receiptNumber ?? null,
  }));
}

/** "UPI payments to confirm" (issue 13 item 5): the clerk checks each against the bank statement. */
export async function upiConfirmationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  const params = z.object({ id: z.string() });

  app.get(
    '/api/upi-confirmations',
    {
      onRequest: requireSchool,
      config: { permission: 'payments.reconcile' },
      schema: {
        tags: ['online payments'],
        summary: 'UPI payments parents reported (UPI reference) against a link, newest first',
        security: [{ bearer: [] }],
        querystring: z.object({ status: z.enum(['pending', 'confirmed', 'rejected']).optional() }),
        response: { 200: z.object({ items: z.array(itemDto) }) },
      },
    },
    async (request) => ({ items: await listItems(db, { schoolId: schoolIdOf(request), status: request.query.status }) }),
  );

  app.post(
    '/api/upi-confirmations/:id/confirm',
    {
      onRequest: requireSchool,
      config: { permission: 'payments.reconcile' },
      schema: {
        tags: ['online payments'],
        summary: 'The money is in the bank statement: write the receipt (ONL series; credit beyond what is still due)',
        security: [{ bearer: [] }],
        params,
        response: {
          200: z.object({ receiptId: z.string().nullable(), receiptNumber: z.string().nullable().describe('null when all of it became credit') }),
          402: errorDto,
          404: errorDto,
          409: errorDto,
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound('UPI payment not found');
      const now = clock.now();
      const captured = await inLedgerTransaction(db, async (tx) => {
        const [c] = await tx
          .select()
          .from(upiConfirmations)
          .where(and(eq(upiConfirmations.schoolId, schoolId), eq(upiConfirmations.id, id)))
          .for('update')
          .limit(1);
        if (!c) throw notFound('UPI payment not found');
        if (c.status !== 'pending') throw conflict(`This UPI payment was already ${c.status}.`);
        const [me] = await tx.select({ username: users.username }).from(users).where(eq(users.id, request.auth!.userId)).limit(1);
        const [payment] = await tx
          .insert(onlinePayments)
          .values({ schoolId, linkId: c.linkId, studentId: c.studentId, provider: 'upi', orderId: `upi:${c.id}`, amountPaise: c.amountPaise, createdAt: now })
          .returning();
        const result = await captureOnlinePayment(tx, request, {
          schoolId,
          orderId: payment!.orderId,
          paymentId: c.upiReference,
          now,
          receivedBy: `Online (UPI, confirmed by ${me?.username ?? 'the school'})`,
        });
        await tx.update(upiConfirmations).set({ status: 'confirmed', onlinePaymentId: payment!.id, decidedAt: now, decidedBy: request.auth!.userId }).where(eq(upiConfirmations.id, c.id));
        return result!;
      });
      return { receiptId: captured.receipt?.receipt.id ?? null, receiptNumber: captured.receipt?.receipt.receiptNumber ?? null };
    },
  );

  app.post(
    '/api/upi-confirmations/:id/reject',
    {
      onRequest: requireSchool,
      config: { permission: 'payments.reconcile' },
      schema: {
        tags: ['online payments'],
        summary: 'Not in the bank statement: reject with a reason (no receipt; the link stays payable)',
        security: [{ bearer: [] }],
        params,
        body: z.object({ reason: z.string({ error: 'Enter the reason for rejecting' }).trim().min(3, 'Enter the reason for rejecting').max(300, 'The reason is too long') }),
        response: { 200: itemDto, 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound('UPI payment not found');
      await db.transaction(async (tx) => {
        const [c] = await tx
          .select()
          .from(upiConfirmations)
          .where(and(eq(upiConfirmations.schoolId, schoolId), eq(upiConfirmations.id, id)))
          .for('update')
          .limit(1);
        if (!c) throw notFound('UPI payment not found');
        if (c.status !== 'pending') throw conflict(`This UPI payment was already ${c.status}.`);
        await tx
          .update(upiConfirmations)
          .set({ status: 'rejected', reason: request.body.reason, decidedAt: clock.now(), decidedBy: request.auth!.userId })
          .where(eq(upiConfirmations.id, c.id));
        await audit(tx, request, { action: 'upi-payment.reject', entity: 'upi_confirmation', entityId: c.id, after: { upiReference: c.upiReference, reason: request.body.reason } });
      });
      const [item] = await listItems(db, { schoolId, id });
      return item!;
    },
  );
}
