import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toRupeeString, type Paise } from '../../domain/money';
import { PLAN_IDS, type BillingCycle, type PlanId, type RenewalQuote } from '../../domain/plans';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { subscriptionPayments } from '../db/schema';
import { noteWebhook } from './webhook-log';
import { badRequest, HttpError, notFound } from '../lib/errors';
import { parseJsonKeepingRaw } from '../lib/raw-json-body';
import { listPlans } from '../plans/queries';
import { findSchool, schoolDto, toSchoolDto } from '../schools/queries';
import {
  INVALID_PLAN,
  NOTHING_TO_PAY,
  ORDER_CLOSED,
  ORDER_FAILED,
  ORDER_NOT_FOUND,
  PAYMENT_FAILED,
  QUOTE_NO_LONGER_HOLDS,
  REFUSALS,
} from './messages';
import { SandboxProvider } from './provider';
import { activatePaidOrder, orderStillPayable, quote } from './queries';

const orderBody = z.object({
  /** basic | standard | premium, or the monthly ids basic-monthly … */
  planType: z.string().trim().max(40),
  billingCycle: z.enum(['monthly', 'yearly']).optional(),
  /** what the browser showed, in paise; the server's price is the one charged */
  amount: z.union([z.number(), z.string().max(20)]).optional(),
});

const verifyBody = z.object({
  razorpay_order_id: z.string().min(1, 'Payment details are missing').max(100),
  razorpay_payment_id: z.string().min(1, 'Payment details are missing').max(100),
  razorpay_signature: z.string().min(1, 'Payment details are missing').max(200),
  planId: z.string().max(40).optional(),
  planType: z.string().max(40).optional(),
  schoolId: z.string().max(60).optional(),
});

function parsePlan(planType: string, cycle: BillingCycle | undefined): { planId: PlanId; cycle: BillingCycle } | null {
  const monthly = planType.endsWith('-monthly');
  const id = planType.replace(/-monthly$/, '');
  if (!(PLAN_IDS as readonly string[]).includes(id)) return null;
  return { planId: id as PlanId, cycle: monthly ? 'monthly' : (cycle ?? 'yearly') };
}

const money = (p: Paise) => toRupeeString(p);

/** Razorpay takes no order under ₹1. */
const MIN_ORDER_PAISE = 100;

const priceDto = z.object({
  base: z.string(),
  discount: z.string(),
  /** the unused part of the current plan taken off an upgrade (ruling 28) */
  credit: z.string(),
  gst: z.string(),
  total: z.string(),
  undiscountedTotal: z.string(),
});
const changeDto = z.object({
  /** start: begins now; extend: added after the current end; upgrade: begins now with credit; queue: begins when the current plan ends */
  kind: z.enum(['start', 'extend', 'upgrade', 'queue']),
  startDate: z.string(),
  endDate: z.string(),
});

function priceOf(q: RenewalQuote) {
  return {
    base: money(q.base),
    discount: money(q.discount),
    credit: money(q.credit),
    gst: money(q.gst),
    total: money(q.total),
    undiscountedTotal: money(q.undiscountedTotal),
  };
}
const changeOf = (q: RenewalQuote) => ({ kind: q.kind, startDate: q.start.toISOString(), endDate: q.end.toISOString() });

export async function paymentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, payments } = app.deps;

  app.post(
    '/api/payments/create-subscription-order',
    {
      onRequest: requireSchool,
      config: { permission: 'billing.manage', allowWhenExpired: true },
      schema: {
        tags: ['payments'],
        summary: 'Create a payment order for a plan; the server quotes it (ruling 28: extend, upgrade with credit, or queue; first-time discount; 18% GST)',
        security: [{ bearer: [] }],
        body: orderBody,
        response: {
          200: z.object({
            orderId: z.string(),
            id: z.string(),
            amount: z.number().int().describe('paise, as the checkout expects'),
            currency: z.literal('INR'),
            keyId: z.string(),
            provider: z.enum(['razorpay', 'sandbox']),
            planId: z.string(),
            planName: z.string(),
            billingCycle: z.enum(['monthly', 'yearly']),
            description: z.string(),
            price: priceDto,
            change: changeDto,
            /** the sandbox is taking payments: no money moves (ruling 29) */
            testMode: z.boolean(),
          }),
          400: errorDto,
          409: errorDto,
          502: errorDto,
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const plan = parsePlan(request.body.planType, request.body.billingCycle);
      if (!plan) throw badRequest(INVALID_PLAN);
      const school = await findSchool(db, { schoolId });
      if (!school) throw notFound('School not found');
      const now = clock.now();
      const quoted = await quote(db, school, plan.planId, plan.cycle, now);
      if (!quoted) throw badRequest(INVALID_PLAN);
      if ('refused' in quoted) throw new HttpError(409, REFUSALS[quoted.refused], { reason: quoted.refused });
      const price = quoted.quote;
      if (price.total < MIN_ORDER_PAISE) throw new HttpError(409, NOTHING_TO_PAY);
      let order;
      try {
        order = await payments.createOrder({
          amountPaise: price.total,
          receipt: `sub_${schoolId.slice(0, 8)}_${now.getTime()}`,
          notes: { schoolId, planId: plan.planId, billingCycle: plan.cycle },
        });
      } catch (error) {
        request.log.error({ err: error }, 'payment order failed');
        throw new HttpError(502, ORDER_FAILED);
      }
      await db.insert(subscriptionPayments).values({
        schoolId,
        provider: payments.name,
        orderId: order.id,
        planId: plan.planId,
        billingCycle: plan.cycle,
        basePaise: price.base,
        discountPaise: price.discount,
        gstPaise: price.gst,
        amountPaise: price.total,
        kind: price.kind,
        discountPercent: quoted.discountPercent,
        creditPaise: price.credit,
        periodStart: price.start,
        periodEnd: price.end,
        createdAt: now,
      });
      return {
        orderId: order.id,
        id: order.id,
        amount: price.total,
        currency: 'INR' as const,
        keyId: payments.keyId,
        provider: payments.name,
        planId: plan.planId,
        planName: quoted.planName,
        billingCycle: plan.cycle,
        description: `${quoted.planName} Plan Subscription`,
        price: priceOf(price),
        change: changeOf(price),
        testMode: payments.name === 'sandbox',
      };
    },
  );

  app.post(
    '/api/payments/verify-subscription',
    {
      onRequest: requireSchool,
      config: { permission: 'billing.manage', allowWhenExpired: true },
      schema: {
        tags: ['payments'],
        summary: "Verify the checkout signature and apply the order's quote (once, also when the webhook came first)",
        description:
          'The quote stored with the order is applied under a lock of the school: an order priced on a plan state that another payment has since changed (a second first-time discount, a credit already used) is refused with 409 and changes nothing.',
        security: [{ bearer: [] }],
        body: verifyBody,
        response: { 200: z.object({ ok: z.literal(true), status: z.literal('active'), school: schoolDto }), 400: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: signature } = request.body;
      if (!payments.verifyPayment(orderId, paymentId, signature)) throw badRequest(PAYMENT_FAILED);
      const result = await activatePaidOrder(db, request, { orderId, paymentId, now: clock.now(), schoolId, config: app.deps.config });
      if (result.outcome === 'not-found' || !result.school) throw notFound(ORDER_NOT_FOUND);
      if (result.outcome === 'refused') throw new HttpError(409, QUOTE_NO_LONGER_HOLDS, { refused: true });
      return { ok: true as const, status: 'active' as const, school: toSchoolDto(result.school, clock.now()) };
    },
  );

  app.get(
    '/api/payments/subscription-quotes',
    {
      onRequest: requireSchool,
      config: { permission: 'billing.manage' },
      schema: {
        tags: ['payments'],
        summary: 'What each plan would cost and do for this school now (ruling 28), and whether payments are test payments',
        security: [{ bearer: [] }],
        querystring: z.object({ billingCycle: z.enum(['monthly', 'yearly']).default('yearly') }),
        response: {
          200: z.object({
            provider: z.enum(['razorpay', 'sandbox']),
            testMode: z.boolean(),
            quotes: z.array(
              z.object({
                planId: z.string(),
                planName: z.string(),
                billingCycle: z.enum(['monthly', 'yearly']),
                price: priceDto.nullable(),
                change: changeDto.nullable(),
                /** why this plan cannot be bought now, when it cannot */
                refused: z.string().nullable(),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const school = await findSchool(db, { schoolId });
      if (!school) throw notFound('School not found');
      const cycle = request.query.billingCycle;
      const now = clock.now();
      const quotes = [];
      for (const plan of await listPlans(db)) {
        const quoted = await quote(db, school, plan.id as PlanId, cycle, now);
        if (!quoted) continue;
        const refused = 'refused' in quoted ? REFUSALS[quoted.refused] : quoted.quote.total < MIN_ORDER_PAISE ? NOTHING_TO_PAY : null;
        quotes.push({
          planId: plan.id,
          planName: plan.name,
          billingCycle: cycle,
          price: 'quote' in quoted ? priceOf(quoted.quote) : null,
          change: 'quote' in quoted ? changeOf(quoted.quote) : null,
          refused,
        });
      }
      return { provider: payments.name, testMode: payments.name === 'sandbox', quotes };
    },
  );

  // the sandbox's checkout exists only when the sandbox is the provider: with Razorpay it is an unknown route (404)
  if (payments instanceof SandboxProvider) {
    const sandbox = payments;
    app.post(
      '/api/payments/sandbox/checkout',
      {
        onRequest: requireSchool,
        config: { permission: 'billing.manage', allowWhenExpired: true },
        schema: {
          tags: ['payments'],
          summary: 'Sandbox provider only (test payments): pay an order and get the signed result the real checkout would return',
          security: [{ bearer: [] }],
          body: z.object({ orderId: z.string().min(1).max(100) }),
          response: {
            200: z.object({ razorpay_order_id: z.string(), razorpay_payment_id: z.string(), razorpay_signature: z.string() }),
            404: errorDto,
            409: errorDto,
          },
        },
      },
      async (request) => {
        const state = await orderStillPayable(db, { orderId: request.body.orderId, schoolId: schoolIdOf(request), now: clock.now() });
        if (state === 'not-found') throw notFound(ORDER_NOT_FOUND);
        if (state === 'closed') throw new HttpError(409, ORDER_CLOSED);
        // never "charge" an order whose quote no longer holds
        if (state === 'stale') throw new HttpError(409, QUOTE_NO_LONGER_HOLDS);
        return sandbox.pay(request.body.orderId);
      },
    );
  }

  await app.register(webhookRoute);
}

/** The provider's webhook: the raw body is needed for the signature, so this route parses its own JSON. */
async function webhookRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, payments } = app.deps;
  parseJsonKeepingRaw(app);
  app.post(
    '/api/payments/webhook',
    {
      schema: {
        tags: ['payments'],
        summary: 'Payment provider webhook (payment.captured, order.paid), checked with X-Razorpay-Signature',
        response: { 200: z.object({ ok: z.literal(true), outcome: z.string() }), 400: errorDto },
      },
    },
    async (request) => {
      const { raw, json } = (request.body ?? {}) as { raw?: string; json?: unknown };
      const signature = request.headers['x-razorpay-signature'];
      const event = json as { event?: string; payload?: { payment?: { entity?: { id?: string; order_id?: string } } } };
      const eventName = typeof event?.event === 'string' ? event.event : null;
      const note = (outcome: string) => noteWebhook(db, { provider: payments.name, event: eventName, outcome, now: clock.now() });
      if (!raw || typeof signature !== 'string' || !payments.verifyWebhook(raw, signature)) {
        await note('invalid_signature');
        throw badRequest('Invalid webhook signature');
      }
      const entity = event.payload?.payment?.entity;
      if ((event.event !== 'payment.captured' && event.event !== 'order.paid') || !entity?.id || !entity.order_id) {
        await note('ignored');
        return { ok: true as const, outcome: 'ignored' };
      }
      const result = await activatePaidOrder(db, null, { orderId: entity.order_id, paymentId: entity.id, now: clock.now(), config: app.deps.config });
      await note(result.outcome);
      return { ok: true as const, outcome: result.outcome };
    },
  );
}
