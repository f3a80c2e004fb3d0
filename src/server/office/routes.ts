import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bounceChequeSchema,
  cancellationQuerySchema,
  cancellationRowDto,
  canMoveCheque,
  chequeDto,
  chequeMoveMessage,
  chequeQuerySchema,
  chequeStatusSchema,
  type CancellationRow,
  type Cheque,
} from '../../domain/cheques';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { refreshBalances } from '../balances/refresh';
import { cheques, openingBalances } from '../db/schema';
import { cancelReceiptInTx } from '../fees/cancel';
import { lockStudentLedger } from '../fees/locks';
import { findReceipt } from '../fees/queries';
import { audit } from '../lib/audit';
import { badRequest, conflict, notFound } from '../lib/errors';
import { sendTable, type Column } from '../lib/xlsx-table';
import { listCancellations, listCheques } from './queries';

const security = [{ bearer: [] }];
const idParams = z.object({ receiptId: z.string() });

const CHEQUE_COLUMNS: Column[] = [
  { header: 'Receipt No.', width: 16 },
  { header: 'Date', width: 12 },
  { header: 'Student', width: 26 },
  { header: 'Class', width: 10 },
  { header: 'Cheque No.', width: 12 },
  { header: 'Bank', width: 20 },
  { header: 'Amount', width: 13, money: true },
  { header: 'Status', width: 11 },
  { header: 'Deposited', width: 12 },
  { header: 'Cleared', width: 12 },
  { header: 'Bounced', width: 12 },
  { header: 'Bounce reason', width: 30 },
  { header: 'Bank charges', width: 13, money: true },
  { header: 'Collected by', width: 20 },
];
const chequeCells = (c: Cheque) => [
  c.receiptNumber, c.receiptDate, c.studentName, c.className, c.chequeNumber, c.bankName, c.amount, c.status,
  c.depositedOn, c.clearedOn, c.bouncedOn, c.bounceReason, c.bankCharges, c.collectedBy,
];

const CANCELLATION_COLUMNS: Column[] = [
  { header: 'Receipt No.', width: 16 },
  { header: 'Receipt date', width: 12 },
  { header: 'Student', width: 26 },
  { header: 'Class', width: 10 },
  { header: 'Amount', width: 13, money: true },
  { header: 'Mode', width: 10 },
  { header: 'Cancelled at', width: 22 },
  { header: 'Cancelled by', width: 20 },
  { header: 'Reason', width: 34 },
  { header: 'Collected by', width: 20 },
  { header: 'Bounced cheque', width: 10 },
];
const cancellationCells = (c: CancellationRow) => [
  c.receiptNumber, c.receiptDate, c.studentName, c.className, c.amount, c.paymentMode, c.cancelledAt, c.cancelledBy, c.reason, c.collectedBy, c.bounced ? 'Yes' : 'No',
];

/** The cheque register and the cancellation register (issue 15 items 5–6, docs/decisions/0046). */
export async function officeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/cheques',
    {
      onRequest: requireSchool,
      config: { permission: 'cheques.manage' },
      schema: {
        tags: ['cheques'],
        summary: 'The cheque register: every cheque receipt, in hand until marked deposited, cleared or bounced',
        description: 'from/to filter on the receipt date (India); status on in_hand, deposited, cleared, bounced.',
        security,
        querystring: chequeQuerySchema,
        response: { 200: z.object({ cheques: z.array(chequeDto) }), 400: errorDto },
      },
    },
    async (request) => ({ cheques: await listCheques(db, { schoolId: schoolIdOf(request), ...request.query }) }),
  );

  for (const kind of ['xlsx', 'csv'] as const) {
    app.get(
      `/api/cheques.${kind}`,
      {
        onRequest: requireSchool,
        config: { permission: 'cheques.manage' },
        schema: { tags: ['cheques'], summary: `The cheque register as ${kind === 'xlsx' ? 'an Excel workbook' : 'CSV'}`, security, querystring: chequeQuerySchema },
      },
      async (request, reply) => {
        const rows = await listCheques(db, { schoolId: schoolIdOf(request), ...request.query });
        return sendTable(reply, kind, 'cheques', 'Cheque register', CHEQUE_COLUMNS, rows.map(chequeCells));
      },
    );
  }

  const chequeOr404 = async (tx: typeof db, schoolId: string, receiptId: string) => {
    const [cheque] = await listCheques(tx, { schoolId, receiptId });
    if (!cheque) throw notFound('Cheque receipt not found');
    return cheque;
  };

  app.put(
    '/api/cheques/:receiptId',
    {
      onRequest: requireSchool,
      config: { permission: 'cheques.manage' },
      schema: {
        tags: ['cheques'],
        summary: 'Mark a cheque deposited (from in hand) or cleared (from deposited); date defaults to today',
        security,
        params: idParams,
        body: chequeStatusSchema,
        response: { 200: chequeDto, 400: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const { status, date = indiaDate(now) } = request.body;
      const found = await findReceipt(db, { schoolId, id: request.params.receiptId });
      if (!found) throw notFound('Cheque receipt not found');
      return db.transaction(async (tx) => {
        // a cheque's moves take turns with its bounce, which holds this lock while it cancels the
        // receipt: each reads the status the one before it left. Unlocked, a clearing that read
        // "deposited" before a bounce committed wrote "cleared" over it, on a cancelled receipt.
        await lockStudentLedger(tx, { schoolId, studentId: found.receipt.studentId });
        const cheque = await chequeOr404(tx, schoolId, request.params.receiptId);
        if (!canMoveCheque(cheque.status, status)) throw conflict(chequeMoveMessage(cheque.status, status));
        const dates = status === 'deposited' ? { depositedOn: date } : { clearedOn: date, depositedOn: cheque.depositedOn ?? date };
        await tx
          .insert(cheques)
          .values({ receiptId: cheque.receiptId, schoolId, status, ...dates, updatedBy: request.auth!.userId, updatedAt: now })
          .onConflictDoUpdate({ target: cheques.receiptId, set: { status, ...dates, updatedBy: request.auth!.userId, updatedAt: now } });
        await audit(tx, request, { action: `cheque.${status}`, entity: 'receipt', entityId: cheque.receiptId, before: { status: cheque.status }, after: { status, date } });
        return chequeOr404(tx, schoolId, cheque.receiptId);
      });
    },
  );

  app.post(
    '/api/cheques/:receiptId/bounce',
    {
      onRequest: requireSchool,
      config: { permission: 'cheques.manage' },
      schema: {
        tags: ['cheques'],
        summary: 'A cheque bounced: the receipt is cancelled with the reason (its dues re-open), and bank charges, if any, become a new due',
        description:
          'The cancellation is the ordinary receipt cancellation (carried balances and running balances follow); bankCharges (rupees) is charged to the student as an "other" arrear. A cleared or already bounced cheque answers 409.',
        security,
        params: idParams,
        body: bounceChequeSchema,
        response: { 200: chequeDto, 400: errorDto, 403: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const { reason, bankCharges, date = indiaDate(now) } = request.body;
      const found = await findReceipt(db, { schoolId, id: request.params.receiptId });
      if (!found) throw notFound('Cheque receipt not found');
      if (found.receipt.paymentMode !== 'cheque') throw badRequest(`Receipt ${found.receipt.receiptNumber} was not paid by cheque`);
      return db.transaction(async (tx) => {
        // the status is read under the lock the cancellation below holds (see the route above)
        await lockStudentLedger(tx, { schoolId, studentId: found.receipt.studentId });
        const cheque = await chequeOr404(tx, schoolId, found.receipt.id);
        if (!canMoveCheque(cheque.status, 'bounced')) throw conflict(chequeMoveMessage(cheque.status, 'bounced'));
        await cancelReceiptInTx(tx, request, { schoolId, found, reason: `Cheque bounced: ${reason}`, now, action: 'cheque.bounce' });
        const charges = bankCharges && bankCharges > 0 ? bankCharges : null;
        const set = { status: 'bounced' as const, bouncedOn: date, bounceReason: reason, bankChargesPaise: charges, updatedBy: request.auth!.userId, updatedAt: now };
        await tx.insert(cheques).values({ receiptId: found.receipt.id, schoolId, ...set }).onConflictDoUpdate({ target: cheques.receiptId, set });
        if (charges) {
          // decision 0046: an arrear row like an opening balance, so fee status, outstanding and running balances all count it
          await tx.insert(openingBalances).values({
            schoolId,
            studentId: found.receipt.studentId,
            sessionId: found.receipt.sessionId,
            head: 'other',
            amountPaise: charges,
            note: `Bank charges: cheque ${found.receipt.chequeNumber ?? ''} of receipt ${found.receipt.receiptNumber} bounced`.replace('  ', ' '),
            createdBy: request.auth!.userId,
            createdAt: now,
          });
          await refreshBalances(tx, { schoolId, studentIds: [found.receipt.studentId] });
        }
        return chequeOr404(tx, schoolId, found.receipt.id);
      });
    },
  );

  const cancellationsSchema = {
    tags: ['reports'],
    security,
    querystring: cancellationQuerySchema,
  };

  app.get(
    '/api/reports/cancellations',
    {
      onRequest: requireSchool,
      config: { permission: 'reports.view' },
      schema: {
        ...cancellationsSchema,
        summary: 'The cancellation register: receipts cancelled between from and to (India dates) with who cancelled, why, and who had collected',
        response: { 200: z.object({ from: z.string(), to: z.string(), rows: z.array(cancellationRowDto) }), 400: errorDto },
      },
    },
    async (request) => {
      const { from, to } = request.query;
      if (from > to) throw badRequest('from must not be after to');
      return { from, to, rows: await listCancellations(db, { schoolId: schoolIdOf(request), from, to }) };
    },
  );

  for (const kind of ['xlsx', 'csv'] as const) {
    app.get(
      `/api/reports/cancellations.${kind}`,
      {
        onRequest: requireSchool,
        config: { permission: 'reports.view' },
        schema: { ...cancellationsSchema, summary: `The cancellation register as ${kind === 'xlsx' ? 'an Excel workbook' : 'CSV'}` },
      },
      async (request, reply) => {
        const { from, to } = request.query;
        if (from > to) throw badRequest('from must not be after to');
        const rows = await listCancellations(db, { schoolId: schoolIdOf(request), from, to });
        return sendTable(reply, kind, `cancellations-${from}-${to}`, `Cancellation register ${from} to ${to}`, CANCELLATION_COLUMNS, rows.map(cancellationCells));
      },
    );
  }
}
