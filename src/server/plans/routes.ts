import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paise, toRupeeString } from '../../domain/money';
import { accessState, type SubscriptionStatus } from '../../domain/plans';
import { requireSchool, schoolIdOf } from '../auth/context';
import { notFound } from '../lib/errors';
import { findSchool } from '../schools/queries';
import { listPlans } from './queries';
import { effectiveSchool } from './timeline';

const planDto = z.object({
  id: z.string(),
  name: z.string(),
  monthlyPrice: z.string(),
  yearlyPrice: z.string(),
  studentLimit: z.union([z.number().int(), z.literal('unlimited')]),
  features: z.array(z.string()),
  recommended: z.boolean(),
});

export async function planRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/plans',
    {
      schema: {
        tags: ['plans'],
        summary: 'The plan catalogue; prices in rupees, excluding 18% GST',
        response: { 200: z.array(planDto) },
      },
    },
    async () => {
      const rows = await listPlans(db);
      return rows.map((p) => ({
        id: p.id,
        name: p.name,
        monthlyPrice: toRupeeString(paise(p.monthlyPricePaise)),
        yearlyPrice: toRupeeString(paise(p.yearlyPricePaise)),
        studentLimit: p.studentLimit ?? ('unlimited' as const),
        features: p.features,
        recommended: p.recommended,
      }));
    },
  );

  app.get(
    '/api/trial-status',
    {
      onRequest: requireSchool,
      config: { permission: 'school.view' },
      schema: {
        tags: ['plans'],
        summary: "The school's trial or plan clock",
        security: [{ bearer: [] }],
        response: {
          200: z.object({
            status: z.enum(['trial', 'active', 'expired', 'cancelled']),
            plan: z.string(),
            isExpired: z.boolean(),
            daysRemaining: z.number().int().nullable(),
            trialEndsAt: z.string().nullable(),
            planEndDate: z.string().nullable(),
          }),
        },
      },
    },
    async (request) => {
      const stored = await findSchool(db, { schoolId: schoolIdOf(request) });
      if (!stored) throw notFound('School not found');
      const school = effectiveSchool(stored, clock.now());
      const status = school.subscriptionStatus as SubscriptionStatus;
      const paidUntil = school.queuedEnd ?? school.planEndDate;
      const access = accessState({ subscriptionStatus: status, trialEndsAt: school.trialEndsAt, planEndDate: paidUntil }, clock.now());
      return {
        status,
        plan: school.subscriptionPlan,
        isExpired: access.isExpired,
        daysRemaining: access.daysRemaining,
        trialEndsAt: school.trialEndsAt?.toISOString() ?? null,
        planEndDate: school.planEndDate?.toISOString() ?? null,
      };
    },
  );
}
