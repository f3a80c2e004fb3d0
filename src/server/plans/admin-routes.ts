import { and, desc, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paise, parseRupees, toRupeeString } from '../../domain/money';
import { planEditSchema } from '../../domain/subscriptions';
import { requireMaster } from '../auth/context';
import { errorDto } from '../auth/dto';
import { planHistory, plans, users } from '../db/schema';
import { audit } from '../lib/audit';
import { notFound } from '../lib/errors';
import { listPlans, type PlanRow } from './queries';

const catalogueEntry = z.object({
  id: z.string(),
  name: z.string(),
  monthlyPrice: z.string(),
  yearlyPrice: z.string(),
  studentLimit: z.number().int().nullable().describe('null: unlimited'),
  features: z.array(z.string()),
  recommended: z.boolean(),
  firstTimeDiscountPercent: z.number().int(),
  updatedAt: z.string(),
  history: z.array(z.object({ changedAt: z.string(), changedBy: z.string().nullable(), reason: z.string(), before: z.unknown(), after: z.unknown() })),
});

function snapshot(p: PlanRow) {
  return {
    name: p.name,
    monthlyPrice: toRupeeString(paise(p.monthlyPricePaise)),
    yearlyPrice: toRupeeString(paise(p.yearlyPricePaise)),
    studentLimit: p.studentLimit,
    features: p.features,
    recommended: p.recommended,
    firstTimeDiscountPercent: p.firstTimeDiscountPercent,
  };
}

/**
 * The plan catalogue editor (ruling 11). A change applies to orders created after it: an order keeps
 * the price and first-time discount it was quoted with. Every change is kept in plan_history.
 */
export async function planAdminRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/admin/plans',
    {
      onRequest: requireMaster,
      schema: { tags: ['admin'], summary: 'The plan catalogue with the history of its changes (master administrator)', security: [{ bearer: [] }], response: { 200: z.array(catalogueEntry) } },
    },
    async () => {
      const rows = await listPlans(db);
      const history = await db
        .select({ planId: planHistory.planId, changedAt: planHistory.changedAt, changedBy: users.email, reason: planHistory.reason, before: planHistory.before, after: planHistory.after })
        .from(planHistory)
        .leftJoin(users, eq(users.id, planHistory.changedBy))
        .orderBy(desc(planHistory.changedAt), desc(planHistory.id));
      return rows.map((p) => ({
        id: p.id,
        ...snapshot(p),
        updatedAt: p.updatedAt.toISOString(),
        history: history.filter((h) => h.planId === p.id).map((h) => ({ ...h, changedAt: h.changedAt.toISOString() })),
      }));
    },
  );

  app.put(
    '/api/admin/plans/:id',
    {
      onRequest: requireMaster,
      schema: {
        tags: ['admin'],
        summary: 'Edit a plan: prices (rupees, before GST), student limit, feature lines, first-time discount %; applies to new orders only',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string().max(40) }),
        body: planEditSchema,
        response: { 200: z.object({ message: z.string() }), 400: errorDto, 403: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const { reason, ...input } = request.body;
      const now = clock.now();
      await db.transaction(async (tx) => {
        // every plan's row, locked in one order: two edits marking different plans recommended run one
        // after the other, so the later one unmarks the earlier's (one MOST POPULAR)
        const catalogue = await tx.select().from(plans).orderBy(plans.id).for('update');
        const before = catalogue.find((p) => p.id === request.params.id);
        if (!before) throw notFound('Plan not found');
        const [after] = await tx
          .update(plans)
          .set({
            name: input.name,
            monthlyPricePaise: parseRupees(input.monthlyPrice)!,
            yearlyPricePaise: parseRupees(input.yearlyPrice)!,
            studentLimit: input.studentLimit,
            features: input.features,
            firstTimeDiscountPercent: input.firstTimeDiscountPercent,
            ...(input.recommended === undefined ? {} : { recommended: input.recommended }),
            updatedAt: now,
          })
          .where(eq(plans.id, before.id))
          .returning();
        // one plan is recommended (MOST POPULAR): marking this one unmarks the others
        if (input.recommended) {
          await tx.update(plans).set({ recommended: false, updatedAt: now }).where(and(ne(plans.id, before.id), eq(plans.recommended, true)));
        }
        await tx.insert(planHistory).values({ planId: before.id, changedAt: now, changedBy: request.auth!.userId, reason, before: snapshot(before), after: snapshot(after!) });
        await audit(tx, { schoolId: null, userId: request.auth!.userId, ip: request.ip }, {
          action: 'plan.edit',
          entity: 'plan',
          entityId: before.id,
          before: snapshot(before),
          after: { ...snapshot(after!), reason },
        });
      });
      return { message: 'Plan saved: new orders use it from now on' };
    },
  );
}
