import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cancelReceiptSchema } from '../../domain/ledger';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { notFound } from '../lib/errors';
import { sendPdf } from '../lib/pdf';
import { cancelReceiptInTx } from './cancel';
import { money, receiptDto, toReceiptDto } from './dto';
import { loadReceiptDocument, receiptLogo } from './receipt-document';
import { findReceipt, findStudentOr404, listReceipts } from './queries';
import { receiptPdf } from './receipt-pdf';

const idParams = z.object({ id: z.string() });

const receiptDocumentDto = z.object({
  receipt: receiptDto,
  school: z.object({
    name: z.string(),
    address: z.string(),
    phone: z.string(),
    schoolCode: z.string().nullable(),
    email: z.string(),
    hasLogo: z.boolean().describe('GET /api/school/logo serves it'),
  }),
  student: z.object({ fatherName: z.string(), admissionNumber: z.string().nullable() }),
  balance: z
    .object({ asOn: z.string().describe('YYYY-MM-DD, the India date the balance is counted to'), amount: money })
    .nullable()
    .describe("what the student still owes (the receipt's session till date plus carried balances) as on today; null on a cancelled receipt"),
  creditKept: money.nullable().describe("online money that came with this receipt beyond the dues, kept as the student's credit (ruling 27)"),
  concessions: z.array(z.string()).describe('"Concession: Sibling −₹150.00 (Tuition Fee, July 2025)" for the months and heads the receipt pays (issue 16)'),
});

export async function receiptRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/students/:id/receipts',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['receipts'],
        summary: "A student's receipts, newest first, cancelled ones included",
        security: [{ bearer: [] }],
        params: idParams,
        response: { 200: z.array(receiptDto), 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const student = await findStudentOr404(db, { schoolId, studentId: request.params.id });
      const rows = await listReceipts(db, { schoolId, studentId: student.id, limit: 500, offset: 0 });
      return rows.map(toReceiptDto);
    },
  );

  app.get(
    '/api/receipts/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['receipts'],
        summary: 'One receipt with everything its printed copy shows',
        description: 'The receipt as stored (Received by included), the school, the student\'s father\'s name and admission number, and the balance still due as on today.',
        security: [{ bearer: [] }],
        params: idParams,
        response: { 200: receiptDocumentDto, 404: errorDto },
      },
    },
    async (request) => loadReceiptDocument(db, { schoolId: schoolIdOf(request), id: request.params.id, now: clock.now() }),
  );

  app.get(
    '/api/receipts/:id/pdf',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['receipts'],
        summary: 'The receipt as a PDF to download, print or share: one A4 page, office copy and parent copy',
        description:
          '"Received by" is always the name stored with the receipt, on every reprint. The balance due is counted as on the day it is printed and labelled with that date. A cancelled receipt is marked CANCELLED with its reason.',
        security: [{ bearer: [] }],
        params: idParams,
        response: { 200: z.any().describe('application/pdf'), 404: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const document = await loadReceiptDocument(db, { schoolId, id: request.params.id, now: clock.now() });
      const pdf = await receiptPdf(document, document.school.hasLogo ? await receiptLogo(db, schoolId) : undefined);
      return sendPdf(reply, pdf, `receipt-${document.receipt.receiptNumber.replace(/\//g, '-')}.pdf`);
    },
  );

  app.post(
    '/api/receipts/:id/cancel',
    {
      onRequest: requireSchool,
      config: { permission: 'receipts.cancel' },
      schema: {
        tags: ['receipts'],
        summary: 'Cancel a receipt with a reason (a reversal: it stays visible, its lines stop counting)',
        description:
          'The receipt is marked cancelled with who, when and why; its lines no longer count in any balance, and it stays in the student\'s history and the audit log. If its session has since been closed for the student (promotion, discharge), the dues it had settled come back onto the balance carried from that session. A second cancel answers 409.',
        security: [{ bearer: [] }],
        params: idParams,
        body: cancelReceiptSchema,
        response: { 200: z.object({ message: z.string(), receipt: receiptDto }), 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const { reason } = request.body;
      const found = await findReceipt(db, { schoolId, id: request.params.id });
      if (!found) throw notFound('Receipt not found');
      const cancelled = await db.transaction((tx) => cancelReceiptInTx(tx, request, { schoolId, found, reason, now }));
      return { message: `Receipt ${cancelled.receipt.receiptNumber} has been cancelled.`, receipt: toReceiptDto(cancelled) };
    },
  );
}
