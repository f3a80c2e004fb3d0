import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toRupeeString, type Paise } from '../../domain/money';
import { PLAN_IDS, type BillingCycle, type PlanId } from '../../domain/plans';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { subscriptionPayments } from '../db/schema';
import { badRequest, HttpError, notFound } from '../lib/errors';
import { findSchool, schoolDto, toSchoolDto } from '../schools/queries';
import { SandboxProvider } from './provider';
import { activatePaidOrder, quote } from './queries';

const PAYMENT_FAILED = 'Payment verification failed. Please contact support if payment was deducted.';

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

export async function paymentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, payments } = app.deps;

  app.post(
    '/api/payments/create-subscription-order',
    {
      onRequest: requireSchool,
      config: { allowQuickToken: true, allowWhenExpired: true },
      schema: {
        tags: ['payments'],
        summary: 'Create a payment order for a plan; the price comes from the catalogue (first-time discount, then 18% GST)',
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
            price: z.object({ base: z.string(), discount: z.string(), gst: z.string(), total: z.string(), undiscountedTotal: z.string() }),
          }),
          400: errorDto,
          502: errorDto,
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const plan = parsePlan(request.body.planType, request.body.billingCycle);
      if (!plan) throw badRequest('Choose a valid plan: basic, standard or premium');
      const school = await findSchool(db, { schoolId });
      if (!school) throw notFound('School not found');
      const quoted = await quote(db, school, plan.planId, plan.cycle);
      if (!quoted) throw badRequest('Choose a valid plan: basic, standard or premium');
      const { price } = quoted;
      let order;
      try {
        order = await payments.createOrder({
          amountPaise: price.total,
          receipt: `sub_${schoolId.slice(0, 8)}_${clock.now().getTime()}`,
          notes: { schoolId, planId: plan.planId, billingCycle: plan.cycle },
        });
      } catch (error) {
        request.log.error({ err: error }, 'payment order failed');
        throw new HttpError(502, 'Failed to create payment order. Please try again.');
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
        createdAt: clock.now(),
      });
      return {
        orderId: order.id,
        id: order.id,
        amount: price.total,
        currency: 'INR' as const,
        keyId: payments.keyId,
        provider: payments.name,
        planId: plan.planId,
        planName: quoted.plan.name,
        billingCycle: plan.cycle,
        description: `${quoted.plan.name} Plan Subscription`,
        price: { base: money(price.base), discount: money(price.discount), gst: money(price.gst), total: money(price.total), undiscountedTotal: money(price.undiscountedTotal) },
      };
    },
  );

  app.post(
    '/api/payments/verify-subscription',
    {
      onRequest: requireSchool,
      config: { allowQuickToken: true, allowWhenExpired: true },
      schema: {
        tags: ['payments'],
        summary: 'Verify the checkout signature and activate the plan (applied once, also when the webhook came first)',
        security: [{ bearer: [] }],
        body: verifyBody,
        response: { 200: z.object({ ok: z.literal(true), status: z.literal('active'), school: schoolDto }), 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: signature } = request.body;
      if (!payments.verifyPayment(orderId, paymentId, signature)) throw badRequest(PAYMENT_FAILED);
      const result = await activatePaidOrder(db, request, { orderId, paymentId, now: clock.now(), schoolId });
      if (result.outcome === 'not-found' || !result.school) throw notFound('Payment order not found');
      return { ok: true as const, status: 'active' as const, school: toSchoolDto(result.school, clock.now()) };
    },
  );

  app.post(
    '/api/payments/sandbox/checkout',
    {
      onRequest: requireSchool,
      config: { allowQuickToken: true, allowWhenExpired: true },
      schema: {
        tags: ['payments'],
        summary: 'Sandbox provider only: pay an order and get the signed result the real checkout would return',
        security: [{ bearer: [] }],
        body: z.object({ orderId: z.string().min(1).max(100) }),
        response: {
          200: z.object({ razorpay_order_id: z.string(), razorpay_payment_id: z.string(), razorpay_signature: z.string() }),
          404: errorDto,
        },
      },
    },
    async (request) => {
      if (!(payments instanceof SandboxProvider)) throw notFound('The sandbox checkout is off: payments go through Razorpay');
      const [order] = await db
        .select({ id: subscriptionPayments.id })
        .from(subscriptionPayments)
        .where(and(eq(subscriptionPayments.orderId, request.body.orderId), eq(subscriptionPayments.schoolId, schoolIdOf(request))))
        .limit(1);
      if (!order) throw notFound('Payment order not found');
      return payments.pay(request.body.orderId);
    },
  );

  await app.register(webhookRoute);
}

/** The provider's webhook: the raw body is needed for the signature, so this route parses its own JSON. */
async function webhookRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, payments } = app.deps;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => {
    try {
      done(null, { raw: body as string, json: JSON.parse(body as string) as unknown });
    } catch {
      done(badRequest('The request body is not valid JSON'), undefined);
    }
  });
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
      if (!raw || typeof signature !== 'string' || !payments.verifyWebhook(raw, signature)) {
        throw badRequest('Invalid webhook signature');
      }
      const event = json as { event?: string; payload?: { payment?: { entity?: { id?: string; order_id?: string } } } };
      const entity = event.payload?.payment?.entity;
      if ((event.event !== 'payment.captured' && event.event !== 'order.paid') || !entity?.id || !entity.order_id) {
        return { ok: true as const, outcome: 'ignored' };
      }
      const result = await activatePaidOrder(db, null, { orderId: entity.order_id, paymentId: entity.id, now: clock.now() });
      return { ok: true as const, outcome: result.outcome };
    },
  );
}
