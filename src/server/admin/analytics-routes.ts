import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paise, toRupeeString } from '../../domain/money';
import { requireMaster } from '../auth/context';
import { schools, subscriptionPayments } from '../db/schema';
import { listPlans } from '../plans/queries';
import { effectiveSchool } from '../plans/timeline';
import { computeAnalytics } from './analytics';

const rupees = z.string().describe('rupees, two decimals');

/** The Analytics tab: MRR and ARR, revenue per month, sign-ups and conversion per week, churn, plan mix. */
export async function analyticsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/admin/analytics',
    {
      onRequest: requireMaster,
      schema: {
        tags: ['admin'],
        summary:
          'Subscription business figures: MRR (monthly price, or yearly ÷ 12, of every running paid plan that will renew) and ARR, revenue less GST for the last 12 India months, sign-ups and trial→paid conversion for the last 12 weeks, churn per month, plan mix (master administrator)',
        security: [{ bearer: [] }],
        response: {
          200: z.object({
            asOf: z.string(),
            mrr: rupees,
            arr: rupees,
            payingSchools: z.number().int(),
            revenueLast12Months: rupees,
            trialToPaidPercent: z.number(),
            revenueByMonth: z.array(z.object({ month: z.string(), revenue: rupees, payments: z.number().int() })),
            signupsByWeek: z.array(z.object({ weekStart: z.string(), signups: z.number().int(), converted: z.number().int(), conversionPercent: z.number() })),
            churnByMonth: z.array(z.object({ month: z.string(), payingAtStart: z.number().int(), churned: z.number().int(), churnPercent: z.number() })),
            planMix: z.array(z.object({ plan: z.string(), name: z.string(), schools: z.number().int(), mrr: rupees })),
          }),
        },
      },
    },
    async () => {
      const now = clock.now();
      const [schoolRows, paymentRows, plans] = await Promise.all([
        db.select().from(schools),
        db
          .select({
            schoolId: subscriptionPayments.schoolId,
            planId: subscriptionPayments.planId,
            billingCycle: subscriptionPayments.billingCycle,
            amountPaise: subscriptionPayments.amountPaise,
            gstPaise: subscriptionPayments.gstPaise,
            paidAt: subscriptionPayments.paidAt,
            periodStart: subscriptionPayments.periodStart,
            periodEnd: subscriptionPayments.periodEnd,
          })
          .from(subscriptionPayments)
          .where(and(eq(subscriptionPayments.status, 'paid'), isNotNull(subscriptionPayments.paidAt))),
        listPlans(db),
      ]);
      const result = computeAnalytics({
        now,
        plans: plans.map((p) => ({ id: p.id, name: p.name, monthlyPricePaise: Number(p.monthlyPricePaise), yearlyPricePaise: Number(p.yearlyPricePaise) })),
        payments: paymentRows.map((p) => ({
          schoolId: p.schoolId,
          planId: p.planId,
          billingCycle: p.billingCycle,
          netPaise: paise(Number(p.amountPaise) - Number(p.gstPaise)),
          paidAt: p.paidAt!,
          periodStart: p.periodStart,
          periodEnd: p.periodEnd,
        })),
        schools: schoolRows.map((stored) => {
          const row = effectiveSchool(stored, now);
          return {
            id: row.id,
            createdAt: row.createdAt,
            status: row.subscriptionStatus,
            plan: row.subscriptionPlan,
            paidUntil: row.queuedEnd ?? row.planEndDate,
            hasPaid: row.hasPaidSubscription,
          };
        }),
      });
      return {
        asOf: now.toISOString(),
        mrr: toRupeeString(result.mrr),
        arr: toRupeeString(result.arr),
        payingSchools: result.payingSchools,
        revenueLast12Months: toRupeeString(result.revenueLast12Months),
        trialToPaidPercent: result.trialToPaidPercent,
        revenueByMonth: result.revenueByMonth.map((m) => ({ ...m, revenue: toRupeeString(m.revenue) })),
        signupsByWeek: result.signupsByWeek,
        churnByMonth: result.churnByMonth,
        planMix: result.planMix.map((p) => ({ ...p, mrr: toRupeeString(p.mrr) })),
      };
    },
  );
}
