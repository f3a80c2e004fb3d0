import { and, desc, eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FINE_WAIVER_STATUS_LABELS,
  FINE_WAIVER_STATUSES,
  fineSummaryDto,
  fineSummaryToDto,
  fineWaiverRequestInput,
  lateFineRuleDto,
  lateFineRuleInput,
  lateFineRuleToDto,
} from '../../domain/fines';
import { indiaMonthKey } from '../../domain/ledger';
import { toRupeeString, type Paise } from '../../domain/money';
import { indiaDate, normaliseAcademicYear } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { refreshBalances } from '../balances/refresh';
import { academicSessions, feeRules, fineWaivers, students, users } from '../db/schema';
import { accountFor, loadStudentSession, scheduleFor } from '../fees/context';
import { lockStudentLedger } from '../fees/locks';
import { findSessionById, findSessionByYear } from '../fees/queries';
import { audit } from '../lib/audit';
import { badRequest, conflict, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { lockFeeRules } from './fee-rules-row';
import { loadLateFineRule, studentFine } from './fines';

const waiverDto = z.object({
  id: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  academicYear: z.string(),
  instalment: z.string(),
  status: z.enum(FINE_WAIVER_STATUSES),
  statusLabel: z.string(),
  reason: z.string(),
  decisionReason: z.string().nullable(),
  amount: z.string().nullable().describe('the fine waived, fixed when approved'),
  requestedBy: z.string().nullable().describe('who asked for it (their user name)'),
  requestedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
});

type WaiverRow = typeof fineWaivers.$inferSelect & { studentName: string; academicYear: string; requestedByName: string | null; decidedByName: string | null };
const toWaiverDto = (w: WaiverRow): z.infer<typeof waiverDto> => ({
  id: w.id,
  studentId: w.studentId,
  studentName: w.studentName,
  academicYear: w.academicYear,
  instalment: w.instalment,
  status: w.status,
  statusLabel: FINE_WAIVER_STATUS_LABELS[w.status],
  reason: w.reason,
  decisionReason: w.decisionReason,
  amount: w.amountPaise === null ? null : toRupeeString(Number(w.amountPaise) as Paise),
  requestedBy: w.requestedByName,
  requestedAt: w.requestedAt.toISOString(),
  decidedBy: w.decidedByName,
  decidedAt: w.decidedAt?.toISOString() ?? null,
});

const uuidField = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => isUuid(v), { message: `${label} must be an id from the app (a UUID)` })
    .optional();

/** GET /api/fine-waivers: every filter optional, each a clear 400 when it cannot match anything by its form. */
export const waiverListQuery = z.object({
  status: z.enum(FINE_WAIVER_STATUSES, { message: 'status must be requested, approved or rejected' }).optional(),
  requestedBy: uuidField('requestedBy'),
  studentId: uuidField('studentId'),
  academicYear: z
    .string()
    .trim()
    .max(40, 'academicYear is too long')
    .refine((v) => isUuid(v) || normaliseAcademicYear(v) !== null, { message: 'academicYear must be a session such as 2025-2026' })
    .optional(),
});
type WaiverFilter = { id?: string; studentId?: string; status?: (typeof FINE_WAIVER_STATUSES)[number]; requestedBy?: string; sessionId?: string };

const waiverRequester = alias(users, 'waiver_requester');
const waiverDecider = alias(users, 'waiver_decider');

export async function fineRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  const waiverRows = (schoolId: string, filter: WaiverFilter) => {
    const where: SQL[] = [eq(fineWaivers.schoolId, schoolId)];
    if (filter.id) where.push(eq(fineWaivers.id, filter.id));
    if (filter.studentId) where.push(eq(fineWaivers.studentId, filter.studentId));
    if (filter.status) where.push(eq(fineWaivers.status, filter.status));
    if (filter.requestedBy) where.push(eq(fineWaivers.requestedBy, filter.requestedBy));
    if (filter.sessionId) where.push(eq(fineWaivers.sessionId, filter.sessionId));
    return db
      .select({ w: fineWaivers, studentName: students.name, academicYear: academicSessions.name, requestedByName: waiverRequester.username, decidedByName: waiverDecider.username })
      .from(fineWaivers)
      .innerJoin(students, eq(students.id, fineWaivers.studentId))
      .innerJoin(academicSessions, eq(academicSessions.id, fineWaivers.sessionId))
      .leftJoin(waiverRequester, eq(waiverRequester.id, fineWaivers.requestedBy))
      .leftJoin(waiverDecider, eq(waiverDecider.id, fineWaivers.decidedBy))
      .where(and(...where))
      .orderBy(desc(fineWaivers.requestedAt))
      .limit(1000)
      .then((rows) => rows.map((r) => toWaiverDto({ ...r.w, studentName: r.studentName, academicYear: r.academicYear, requestedByName: r.requestedByName, decidedByName: r.decidedByName })));
  };

  app.get(
    '/api/fee-rules/late-fine',
    { config: { permission: 'fees.view' }, onRequest: requireSchool, schema: { tags: ['fee-policy'], summary: "The school's late-fine rule (off until set)", security: [{ bearer: [] }], response: { 200: lateFineRuleDto } } },
    async (request) => lateFineRuleToDto(await loadLateFineRule(db, schoolIdOf(request))),
  );

  app.put(
    '/api/fee-rules/late-fine',
    {
      config: { permission: 'fee-policy.manage' }, onRequest: requireSchool,
      schema: { tags: ['fee-policy'], summary: 'Set the late-fine rule: due day, grace days, per day / flat / slab, caps, heads', security: [{ bearer: [] }], body: lateFineRuleInput, response: { 200: lateFineRuleDto, 400: errorDto } },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const rule = request.body;
      await db.transaction(async (tx) => {
        await lockFeeRules(tx, schoolId);
        const before = await loadLateFineRule(tx, schoolId);
        await tx.insert(feeRules).values({ schoolId, lateFine: rule, updatedAt: clock.now() }).onConflictDoUpdate({ target: feeRules.schoolId, set: { lateFine: rule, updatedAt: clock.now() } });
        await audit(tx, request, { action: 'fee_rules.late_fine', entity: 'fee_rules', entityId: schoolId, before, after: rule });
      });
      return lateFineRuleToDto(rule);
    },
  );

  app.get(
    '/api/students/:id/late-fine',
    {
      config: { permission: 'fees.view' }, onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: "A student's late fine as of a date (today by default), with how it was reached",
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        querystring: z.object({ academicYear: z.string().optional(), asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'asOf must be a date (YYYY-MM-DD)').optional() }),
        response: { 200: fineSummaryDto, 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const ctx = await loadStudentSession(db, { schoolId, studentId: request.params.id, academicYear: request.query.academicYear });
      const asOf = request.query.asOf ?? indiaDate(now);
      const account = accountFor(ctx, indiaMonthKey(now));
      const { rule, fine } = await studentFine(db, { schoolId, studentId: ctx.student.id, sessionId: ctx.session.id, account, asOf, schedule: scheduleFor(ctx) });
      return fineSummaryToDto(fine, rule.enabled);
    },
  );

  app.get(
    '/api/fine-waivers',
    {
      config: { permission: 'fees.view' }, onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: 'Fine waivers, newest first, filtered by status, who asked, student and session',
        description: 'A session the school does not have matches no waiver (an empty list); a filter of the wrong form is a 400.',
        security: [{ bearer: [] }],
        querystring: waiverListQuery,
        response: { 200: z.array(waiverDto), 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { academicYear, ...filter } = request.query;
      const session = academicYear ? await findSessionByYear(db, { schoolId, year: academicYear }) : undefined;
      if (academicYear && !session) return [];
      return waiverRows(schoolId, { ...filter, sessionId: session?.id });
    },
  );

  app.post(
    '/api/fine-waivers',
    {
      config: { permission: 'concessions.request' }, onRequest: requireSchool,
      schema: { tags: ['fee-policy'], summary: "Ask to waive one instalment's late fine, with a reason", security: [{ bearer: [] }], body: fineWaiverRequestInput, response: { 201: waiverDto, 400: errorDto, 404: errorDto, 409: errorDto } },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const b = request.body;
      const now = clock.now();
      const id = await db.transaction(async (tx) => {
        const ctx = await loadStudentSession(tx, { schoolId, studentId: b.studentId, academicYear: b.academicYear });
        await lockStudentLedger(tx, { schoolId, studentId: ctx.student.id });
        const { fine } = await studentFine(tx, { schoolId, studentId: ctx.student.id, sessionId: ctx.session.id, account: accountFor(ctx, indiaMonthKey(now)), asOf: indiaDate(now), schedule: scheduleFor(ctx) });
        const line = fine.lines.find((l) => l.instalment === b.instalment);
        if (!line) throw badRequest(`${ctx.student.name} has no late fine for ${b.instalment}`);
        if (line.waived) throw conflict(`The late fine of ${line.label} is already waived`);
        const [open] = await tx
          .select({ id: fineWaivers.id })
          .from(fineWaivers)
          .where(and(eq(fineWaivers.schoolId, schoolId), eq(fineWaivers.studentId, ctx.student.id), eq(fineWaivers.sessionId, ctx.session.id), eq(fineWaivers.instalment, b.instalment), eq(fineWaivers.status, 'requested')))
          .limit(1);
        if (open) throw conflict(`A waiver of the late fine of ${line.label} is already awaiting approval`);
        const [row] = await tx
          .insert(fineWaivers)
          .values({ schoolId, studentId: ctx.student.id, sessionId: ctx.session.id, instalment: b.instalment, reason: b.reason, requestedBy: request.auth?.userId ?? null, requestedAt: now })
          .returning();
        await audit(tx, request, { action: 'fine_waiver.request', entity: 'fine_waiver', entityId: row!.id, after: row });
        return row!.id;
      });
      const [dto] = await waiverRows(schoolId, { id });
      return reply.code(201).send(dto!);
    },
  );

  const decide = async (outcome: 'approve' | 'reject', request: FastifyRequest, id: string, reason: string | undefined) => {
    const schoolId = schoolIdOf(request);
    if (!isUuid(id)) throw notFound('Fine waiver not found');
    const now = clock.now();
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(fineWaivers).where(and(eq(fineWaivers.schoolId, schoolId), eq(fineWaivers.id, id))).limit(1);
      if (!row) throw notFound('Fine waiver not found');
      await lockStudentLedger(tx, { schoolId, studentId: row.studentId });
      const [fresh] = await tx.select().from(fineWaivers).where(eq(fineWaivers.id, id)).limit(1);
      if (fresh!.status !== 'requested') throw conflict(`This waiver was already ${fresh!.status === 'approved' ? 'approved' : 'rejected'}`);
      let amount: number | null = null;
      if (outcome === 'approve') {
        const session = await findSessionById(tx, { schoolId, id: row.sessionId });
        const ctx = await loadStudentSession(tx, { schoolId, studentId: row.studentId, academicYear: session?.name ?? null });
        const { fine } = await studentFine(tx, { schoolId, studentId: row.studentId, sessionId: row.sessionId, account: accountFor(ctx, indiaMonthKey(now)), asOf: indiaDate(now), schedule: scheduleFor(ctx) });
        amount = fine.lines.find((l) => l.instalment === row.instalment)?.amount ?? 0;
      }
      const [after] = await tx
        .update(fineWaivers)
        .set({ status: outcome === 'approve' ? 'approved' : 'rejected', decisionReason: reason ?? null, amountPaise: amount, decidedBy: request.auth?.userId ?? null, decidedAt: now })
        .where(eq(fineWaivers.id, id))
        .returning();
      await audit(tx, request, { action: `fine_waiver.${outcome}`, entity: 'fine_waiver', entityId: id, before: fresh, after });
      if (outcome === 'approve') await refreshBalances(tx, { schoolId, studentIds: [row.studentId], sessionIds: [row.sessionId] });
    });
    const [dto] = await waiverRows(schoolId, { id });
    return dto!;
  };

  app.post(
    '/api/fine-waivers/:id/approve',
    {
      config: { permission: 'fines.waive' }, onRequest: requireSchool,
      schema: { tags: ['fee-policy'], summary: 'Approve a fine waiver: that instalment carries no fine', security: [{ bearer: [] }], params: z.object({ id: z.string() }), body: z.object({ reason: z.string().trim().max(500).optional() }).optional(), response: { 200: waiverDto, 404: errorDto, 409: errorDto } },
    },
    (request) => decide('approve', request, request.params.id, request.body?.reason),
  );

  app.post(
    '/api/fine-waivers/:id/reject',
    {
      config: { permission: 'fines.waive' }, onRequest: requireSchool,
      schema: { tags: ['fee-policy'], summary: 'Reject a fine waiver, with a reason', security: [{ bearer: [] }], params: z.object({ id: z.string() }), body: z.object({ reason: z.string().trim().min(3, 'Give a reason for rejecting the waiver').max(500) }), response: { 200: waiverDto, 400: errorDto, 404: errorDto, 409: errorDto } },
    },
    (request) => decide('reject', request, request.params.id, request.body.reason),
  );
}
