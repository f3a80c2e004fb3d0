import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { cashDifference, closeDaySchema, closingDateSchema, closingDto, closingsQuerySchema, closingsReportDto, CLOSING_MESSAGES, countedCash, dayCollectionsDto } from '../../domain/cash-closing';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { cashClosings, users } from '../db/schema';
import { audit } from '../lib/audit';
import { badRequest, conflict, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { sendTable } from '../lib/xlsx-table';
import { collectionsDto, closingSums, dayCollections, listClosings } from './queries';

const tags = ['cash closing'];
const security = [{ bearer: [] }];

/** The cash closing (issue 15 item 4, docs/decisions/0046). */
export async function cashRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  const me = async (userId: string) => {
    const [row] = await db.select({ id: users.id, name: users.username }).from(users).where(eq(users.id, userId)).limit(1);
    return row!;
  };

  app.get(
    '/api/cash/day',
    {
      onRequest: requireSchool,
      config: { permission: 'cash.close' },
      schema: {
        tags,
        summary: "The signed-in collector's own receipts of a day by mode (cash, cheque, UPI, card, bank transfer, online), the cash expected in the drawer, and the closing if made",
        security,
        querystring: z.object({ date: closingDateSchema.optional().describe('India date; today when absent') }),
        response: { 200: dayCollectionsDto, 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const userId = request.auth!.userId;
      const date = request.query.date ?? indiaDate(clock.now());
      const [collections, user, closings] = await Promise.all([
        dayCollections(db, { schoolId, userId, date }),
        me(userId),
        listClosings(db, { schoolId, userId, from: date, to: date }),
      ]);
      return collectionsDto(date, user, collections, closings[0] ?? null);
    },
  );

  app.post(
    '/api/cash/closings',
    {
      onRequest: requireSchool,
      config: { permission: 'cash.close' },
      schema: {
        tags,
        summary: 'Close the day: the counted notes and coins against the cash the receipts expect; once per collector and day',
        description: 'counts: { "2000": 1, "500": 3, … } (₹2000, 500, 200, 100, 50, 20, 10, 5, 2, 1). A difference needs a note. 409 when the day is already closed.',
        security,
        body: closeDaySchema,
        response: { 201: closingDto, 400: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const userId = request.auth!.userId;
      const { date, counts, note } = request.body;
      const now = clock.now();
      if (date > indiaDate(now)) throw badRequest(CLOSING_MESSAGES.futureDay);
      const closing = await db.transaction(async (tx) => {
        if ((await listClosings(tx, { schoolId, userId, from: date, to: date })).length > 0) throw conflict(CLOSING_MESSAGES.alreadyClosed);
        const { expectedCash } = await dayCollections(tx, { schoolId, userId, date });
        const counted = countedCash(counts);
        if (cashDifference(counted, expectedCash as never) !== 0 && !note) throw badRequest(CLOSING_MESSAGES.noteNeeded);
        const [row] = await tx
          .insert(cashClosings)
          .values({ schoolId, userId, day: date, counts: counts as Record<string, number>, countedPaise: counted, expectedPaise: expectedCash, note, closedAt: now })
          .onConflictDoNothing()
          .returning({ id: cashClosings.id });
        if (!row) throw conflict(CLOSING_MESSAGES.alreadyClosed);
        await audit(tx, request, { action: 'cash.close', entity: 'cash_closing', entityId: row.id, after: { date, counted, expected: expectedCash, note } });
        return (await listClosings(tx, { schoolId, id: row.id }))[0]!;
      });
      return reply.status(201).send(closing);
    },
  );

  app.post(
    '/api/cash/closings/:id/acknowledge',
    {
      onRequest: requireSchool,
      config: { permission: 'cash.acknowledge' },
      schema: {
        tags,
        summary: 'An Accountant or Administrator acknowledges a closing (once)',
        security,
        params: z.object({ id: z.string() }),
        response: { 200: closingDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      if (!isUuid(request.params.id)) throw notFound('Closing not found');
      const now = clock.now();
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(cashClosings)
          .set({ acknowledgedAt: now, acknowledgedBy: request.auth!.userId })
          .where(and(eq(cashClosings.schoolId, schoolId), eq(cashClosings.id, request.params.id), isNull(cashClosings.acknowledgedAt)))
          .returning({ id: cashClosings.id });
        if (!row) {
          const exists = await listClosings(tx, { schoolId, id: request.params.id });
          if (exists.length === 0) throw notFound('Closing not found');
          throw conflict(CLOSING_MESSAGES.alreadyAcknowledged);
        }
        await audit(tx, request, { action: 'cash.acknowledge', entity: 'cash_closing', entityId: row.id });
        return (await listClosings(tx, { schoolId, id: row.id }))[0]!;
      });
    },
  );

  app.get(
    '/api/reports/cash-closings',
    {
      onRequest: requireSchool,
      config: { permission: 'reports.view' },
      schema: {
        tags,
        summary: 'Closings of a date range with sums per day and per user; a non-zero difference is a shortage (negative) or excess',
        security,
        querystring: closingsQuerySchema,
        response: { 200: closingsReportDto, 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { from, to, userId } = request.query;
      const closings = await listClosings(db, { schoolId, from, to, userId });
      return { from, to, closings, ...closingSums(closings) };
    },
  );

  app.get(
    '/api/reports/cash-closings.xlsx',
    {
      onRequest: requireSchool,
      config: { permission: 'reports.view' },
      schema: { tags, summary: 'The closings of a date range as an Excel workbook, one row per closing', security, querystring: closingsQuerySchema },
    },
    async (request, reply) => {
      const { from, to, userId } = request.query;
      const closings = await listClosings(db, { schoolId: schoolIdOf(request), from, to, userId });
      return sendTable(
        reply,
        'xlsx',
        `closings-${from}-${to}`,
        `Cash closings ${from} to ${to}`,
        [
          { header: 'Date', width: 12 },
          { header: 'Collector', width: 22 },
          { header: 'Expected cash', width: 14, money: true },
          { header: 'Counted cash', width: 14, money: true },
          { header: 'Difference', width: 12, money: true },
          { header: 'Note', width: 34 },
          { header: 'Acknowledged by', width: 22 },
        ],
        closings.map((c) => [c.date, c.userName, c.expectedCash, c.countedCash, c.difference, c.note, c.acknowledgedByName ?? '']),
      );
    },
  );
}
