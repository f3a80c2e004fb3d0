import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { paise } from '../../domain/money';
import {
  applyRenewal,
  quoteRenewal,
  sameCharge,
  settleTimeline,
  type BillingCycle,
  type PlanId,
  type PlanRanks,
  type RenewalQuote,
  type RenewalRefusal,
} from '../../domain/plans';
import { sessionCache } from '../auth/session-cache';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { issueInvoice } from '../invoices/issue';
import { schools, subscriptionPayments } from '../db/schema';
import { audit } from '../lib/audit';
import { findPlan } from '../plans/queries';
import { planRanks, timelineColumns, timelineOf } from '../plans/timeline';
import type { SchoolRow } from '../schools/queries';

export type OrderRow = typeof subscriptionPayments.$inferSelect;

/**
 * What an order for a plan buys the school now, and for how much (rulings 11 and 28): the catalogue
 * price, the first-time discount while the school has never paid, the credit of an upgrade, GST.
 */
export async function quote(
  db: Db,
  school: SchoolRow,
  planId: PlanId,
  cycle: BillingCycle,
  now: Date,
): Promise<{ planName: string; quote: RenewalQuote; discountPercent: number } | { planName: string; refused: RenewalRefusal } | null> {
  const plan = await findPlan(db, planId);
  if (!plan) return null;
  const base = paise(cycle === 'monthly' ? plan.monthlyPricePaise : plan.yearlyPricePaise);
  const result = quoteRenewal({
    timeline: timelineOf(school),
    ranks: await planRanks(db),
    planId,
    cycle,
    base,
    firstSubscription: !school.hasPaidSubscription,
    discountPercent: plan.firstTimeDiscountPercent,
    now,
  });
  const discountPercent = plan.firstTimeDiscountPercent;
  return 'refused' in result ? { planName: plan.name, refused: result.refused } : { planName: plan.name, quote: result, discountPercent };
}

/**
 * The order's quote worked out again against the school as it is now, at the time the order was
 * quoted. It still holds when it charges the same money for the same kind of change; it does not
 * when another payment came first (a second first-time discount, a credit already used).
 */
function requote(order: OrderRow, school: SchoolRow, ranks: PlanRanks, now: Date): RenewalQuote | null {
  const result = quoteRenewal({
    timeline: settleTimeline(timelineOf(school), now),
    ranks,
    planId: order.planId,
    cycle: order.billingCycle,
    base: paise(order.basePaise),
    firstSubscription: !school.hasPaidSubscription,
    ...(order.discountPercent !== null ? { discountPercent: order.discountPercent } : {}),
    now: order.createdAt,
  });
  if ('refused' in result) return null;
  // an order from before quotes were stored has no kind: its money decides
  const stored = { kind: order.kind ?? result.kind, base: paise(order.basePaise), discount: paise(order.discountPaise), credit: paise(order.creditPaise), total: paise(order.amountPaise) };
  return sameCharge(result, stored) ? result : null;
}

/** Before the sandbox "charges" an order: is it still payable as quoted? (Razorpay charges first; verify decides.) */
export async function orderStillPayable(db: Db, { orderId, schoolId, now }: { orderId: string; schoolId: string; now: Date }) {
  const [order] = await db
    .select()
    .from(subscriptionPayments)
    .where(and(eq(subscriptionPayments.orderId, orderId), eq(subscriptionPayments.schoolId, schoolId)))
    .limit(1);
  if (!order) return 'not-found' as const;
  if (order.status !== 'created') return 'closed' as const;
  const [school] = await db.select().from(schools).where(eq(schools.id, schoolId)).limit(1);
  return school && requote(order, school, await planRanks(db), now) ? ('payable' as const) : ('stale' as const);
}

export type ActivationOutcome = 'activated' | 'already-paid' | 'refused' | 'not-found';

/**
 * Records a captured payment once and applies exactly what its order was quoted for. The order row
 * is locked first (the browser callback and the webhook may race), then the school row, so the
 * first-time discount and an upgrade's credit are decided against the school as it is at capture:
 * of several orders quoted on the same state, only the first captured is applied; the others are
 * marked refused (their money is to be refunded) and change nothing.
 */
export async function activatePaidOrder(
  db: Db,
  request: FastifyRequest | null,
  { orderId, paymentId, now, schoolId, config }: { orderId: string; paymentId: string; now: Date; schoolId?: string; config: Config },
): Promise<{ outcome: ActivationOutcome; school?: SchoolRow }> {
  const result = await db.transaction(async (tx) => {
    const conditions = [eq(subscriptionPayments.orderId, orderId)];
    if (schoolId) conditions.push(eq(subscriptionPayments.schoolId, schoolId));
    const [order] = await tx.select().from(subscriptionPayments).where(and(...conditions)).for('update');
    if (!order) return { outcome: 'not-found' as const };
    const [current] = await tx.select().from(schools).where(eq(schools.id, order.schoolId)).for('update');
    if (!current) return { outcome: 'not-found' as const };
    if (order.status === 'paid') return { outcome: 'already-paid' as const, school: current };
    if (order.status === 'refused') return { outcome: 'refused' as const, school: current };

    const applied = requote(order, current, await planRanks(tx), now);
    const auditTarget = request ?? { schoolId: order.schoolId };
    if (!applied) {
      await tx.update(subscriptionPayments).set({ status: 'refused', paymentId, paidAt: now }).where(eq(subscriptionPayments.id, order.id));
      await audit(tx, auditTarget, {
        action: 'subscription.refused',
        entity: 'subscription_payment',
        entityId: order.id,
        after: { reason: 'the quote no longer holds: another payment was applied first', amountPaise: order.amountPaise, paymentId },
      });
      return { outcome: 'refused' as const, school: current };
    }

    const timeline = applyRenewal(timelineOf(current), applied, now);
    const [school] = await tx
      .update(schools)
      .set({
        ...timelineColumns(timeline),
        subscriptionStatus: 'active',
        planStartDate: timeline.current!.valueFrom,
        hasPaidSubscription: true,
        updatedAt: now,
      })
      .where(eq(schools.id, order.schoolId))
      .returning();
    const [paid] = await tx
      .update(subscriptionPayments)
      .set({ status: 'paid', paymentId, paidAt: now, periodStart: applied.start, periodEnd: applied.end })
      .where(eq(subscriptionPayments.id, order.id))
      .returning();
    // ruling 33: every subscription payment gets its tax invoice, in the same transaction
    const plan = await findPlan(tx, order.planId);
    await issueInvoice(tx, { config, payment: paid!, school: school!, planName: plan?.name ?? order.planId, now });
    await audit(tx, auditTarget, {
      action: 'subscription.paid',
      entity: 'subscription_payment',
      entityId: order.id,
      before: { plan: current.subscriptionPlan, status: current.subscriptionStatus, planEndDate: current.planEndDate, queuedPlan: current.queuedPlan },
      after: {
        kind: applied.kind,
        plan: applied.planId,
        periodStart: applied.start,
        periodEnd: applied.end,
        planEndDate: school!.planEndDate,
        queuedPlan: school!.queuedPlan,
        amountPaise: order.amountPaise,
        creditPaise: applied.credit,
        paymentId,
      },
    });
    return { outcome: 'activated' as const, school };
  });
  // the school's sessions may now write again: their remembered plan state is out of date
  if (result.school && result.outcome === 'activated') sessionCache.forgetSchool(result.school.id);
  return result;
}
