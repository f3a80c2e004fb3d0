import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CONCESSION_STATUSES,
  concessionDecisionInput,
  concessionDto,
  concessionRejectInput,
  concessionRequestInput,
  concessionTypeDto,
  concessionTypeInput,
  periodKey,
  type ConcessionHead,
} from '../../domain/concessions';
import { isMonthlyHead, monthLabel } from '../../domain/ledger';
import { sessionMonths } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { lockForManyStudents, refreshBalances } from '../balances/refresh';
import type { Db } from '../db/client';
import { concessions, concessionTypes, receiptLines, receipts } from '../db/schema';
import { loadStudentSession } from '../fees/context';
import { lockStudentLedger } from '../fees/locks';
import { findSessionByYear, findStudentOr404, requireSessionByYear } from '../fees/queries';
import { audit } from '../lib/audit';
import { badRequest, conflict, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { listConcessions, toTypeDto } from './concession-list';

const idParams = z.object({ id: z.string() });
const userIdOf = (request: FastifyRequest) => request.auth?.userId ?? null;

async function typeOr404(db: Db, schoolId: string, id: string) {
  if (!isUuid(id)) throw notFound('Concession type not found');
  const [row] = await db.select().from(concessionTypes).where(and(eq(concessionTypes.schoolId, schoolId), eq(concessionTypes.id, id))).limit(1);
  if (!row) throw notFound('Concession type not found');
  return row;
}

/** Heads and months of the concession that already hold a live payment: left as they were (ruling 3). */
async function alreadyPaid(
  tx: Db,
  { schoolId, studentId, sessionId, heads, fromMonth, toMonth }: { schoolId: string; studentId: string; sessionId: string; heads: ConcessionHead[]; fromMonth: string; toMonth: string | null },
): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ head: receiptLines.head, period: receiptLines.period })
    .from(receiptLines)
    .innerJoin(receipts, and(eq(receipts.id, receiptLines.receiptId), eq(receipts.status, 'live')))
    .where(and(eq(receiptLines.schoolId, schoolId), eq(receiptLines.studentId, studentId), eq(receiptLines.sessionId, sessionId), inArray(receiptLines.head, heads)));
  return rows
    .filter((r) => !isMonthlyHead(r.head) || (r.period !== null && r.period >= fromMonth && (!toMonth || r.period <= toMonth)))
    .map((r) => periodKey(r.head as ConcessionHead, r.period))
    .sort();
}

export async function concessionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/concession-types',
    { config: { permission: 'fees.view' }, onRequest: requireSchool, schema: { tags: ['fee-policy'], summary: "The school's concession types", security: [{ bearer: [] }], response: { 200: z.array(concessionTypeDto) } } },
    async (request) => {
      const rows = await db.select().from(concessionTypes).where(eq(concessionTypes.schoolId, schoolIdOf(request))).orderBy(concessionTypes.name);
      return rows.map(toTypeDto);
    },
  );

  app.post(
    '/api/concession-types',
    {
      config: { permission: 'fee-policy.manage' }, onRequest: requireSchool,
      schema: { tags: ['fee-policy'], summary: 'Define a concession type (Sibling 10% of tuition, RTE 100% of every head, ₹200 a month off bus)', security: [{ bearer: [] }], body: concessionTypeInput, response: { 201: concessionTypeDto, 400: errorDto, 409: errorDto } },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const b = request.body;
      const row = await db.transaction(async (tx) => {
        const [dup] = await tx.select({ id: concessionTypes.id }).from(concessionTypes).where(and(eq(concessionTypes.schoolId, schoolId), sql`lower(${concessionTypes.name}) = lower(${b.name})`)).limit(1);
        if (dup) throw conflict(`A concession type named ${b.name} already exists`);
        const [created] = await tx.insert(concessionTypes).values({ schoolId, name: b.name, kind: b.kind, value: b.valueStored, heads: b.heads, active: b.active ?? true }).returning();
        await audit(tx, request, { action: 'concession_type.create', entity: 'concession_type', entityId: created!.id, after: created });
        return created!;
      });
      return reply.code(201).send(toTypeDto(row));
    },
  );

  app.put(
    '/api/concession-types/:id',
    {
      config: { permission: 'fee-policy.manage' }, onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: 'Edit or deactivate a concession type for future requests',
        description: 'Approved concessions keep applying as approved only while the type is unchanged: an edit changes the figures of every concession of this type from then on, so schools deactivate a type and create a new one to change the rate for new students.',
        security: [{ bearer: [] }],
        params: idParams,
        body: concessionTypeInput,
        response: { 200: concessionTypeDto, 400: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const b = request.body;
      const row = await db.transaction(async (tx) => {
        // many students at once, and which they are is read below: an approval of this type still in
        // flight (it read the type's old figures) commits first and is among them; one asked later
        // waits and reads the new figures (see lockForManyStudents). Taken after that read, an approval
        // committing in between was neither refreshed here nor computed at the new figures.
        await lockForManyStudents(tx, schoolId);
        const before = await typeOr404(tx, schoolId, request.params.id);
        const [dup] = await tx
          .select({ id: concessionTypes.id })
          .from(concessionTypes)
          .where(and(eq(concessionTypes.schoolId, schoolId), sql`lower(${concessionTypes.name}) = lower(${b.name})`, sql`${concessionTypes.id} <> ${before.id}`))
          .limit(1);
        if (dup) throw conflict(`A concession type named ${b.name} already exists`);
        const [after] = await tx
          .update(concessionTypes)
          .set({ name: b.name, kind: b.kind, value: b.valueStored, heads: b.heads, active: b.active ?? before.active, updatedAt: clock.now() })
          .where(eq(concessionTypes.id, before.id))
          .returning();
        await audit(tx, request, { action: 'concession_type.update', entity: 'concession_type', entityId: before.id, before, after });
        // every approved concession of this type changes its figures: keep running balances in step
        const affected = await tx.selectDistinct({ studentId: concessions.studentId }).from(concessions).where(and(eq(concessions.schoolId, schoolId), eq(concessions.typeId, before.id), eq(concessions.status, 'approved')));
        if (affected.length > 0) await refreshBalances(tx, { schoolId, studentIds: affected.map((a) => a.studentId) });
        return after!;
      });
      return toTypeDto(row);
    },
  );

  app.get(
    '/api/concessions',
    {
      config: { permission: 'fees.view' }, onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: 'Concessions of the school, newest first (filter by student, session and status)',
        security: [{ bearer: [] }],
        querystring: z.object({ studentId: z.string().optional(), academicYear: z.string().optional(), status: z.enum(CONCESSION_STATUSES).optional() }),
        response: { 200: z.array(concessionDto), 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const q = request.query;
      if (q.studentId && !isUuid(q.studentId)) return [];
      const session = q.academicYear ? await findSessionByYear(db, { schoolId, year: q.academicYear }) : undefined;
      if (q.academicYear && !session) return [];
      return listConcessions(db, { schoolId, studentId: q.studentId, sessionId: session?.id, status: q.status });
    },
  );

  app.post(
    '/api/concessions',
    {
      config: { permission: 'concessions.request' }, onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: 'Request a concession for a student and session from a month (status: requested)',
        security: [{ bearer: [] }],
        body: concessionRequestInput,
        response: { 201: concessionDto, 400: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const b = request.body;
      const id = await db.transaction(async (tx) => {
        const student = await findStudentOr404(tx, { schoolId, studentId: b.studentId });
        const type = await typeOr404(tx, schoolId, b.typeId);
        if (!type.active) throw badRequest(`The concession type ${type.name} is no longer in use`);
        const session = await requireSessionByYear(tx, { schoolId, year: b.academicYear });
        await loadStudentSession(tx, { schoolId, studentId: student.id, academicYear: session.name });
        const keys = sessionMonths(session.startDate, session.endDate).map((m) => m.key);
        for (const [label, month] of [['From month', b.fromMonth], ['To month', b.toMonth]] as const) {
          if (month && !keys.includes(month)) throw badRequest(`${label} ${monthLabel(month)} is not a month of the ${session.name} session`);
        }
        await lockStudentLedger(tx, { schoolId, studentId: student.id });
        const [open] = await tx
          .select({ id: concessions.id })
          .from(concessions)
          .where(and(eq(concessions.schoolId, schoolId), eq(concessions.studentId, student.id), eq(concessions.sessionId, session.id), eq(concessions.typeId, type.id), inArray(concessions.status, ['requested', 'approved'])))
          .limit(1);
        if (open) throw conflict(`${student.name} already has a ${type.name} concession in ${session.name} (requested or active)`);
        const [row] = await tx
          .insert(concessions)
          .values({ schoolId, studentId: student.id, sessionId: session.id, typeId: type.id, fromMonth: b.fromMonth, toMonth: b.toMonth ?? null, reason: b.reason, requestedBy: userIdOf(request), requestedAt: clock.now() })
          .returning();
        await audit(tx, request, { action: 'concession.request', entity: 'concession', entityId: row!.id, after: row });
        return row!.id;
      });
      const [dto] = await listConcessions(db, { schoolId, id });
      return reply.code(201).send(dto!);
    },
  );

  const decide = async (outcome: 'approve' | 'reject', request: FastifyRequest, id: string, reason: string | undefined) => {
      const schoolId = schoolIdOf(request);
      if (!isUuid(id)) throw notFound('Concession not found');
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(concessions).where(and(eq(concessions.schoolId, schoolId), eq(concessions.id, id))).limit(1);
        if (!row) throw notFound('Concession not found');
        await lockStudentLedger(tx, { schoolId, studentId: row.studentId });
        const [fresh] = await tx.select().from(concessions).where(eq(concessions.id, row.id)).limit(1);
        if (fresh!.status !== 'requested') throw conflict(`This concession was already ${fresh!.status}`);
        let excluded: string[] = [];
        if (outcome === 'approve') {
          const type = await typeOr404(tx, schoolId, row.typeId);
          excluded = await alreadyPaid(tx, { schoolId, studentId: row.studentId, sessionId: row.sessionId, heads: type.heads as ConcessionHead[], fromMonth: row.fromMonth, toMonth: row.toMonth });
        }
        const [after] = await tx
          .update(concessions)
          .set({ status: outcome === 'approve' ? 'approved' : 'rejected', decisionReason: reason ?? null, decidedBy: userIdOf(request), decidedAt: clock.now(), excluded })
          .where(eq(concessions.id, row.id))
          .returning();
        await audit(tx, request, { action: `concession.${outcome}`, entity: 'concession', entityId: row.id, before: fresh, after });
        if (outcome === 'approve') await refreshBalances(tx, { schoolId, studentIds: [row.studentId], sessionIds: [row.sessionId] });
      });
      const [dto] = await listConcessions(db, { schoolId, id });
      return dto!;
    };

  app.post(
    '/api/concessions/:id/approve',
    {
      config: { permission: 'concessions.approve' }, onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: 'Approve a requested concession: from now on it reduces what is due',
        description: 'Heads and months that already hold a payment keep their due (a concession never changes a saved receipt); they are listed in `excluded`.',
        security: [{ bearer: [] }],
        params: idParams,
        body: concessionDecisionInput.optional(),
        response: { 200: concessionDto, 404: errorDto, 409: errorDto },
      },
    },
    (request) => decide('approve', request, request.params.id, request.body?.reason),
  );

  app.post(
    '/api/concessions/:id/reject',
    {
      config: { permission: 'concessions.approve' }, onRequest: requireSchool,
      schema: { tags: ['fee-policy'], summary: 'Reject a requested concession, with a reason', security: [{ bearer: [] }], params: idParams, body: concessionRejectInput, response: { 200: concessionDto, 400: errorDto, 404: errorDto, 409: errorDto } },
    },
    (request) => decide('reject', request, request.params.id, request.body.reason),
  );
}
