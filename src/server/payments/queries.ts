import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { paise } from '../../domain/money';
import { subscriptionPrice, type BillingCycle, type PlanId } from '../../domain/plans';
import { sessionCache } from '../auth/session-cache';
import type { Db } from '../db/client';
import { schools, subscriptionPayments } from '../db/schema';
import { audit } from '../lib/audit';
import { findPlan } from '../plans/queries';
import type { SchoolRow } from '../schools/queries';

/** What a school pays for a plan now: the catalogue price, the first-time discount, GST (ruling 11). */
export async function quote(db: Db, school: SchoolRow, planId: PlanId, cycle: BillingCycle) {
  const plan = await findPlan(db, planId);
  if (!plan) return null;
  const base = paise(cycle === 'monthly' ? plan.monthlyPricePaise : plan.yearlyPricePaise);
  return { plan, price: subscriptionPrice(base, !school.hasPaidSubscription) };
}

function addPeriod(start: Date, cycle: BillingCycle): Date {
  const end = new Date(start);
  if (cycle === 'monthly') end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  return end;
}

/**
 * Marks an order paid and activates the plan, once: the UPDATE … WHERE status = 'created' lets only
 * the first of the browser callback and the webhook through. A renewal before the end date extends
 * the running period instead of cutting it short.
 */
export async function activatePaidOrder(
  db: Db,
  request: FastifyRequest | null,
  { orderId, paymentId, now, schoolId }: { orderId: string; paymentId: string; now: Date; schoolId?: string },
): Promise<{ outcome: 'activated' | 'already-paid' | 'not-found'; school?: SchoolRow }> {
  const result = await db.transaction(async (tx) => {
    const conditions = [eq(subscriptionPayments.orderId, orderId), eq(subscriptionPayments.status, 'created')];
    if (schoolId) conditions.push(eq(subscriptionPayments.schoolId, schoolId));
    const [order] = await tx
      .update(subscriptionPayments)
      .set({ status: 'paid', paymentId, paidAt: now })
      .where(and(...conditions))
      .returning();
    if (!order) {
      const [existing] = await tx.select().from(subscriptionPayments).where(eq(subscriptionPayments.orderId, orderId)).limit(1);
      if (!existing || (schoolId && existing.schoolId !== schoolId)) return { outcome: 'not-found' as const };
      const [school] = await tx.select().from(schools).where(eq(schools.id, existing.schoolId));
      return { outcome: 'already-paid' as const, school };
    }
    const [current] = await tx.select().from(schools).where(eq(schools.id, order.schoolId)).for('update');
    const running = current && current.subscriptionStatus !== 'trial' && current.planEndDate && current.planEndDate > now;
    const start = running ? current.planEndDate! : now;
    const [school] = await tx
      .update(schools)
      .set({
        subscriptionPlan: order.planId,
        subscriptionStatus: 'active',
        planStartDate: start,
        planEndDate: addPeriod(start, order.billingCycle),
        hasPaidSubscription: true,
        updatedAt: now,
      })
      .where(eq(schools.id, order.schoolId))
      .returning();
    const entry = {
      action: 'subscription.paid',
      entity: 'subscription_payment',
      entityId: order.id,
      before: { plan: current?.subscriptionPlan, status: current?.subscriptionStatus, planEndDate: current?.planEndDate },
      after: { plan: school!.subscriptionPlan, status: 'active', planEndDate: school!.planEndDate, amountPaise: order.amountPaise, paymentId },
    };
    await audit(tx, request ?? { schoolId: order.schoolId }, entry);
    return { outcome: 'activated' as const, school };
  });
  // the school's sessions may now write again: their remembered plan state is out of date
  if (result.school) sessionCache.forgetSchool(result.school.id);
  return result;
}
