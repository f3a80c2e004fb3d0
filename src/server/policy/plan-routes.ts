import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLASSES, normaliseClass } from '../../domain/classes';
import {
  DEFAULT_PLAN,
  instalmentDto,
  instalmentPlanDto,
  instalmentPlanInput,
  instalmentPlanToDto,
  instalmentPositions,
  instalmentSchedule,
  PLAN_KINDS,
  planProblem,
  type InstalmentPlan,
} from '../../domain/instalments';
import { indiaMonthKey, YEARLY_HEADS } from '../../domain/ledger';
import { toRupeeString, type Paise } from '../../domain/money';
import { indiaDate, sessionMonths } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { rebuildSchoolBalances, refreshClassBalances } from '../balances/refresh';
import type { Db } from '../db/client';
import { instalmentPlans } from '../db/schema';
import { accountFor, loadStudentSession } from '../fees/context';
import { structureAmounts } from '../fees/queries';
import { audit } from '../lib/audit';
import { badRequest, notFound } from '../lib/errors';
import { lockFor } from '../lib/locks';
import { findActiveSession } from '../sessions/queries';
import { DEFAULT_SCOPE, loadPlans } from './plans';

/**
 * Instalment plans (issue 16 item 3, decision 0048): how a class (or the whole school) collects its
 * fees. Saving one moves when fees fall due for every student it covers, so the same transaction
 * refreshes their running balances; nothing already received is touched.
 */

const scopeParams = z.object({ scope: z.string().describe('"default" or a class name') });

/** The path's scope as stored ('' for the school's default) and as shown, or 404 for a class the school cannot have. */
function resolveScope(raw: string): { stored: string; shown: string } {
  const text = raw.trim();
  if (text.toLowerCase() === DEFAULT_SCOPE) return { stored: '', shown: DEFAULT_SCOPE };
  const className = normaliseClass(text);
  if (!className) throw notFound(`There is no class called "${text.slice(0, 40)}". Choose one of ${CLASSES[0]} to ${CLASSES[CLASSES.length - 1]}, or "default" for the whole school.`);
  return { stored: className, shown: className };
}

/**
 * Every student a plan of this scope covers, recomputed under the exclusive ledger lock: the whole
 * school for the default, else whoever sits or sat in the class (as a fee structure's change).
 */
async function refreshCovered(tx: Db, schoolId: string, stored: string): Promise<void> {
  if (stored === '') await rebuildSchoolBalances(tx, schoolId);
  else await refreshClassBalances(tx, { schoolId, classNames: [stored] });
}

export async function planRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/instalment-plans',
    {
      config: { permission: 'fees.view' },
      onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: "The school's instalment plans: the default first (monthly when none is saved), then each class that has its own",
        security: [{ bearer: [] }],
        response: { 200: z.object({ plans: z.array(instalmentPlanDto) }) },
      },
    },
    async (request) => {
      const plans = await loadPlans(db, schoolIdOf(request));
      const classes = [...plans.keys()].filter((k) => k !== '');
      const rank = (k: string) => CLASSES.findIndex((c) => c.toLowerCase() === k);
      classes.sort((a, b) => rank(a) - rank(b));
      return {
        plans: [
          instalmentPlanToDto(DEFAULT_SCOPE, plans.get('') ?? DEFAULT_PLAN),
          ...classes.map((k) => instalmentPlanToDto(normaliseClass(k) ?? k, plans.get(k)!)),
        ],
      };
    },
  );

  app.put(
    '/api/instalment-plans/:scope',
    {
      config: { permission: 'fees.setup' },
      onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: 'Set how the school ("default") or a class collects its fees: monthly, quarterly, half-yearly or custom instalments',
        security: [{ bearer: [] }],
        params: scopeParams,
        body: instalmentPlanInput,
        response: { 200: instalmentPlanDto, 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { stored, shown } = resolveScope(request.params.scope);
      const plan: InstalmentPlan = request.body;
      if (plan.kind === 'custom') {
        const session = await findActiveSession(db, { schoolId });
        if (!session) throw badRequest('Create an academic session under Session Management before setting custom instalments.');
        const problem = planProblem(plan, sessionMonths(session.startDate, session.endDate));
        if (problem) throw badRequest(problem);
        const outside = plan.custom.find((c) => c.dueDate < session.startDate || c.dueDate > session.endDate);
        if (outside) throw badRequest(`The due date of ${outside.label} (${outside.dueDate}) is outside the ${session.name} session`);
      }
      await db.transaction(async (tx) => {
        // two saves of one scope run one after the other: the audit's "before" is what this one replaces
        await lockFor(tx, `instalment-plan:${schoolId}:${stored}`);
        const [before] = await tx
          .select({ plan: instalmentPlans.plan })
          .from(instalmentPlans)
          .where(and(eq(instalmentPlans.schoolId, schoolId), eq(instalmentPlans.scope, stored)))
          .limit(1);
        await tx
          .insert(instalmentPlans)
          .values({ schoolId, scope: stored, plan, updatedAt: clock.now() })
          .onConflictDoUpdate({ target: [instalmentPlans.schoolId, instalmentPlans.scope], set: { plan, updatedAt: clock.now() } });
        await refreshCovered(tx, schoolId, stored);
        await audit(tx, request, { action: 'instalment_plan.save', entity: 'instalment_plan', entityId: shown, before: before?.plan ?? null, after: plan });
      });
      return instalmentPlanToDto(shown, plan);
    },
  );

  app.delete(
    '/api/instalment-plans/:scope',
    {
      config: { permission: 'fees.setup' },
      onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: "Remove a class's own plan (it then follows the school's default) or reset the default to monthly",
        security: [{ bearer: [] }],
        params: scopeParams,
        response: { 204: z.null(), 404: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { stored, shown } = resolveScope(request.params.scope);
      const removed = await db.transaction(async (tx) => {
        const [row] = await tx
          .delete(instalmentPlans)
          .where(and(eq(instalmentPlans.schoolId, schoolId), eq(instalmentPlans.scope, stored)))
          .returning({ plan: instalmentPlans.plan });
        if (!row) return false;
        await refreshCovered(tx, schoolId, stored);
        await audit(tx, request, { action: 'instalment_plan.remove', entity: 'instalment_plan', entityId: shown, before: row.plan, after: null });
        return true;
      });
      if (!removed) throw notFound(stored === '' ? 'The school has no default plan saved: it collects monthly' : `${shown} has no plan of its own`);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/students/:id/instalments',
    {
      config: { permission: 'fees.view' },
      onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: "A student's instalments in a session under their class's plan: due dates, amounts, what is paid and outstanding of each",
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        querystring: z.object({ academicYear: z.string().optional() }),
        response: {
          200: z.object({ plan: z.enum(PLAN_KINDS), academicYear: z.string(), instalments: z.array(instalmentDto) }),
          400: errorDto,
          404: errorDto,
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const ctx = await loadStudentSession(db, { schoolId, studentId: request.params.id, academicYear: request.query.academicYear });
      const months = sessionMonths(ctx.session.startDate, ctx.session.endDate);
      const schedule = instalmentSchedule(ctx.structure ? structureAmounts(ctx.structure) : null, ctx.plan, { months, busFee: ctx.student.monthlyBusFeePaise as Paise });
      const account = accountFor(ctx, indiaMonthKey(now));
      const today = indiaDate(now);
      return {
        plan: ctx.plan.kind,
        academicYear: ctx.session.name,
        instalments: instalmentPositions(schedule, account).map(({ instalment: i, due, paid, outstanding }) => ({
          key: i.key,
          label: i.label,
          dueDate: i.dueDate,
          months: i.months,
          tuition: toRupeeString(i.tuition),
          bus: toRupeeString(i.bus),
          yearly: Object.fromEntries(YEARLY_HEADS.map((h) => [h, toRupeeString(i.yearly[h])])) as Record<(typeof YEARLY_HEADS)[number], string>,
          total: toRupeeString(i.total),
          due: toRupeeString(due),
          paid: toRupeeString(paid),
          outstanding: toRupeeString(outstanding),
          fallenDue: i.dueDate <= today,
        })),
      };
    },
  );
}
