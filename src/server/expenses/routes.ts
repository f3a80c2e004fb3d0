import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addExpenseSchema,
  EXPENSE_CATEGORIES,
  EXPENSE_KEY_DELETED_MESSAGE,
  EXPENSE_KEY_REUSED_MESSAGE,
  expenseSchema,
  normaliseCategory,
  UNKNOWN_CATEGORY_MESSAGE,
} from '../../domain/expenses';
import { optionalDateQuery } from '../../domain/reports';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { audit } from '../lib/audit';
import { badRequest, conflict, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { addsTheSame, createExpense, deleteExpense, expenseDto, findExpense, findExpenseByClientId, listExpenses, toExpenseDto, updateExpense } from './queries';

const NOT_FOUND = 'Expense not found';
const tags = ['expenses'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string() });
const BODY_RULES =
  'Every field is required ("Please fill in all fields"). category is one of ' +
  `${EXPENSE_CATEGORIES.join(', ')} (ruling 20); amount is rupees ("1500", "1500.5" or 1500.5), at least 0 with at most 2 decimals; ` +
  'date is YYYY-MM-DD. Anything else answers 400 and nothing is written.';

/** GET/POST/PUT/DELETE /api/expenses (operations §7): the Expenses tab and its dialogs. */
export async function expenseRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/expenses',
    {
      onRequest: requireSchool,
      config: { permission: 'expenses.manage' },
      schema: {
        tags,
        summary: "The school's expenses, newest first",
        description: 'Optional filters: category (one of the list), fromDate and toDate (YYYY-MM-DD, inclusive). Amounts are rupee strings.',
        security,
        querystring: z.object({
          category: z.string().max(60).optional(),
          fromDate: optionalDateQuery('fromDate'),
          toDate: optionalDateQuery('toDate'),
        }),
        response: { 200: z.array(expenseDto), 400: errorDto },
      },
    },
    async (request) => {
      const { category: rawCategory, fromDate, toDate } = request.query;
      const category = rawCategory?.trim() ? normaliseCategory(rawCategory) : undefined;
      if (category === null) throw badRequest(UNKNOWN_CATEGORY_MESSAGE);
      if (fromDate && toDate && fromDate > toDate) throw badRequest('From date must be on or before to date');
      const rows = await listExpenses(db, { schoolId: schoolIdOf(request), category, from: fromDate, to: toDate });
      return rows.map(toExpenseDto);
    },
  );

  app.get(
    '/api/expenses/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'expenses.manage' },
      schema: { tags, summary: 'One expense', security, params: idParams, response: { 200: expenseDto, 404: errorDto } },
    },
    async (request) => {
      const { id } = request.params;
      const row = isUuid(id) ? await findExpense(db, { schoolId: schoolIdOf(request), id }) : undefined;
      if (!row) throw notFound(NOT_FOUND);
      return toExpenseDto(row);
    },
  );

  app.post(
    '/api/expenses',
    {
      onRequest: requireSchool,
      config: { permission: 'expenses.manage' },
      schema: {
        tags,
        summary: 'Add an expense',
        description:
          `${BODY_RULES} Idempotent on clientId (ruling 5): the same clientId with the same fields answers 200 with the expense ` +
          'the first request added and adds nothing; with other fields, or after that expense was deleted, 409.',
        security,
        body: addExpenseSchema,
        response: { 200: expenseDto, 201: expenseDto, 400: errorDto, 402: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { clientId, ...input } = request.body;
      const result = await db.transaction(async (tx) => {
        const created = await createExpense(tx, { schoolId, userId: request.auth!.userId, input, clientId, now: clock.now() });
        if (!created) {
          // the key's first add committed before this one (or while it waited on the key's index entry)
          const first = await findExpenseByClientId(tx, { schoolId, clientId: clientId! });
          if (!first || !addsTheSame(first, input)) throw conflict(EXPENSE_KEY_REUSED_MESSAGE);
          if (first.deletedAt) throw conflict(EXPENSE_KEY_DELETED_MESSAGE);
          return { row: first, replayed: true };
        }
        await audit(tx, request, { action: 'expense.create', entity: 'expense', entityId: created.id, after: toExpenseDto(created) });
        return { row: created, replayed: false };
      });
      reply.status(result.replayed ? 200 : 201);
      return toExpenseDto(result.row);
    },
  );

  app.put(
    '/api/expenses/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'expenses.manage' },
      schema: {
        tags,
        summary: 'Edit an expense',
        description: `${BODY_RULES} The audit log keeps the expense before and after.`,
        security,
        params: idParams,
        body: expenseSchema,
        response: { 200: expenseDto, 400: errorDto, 402: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound(NOT_FOUND);
      const row = await db.transaction(async (tx) => {
        const before = await findExpense(tx, { schoolId, id, forUpdate: true });
        if (!before) throw notFound(NOT_FOUND);
        const after = await updateExpense(tx, { schoolId, id, userId: request.auth!.userId, input: request.body, now: clock.now() });
        if (!after) throw notFound(NOT_FOUND);
        await audit(tx, request, { action: 'expense.update', entity: 'expense', entityId: id, before: toExpenseDto(before), after: toExpenseDto(after) });
        return after;
      });
      return toExpenseDto(row);
    },
  );

  app.delete(
    '/api/expenses/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'expenses.manage' },
      schema: {
        tags,
        summary: 'Delete an expense',
        description: 'The expense leaves every list, total and report; the audit log keeps what it was.',
        security,
        params: idParams,
        response: { 200: z.object({ message: z.string(), id: z.string() }), 402: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound(NOT_FOUND);
      await db.transaction(async (tx) => {
        const gone = await deleteExpense(tx, { schoolId, id, userId: request.auth!.userId, now: clock.now() });
        if (!gone) throw notFound(NOT_FOUND);
        await audit(tx, request, { action: 'expense.delete', entity: 'expense', entityId: id, before: toExpenseDto(gone), after: null });
      });
      return { message: 'Expense deleted', id };
    },
  );
}
