import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paise, toRupeeString } from '../../domain/money';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { onlineDay, type OnlineDayRow } from './reconcile';

const rupees = (p: number) => toRupeeString(paise(p));

const paymentDto = z.object({
  id: z.string(),
  at: z.string(),
  studentName: z.string(),
  className: z.string(),
  provider: z.enum(['razorpay', 'sandbox', 'upi']),
  orderId: z.string(),
  paymentId: z.string().nullable(),
  amount: z.string(),
  receiptNumber: z.string().nullable(),
  status: z.enum(['receipted', 'credited', 'partly_credited', 'pending', 'failed']),
  credit: z.string().describe("the part kept as the student's credit"),
  refund: z.string().describe('refunds are made from a student\'s credit, not from a payment: always "0.00" here; see totals.refund'),
});

const dayDto = z.object({
  date: z.string(),
  payments: z.array(paymentDto),
  totals: z.object({
    count: z.number().int().describe('payments captured (pending orders not counted)'),
    amount: z.string().describe('money captured online that day'),
    credit: z.string().describe('of which kept as credit'),
    refund: z.string().describe('credit refunded to families that day'),
  }),
});

function dayOf(date: string, data: { rows: OnlineDayRow[]; refundPaise: number }): z.infer<typeof dayDto> {
  const captured = data.rows.filter((r) => r.status !== 'pending' && r.status !== 'failed');
  return {
    date,
    payments: data.rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      studentName: r.studentName,
      className: r.className,
      provider: r.provider,
      orderId: r.orderId,
      paymentId: r.paymentId,
      amount: rupees(r.amountPaise),
      receiptNumber: r.receiptNumber,
      status: r.status,
      credit: rupees(r.creditPaise),
      refund: '0.00',
    })),
    totals: {
      count: captured.length,
      amount: rupees(captured.reduce((s, r) => s + r.amountPaise, 0)),
      credit: rupees(captured.reduce((s, r) => s + r.creditPaise, 0)),
      refund: rupees(data.refundPaise),
    },
  };
}

const STATUS_LABELS: Record<OnlineDayRow['status'], string> = {
  receipted: 'Receipted',
  credited: 'Credited (fee already paid)',
  partly_credited: 'Receipted, part credited',
  pending: 'Not paid',
  failed: 'Failed',
};

const dateQuery = z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD').optional() });

export async function onlinePaymentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/online-payments',
    {
      onRequest: requireSchool,
      config: { permission: 'payments.reconcile' },
      schema: {
        tags: ['online payments'],
        summary: 'Online Payments of an India day: gateway ids, amounts, receipt numbers, status, credit created, refunds',
        security: [{ bearer: [] }],
        querystring: dateQuery,
        response: { 200: dayDto, 400: errorDto },
      },
    },
    async (request) => {
      const date = request.query.date ?? indiaDate(clock.now());
      return dayOf(date, await onlineDay(db, { schoolId: schoolIdOf(request), date }));
    },
  );

  app.get(
    '/api/online-payments/export.xlsx',
    {
      onRequest: requireSchool,
      config: { permission: 'payments.reconcile' },
      schema: {
        tags: ['online payments'],
        summary: 'The Online Payments of a day as an Excel workbook',
        security: [{ bearer: [] }],
        querystring: dateQuery,
        response: { 200: z.any().describe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), 400: errorDto },
      },
    },
    async (request, reply) => {
      const date = request.query.date ?? indiaDate(clock.now());
      const day = dayOf(date, await onlineDay(db, { schoolId: schoolIdOf(request), date }));
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet(`Online payments ${date}`);
      sheet.columns = [
        { header: 'Time', width: 20 },
        { header: 'Student', width: 24 },
        { header: 'Class', width: 12 },
        { header: 'Gateway', width: 10 },
        { header: 'Order id', width: 26 },
        { header: 'Payment id', width: 26 },
        { header: 'Amount', width: 14, style: { numFmt: '#,##,##0.00' } },
        { header: 'Receipt No.', width: 20 },
        { header: 'Status', width: 26 },
        { header: 'Credit', width: 14, style: { numFmt: '#,##,##0.00' } },
      ];
      sheet.getRow(1).font = { bold: true };
      for (const p of day.payments) {
        const india = new Date(new Date(p.at).getTime() + 330 * 60_000).toISOString().replace('T', ' ').slice(0, 16);
        sheet.addRow([india, p.studentName, p.className, p.provider, p.orderId, p.paymentId ?? '', Number(p.amount), p.receiptNumber ?? '', STATUS_LABELS[p.status], Number(p.credit)]);
      }
      sheet.addRow(['Total', `${day.totals.count} paid`, '', '', '', '', Number(day.totals.amount), '', '', Number(day.totals.credit)]).font = { bold: true };
      sheet.addRow(['Credit refunded this day', '', '', '', '', '', Number(day.totals.refund)]);
      reply
        .header('content-disposition', `attachment; filename="online-payments-${date}.xlsx"`)
        .header('cache-control', 'no-store')
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      return Buffer.from(await workbook.xlsx.writeBuffer());
    },
  );
}
