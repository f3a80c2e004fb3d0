import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toRupeeString, type Paise } from '../../domain/money';
import {
  arrearLines,
  cancelOpeningSchema,
  OPENING_HEAD_LABELS,
  OPENING_HEADS,
  OPENING_MESSAGES,
  OPENING_TEMPLATE_NAME,
  openingEntrySchema,
  openingTemplateCsv,
} from '../../domain/opening';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { openingBalances } from '../db/schema';
import { money, receiptDto, toReceiptDto } from '../fees/dto';
import { findStudentOr404, listReceipts, carriedBalances } from '../fees/queries';
import { lockStudentLedger } from '../fees/locks';
import { audit } from '../lib/audit';
import { CSV_BOM } from '../lib/csv';
import { conflict, HttpError, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { enterOpening, hasOpeningEntries, liveArrearRows } from './enter';
import { matchOpeningRows, openingTemplateXlsx, readOpeningFile } from './import';
import { refreshBalances } from '../balances/refresh';

const rupees = (v: number) => toRupeeString(v as Paise);

const arrearDto = z.object({
  id: z.string(),
  head: z.enum(OPENING_HEADS),
  headLabel: z.string(),
  amount: money,
  note: z.string(),
  createdAt: z.string(),
  status: z.enum(['live', 'cancelled']),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
});

const studentOpeningDto = z.object({
  studentId: z.string(),
  arrears: z.array(arrearDto),
  recorded: money.describe('live opening arrears entered'),
  paid: money.describe('collected against them (opening_balance lines)'),
  remaining: money.describe('still owed; collected as previous balance on the fee screens'),
  receipts: z.array(receiptDto).describe('OPN receipts: months paid before go-live (cancelled ones included)'),
});

const importBody = z.object({
  fileName: z.string().max(200).nullish(),
  csv: z.string().max(5_000_000).nullish().describe('the file as CSV text'),
  xlsxBase64: z.string().max(7_000_000).nullish().describe('an .xlsx workbook, base64'),
});

const importResultDto = z.object({
  message: z.string(),
  imported: z.number().int(),
  arrearsTotal: money,
  monthsPaid: z.number().int().describe('months entered as paid before go-live, over all students'),
  skipped: z.array(z.object({ row: z.number().int(), name: z.string(), reason: z.string() })).describe('students that already have opening entries: flagged, not doubled'),
  errors: z.array(z.object({ row: z.number().int(), name: z.string(), reasons: z.array(z.string()) })),
});

/** Thrown inside the import's transaction to undo every row when any row failed. */
class ImportFailed extends Error {}

export async function openingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/students/:id/opening',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['opening'],
        summary: "A student's opening entries: arrears from the old register and OPN receipts of months paid before go-live",
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        response: { 200: studentOpeningDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const student = await findStudentOr404(db, { schoolId, studentId: request.params.id });
      const [rows, carried, receipts] = await Promise.all([
        db
          .select()
          .from(openingBalances)
          .where(and(eq(openingBalances.schoolId, schoolId), eq(openingBalances.studentId, student.id)))
          .orderBy(asc(openingBalances.createdAt)),
        carriedBalances(db, { schoolId, studentId: student.id }),
        listReceipts(db, { schoolId, studentId: student.id, prefix: 'OPN', limit: 100, offset: 0 }),
      ]);
      const opening = carried.find((c) => c.kind === 'opening');
      return {
        studentId: student.id,
        arrears: rows.map((r) => ({
          id: r.id,
          head: r.head,
          headLabel: OPENING_HEAD_LABELS[r.head],
          amount: rupees(Number(r.amountPaise)),
          note: r.note,
          createdAt: r.createdAt.toISOString(),
          status: r.cancelledAt ? ('cancelled' as const) : ('live' as const),
          cancelledAt: r.cancelledAt?.toISOString() ?? null,
          cancelReason: r.cancelReason,
        })),
        recorded: rupees(opening?.recorded ?? 0),
        paid: rupees(opening?.paid ?? 0),
        remaining: rupees(opening?.remaining ?? 0),
        receipts: receipts.map(toReceiptDto),
      };
    },
  );

  app.post(
    '/api/opening-balances',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags: ['opening'],
        summary: "Enter one student's opening balance: arrears per head or lump sum, and months already paid before go-live",
        description:
          'amounts: rupees per head (tuition, bus, admission, exam, books, uniform, misc, other, lump_sum). paidMonths: months of the ' +
          "student's session already paid before go-live (2026-04 or April 2026), written as one OPN receipt (source opening) paying what " +
          'each month still had due; never income of the day. 409 when the student already has opening entries.',
        security: [{ bearer: [] }],
        body: openingEntrySchema,
        response: { 201: z.object({ message: z.string(), arrearIds: z.array(z.string()), receipt: receiptDto.nullable(), monthsPaid: z.array(z.string()) }), 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const body = request.body;
      const now = clock.now();
      const result = await db.transaction(async (tx) => {
        const student = await findStudentOr404(tx, { schoolId, studentId: body.studentId });
        return enterOpening(tx, request, {
          schoolId,
          student,
          arrears: arrearLines(body.amounts),
          months: body.paidMonths.length > 0 ? { list: body.paidMonths } : null,
          note: body.note,
          now,
        });
      });
      reply.code(201);
      return {
        message: 'Opening balance saved',
        arrearIds: result.arrearIds,
        receipt: result.receipt ? toReceiptDto(result.receipt) : null,
        monthsPaid: result.monthsPaid,
      };
    },
  );

  app.post(
    '/api/opening-balances/:id/cancel',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags: ['opening'],
        summary: 'Cancel one opening arrear with a reason (it stays visible; it stops being owed)',
        description:
          'Refused with 409 when what was already collected against the student\'s opening arrears is more than would remain. Months paid before go-live are OPN receipts: cancel them with POST /api/receipts/:id/cancel, which re-opens those months.',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        body: cancelOpeningSchema,
        response: { 200: z.object({ message: z.string() }), 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      if (!isUuid(request.params.id)) throw notFound(OPENING_MESSAGES.notFound);
      const [found] = await db
        .select()
        .from(openingBalances)
        .where(and(eq(openingBalances.schoolId, schoolId), eq(openingBalances.id, request.params.id)))
        .limit(1);
      if (!found) throw notFound(OPENING_MESSAGES.notFound);
      await db.transaction(async (tx) => {
        await lockStudentLedger(tx, { schoolId, studentId: found.studentId });
        const live = await liveArrearRows(tx, { schoolId, studentId: found.studentId });
        const row = live.find((r) => r.id === found.id);
        if (!row) throw conflict(OPENING_MESSAGES.alreadyCancelled);
        const carried = (await carriedBalances(tx, { schoolId, studentId: found.studentId })).find((c) => c.kind === 'opening');
        const paid = carried?.paid ?? 0;
        const left = live.reduce((s, r) => s + Number(r.amountPaise), 0) - Number(row.amountPaise);
        if (paid > left) throw conflict(OPENING_MESSAGES.cancelPaid(`₹${rupees(paid)}`, `₹${rupees(left)}`));
        await tx
          .update(openingBalances)
          .set({ cancelledAt: now, cancelledBy: request.auth?.userId ?? null, cancelReason: request.body.reason })
          .where(and(eq(openingBalances.schoolId, schoolId), eq(openingBalances.id, row.id)));
        await refreshBalances(tx, { schoolId, studentIds: [found.studentId] });
        await audit(tx, request, {
          action: 'opening.cancel',
          entity: 'opening_balance',
          entityId: row.id,
          before: { head: row.head, amountPaise: Number(row.amountPaise), studentId: row.studentId },
          after: { cancelledAt: now.toISOString(), reason: request.body.reason },
        });
      });
      return { message: `The opening ${OPENING_HEAD_LABELS[found.head].toLowerCase()} arrear of ₹${rupees(Number(found.amountPaise))} has been cancelled.` };
    },
  );

  app.get(
    '/api/opening-balances/template',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags: ['opening'],
        summary: 'The opening balance import template (CSV or Excel) with one example row',
        security: [{ bearer: [] }],
        querystring: z.object({ format: z.enum(['csv', 'xlsx']).default('csv') }),
      },
    },
    async (request, reply) => {
      if (request.query.format === 'xlsx') {
        reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', `attachment; filename="${OPENING_TEMPLATE_NAME}.xlsx"`);
        return reply.send(await openingTemplateXlsx());
      }
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${OPENING_TEMPLATE_NAME}.csv"`);
      return reply.send(CSV_BOM + openingTemplateCsv());
    },
  );

  app.post(
    '/api/opening-balances/import',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags: ['opening'],
        summary: 'Import opening balances from the template (CSV or Excel): all rows or none',
        description:
          'Every error of every row is reported; when any row has an error nothing is written (imported 0). Students that already ' +
          'have opening entries are listed as skipped, never doubled. paid_through enters every month of the session up to that one ' +
          'that still has something due as paid before go-live (one OPN receipt per student).',
        security: [{ bearer: [] }],
        body: importBody,
        response: { 200: importResultDto, 400: errorDto, 402: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const file = await readOpeningFile(request.body);
      if (!file.ok) throw new HttpError(400, file.error);
      const matched = await matchOpeningRows(db, { schoolId, rows: file.rows });
      const errors = matched.filter((m) => m.errors.length > 0).map((m) => ({ row: m.row, name: m.name, reasons: m.errors }));
      const skipped: Array<{ row: number; name: string; reason: string }> = [];
      let imported = 0;
      let arrearsTotal = 0;
      let monthsPaid = 0;
      const empty = () => ({ imported: 0, arrearsTotal: '0.00', monthsPaid: 0, skipped, errors });
      if (errors.length > 0) {
        return { message: `Nothing was imported: ${errors.length} ${errors.length === 1 ? 'row has' : 'rows have'} errors. Fix them and import the file again.`, ...empty() };
      }
      try {
        await db.transaction(async (tx) => {
          for (const row of matched) {
            const student = row.student!;
            // the look under the student's lock (enterOpening takes it again): a second copy of this
            // import running at once waits here and finds the first's entries, a skip, not an error
            await lockStudentLedger(tx, { schoolId, studentId: student.id });
            if (await hasOpeningEntries(tx, { schoolId, studentId: student.id })) {
              skipped.push({ row: row.row, name: student.name, reason: OPENING_MESSAGES.already(student.name) });
              continue;
            }
            try {
              const done = await enterOpening(tx, request, {
                schoolId,
                student,
                arrears: row.arrears,
                months: row.paidThrough ? { through: row.paidThrough } : null,
                note: row.note,
                now,
              });
              imported += 1;
              arrearsTotal += row.arrears.reduce((s, a) => s + a.amount, 0);
              monthsPaid += done.monthsPaid.length;
            } catch (error) {
              if (error instanceof HttpError && error.statusCode < 500) errors.push({ row: row.row, name: student.name, reasons: [error.message] });
              else throw error;
            }
          }
          if (errors.length > 0) throw new ImportFailed();
        });
      } catch (error) {
        if (!(error instanceof ImportFailed)) throw error;
        return { message: `Nothing was imported: ${errors.length} ${errors.length === 1 ? 'row has' : 'rows have'} errors. Fix them and import the file again.`, ...empty() };
      }
      const parts = [`${imported} ${imported === 1 ? 'student' : 'students'} imported`];
      if (skipped.length > 0) parts.push(`${skipped.length} skipped (already had opening entries)`);
      return { message: `${parts.join(', ')}.`, imported, arrearsTotal: rupees(arrearsTotal), monthsPaid, skipped, errors };
    },
  );
}
