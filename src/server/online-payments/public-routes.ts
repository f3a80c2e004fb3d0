import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toRupeeString, type Paise } from '../../domain/money';
import { LINK_EXPIRED_MESSAGE, LINK_NOT_ACTIVE_MESSAGE, linkStatus } from '../../domain/payment-links';
import type { AppDeps } from '../app';
import { onlinePayments, schoolPaymentSettings, upiConfirmations } from '../db/schema';
import { inLedgerTransaction } from '../fees/writer';
import { loadReceiptDocument, receiptLogo } from '../fees/receipt-document';
import { receiptPdf } from '../fees/receipt-pdf';
import { badRequest, conflict, HttpError, notFound } from '../lib/errors';
import { parseJsonKeepingRaw } from '../lib/raw-json-body';
import { sendPdf } from '../lib/pdf';
import { isUniqueViolation } from '../lib/pg-errors';
import { SandboxProvider, type PaymentProvider } from '../payments/provider';
import { linkNotFound, payRateLimit, publicErrorDto, tokenParams } from '../payment-links/public-routes';
import { findLinkByToken, type LinkRow } from '../payment-links/queries';
import { gatewayFor, readSettings, type SettingsRow } from '../payment-links/settings';
import { markSchoolChanged } from '../stats/versions';
import { captureOnlinePayment, type Captured } from './capture';
import {
  PAY_NO_GATEWAY,
  PAY_NO_UPI,
  PAY_ORDER_FAILED,
  PAY_ORDER_UNKNOWN,
  PAY_VERIFY_FAILED,
  UPI_REFERENCE_FORMAT,
  UPI_REFERENCE_TAKEN,
} from './messages';

/** Razorpay takes no order under ₹1. */
const MIN_ORDER_PAISE = 100;

function assertPayable(link: LinkRow, now: Date): void {
  const status = linkStatus(link.status, link.expiresAt, now);
  // expiry is checked first (operations §3)
  if (status === 'expired') throw conflict(LINK_EXPIRED_MESSAGE, { status });
  if (status !== 'active') throw conflict(LINK_NOT_ACTIVE_MESSAGE, { status });
}

/**
 * The sandbox signs each school's webhooks with a key of its own, so a webhook made for one school
 * is refused at another's address, as with real per-school Razorpay secrets.
 */
export function sandboxWebhookSignature(sessionSecret: string, schoolId: string, rawBody: string): string {
  return createHmac('sha256', `sandbox-link-webhook:${sessionSecret}:${schoolId}`).update(rawBody).digest('hex');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The provider that made an order is the one that checks its signature. */
function verifierFor(deps: AppDeps, provider: 'razorpay' | 'sandbox' | 'upi', settings: SettingsRow | undefined): PaymentProvider | null {
  if (provider === 'sandbox') return deps.payments instanceof SandboxProvider ? deps.payments : null;
  if (provider === 'razorpay') {
    const gateway = gatewayFor(deps, settings);
    return gateway?.name === 'razorpay' ? gateway : null;
  }
  return null;
}

const paidDto = z.object({
  status: z.literal('paid'),
  receiptNumber: z.string().nullable().describe('null only when the whole payment became credit (the fee had been collected at the counter)'),
  amount: z.string(),
  credit: z.string().describe("the part kept as the student's credit (ruling 27), \"0.00\" normally"),
  receiptUrl: z.string().nullable(),
});

function paidAnswer(token: string, c: Captured) {
  return {
    status: 'paid' as const,
    receiptNumber: c.receipt?.receipt.receiptNumber ?? null,
    amount: toRupeeString(c.payment.amountPaise as Paise),
    credit: toRupeeString(c.credit),
    receiptUrl: c.receipt ? `/api/pay/${token}/receipt.pdf` : null,
  };
}

const verifyBody = z.object({
  razorpay_order_id: z.string().min(1, 'Payment details are missing').max(100),
  razorpay_payment_id: z.string().min(1, 'Payment details are missing').max(100),
  razorpay_signature: z.string().min(1, 'Payment details are missing').max(200),
});

export async function payingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  const limited = payRateLimit(app);

  app.post(
    '/api/pay/:linkToken/order',
    {
      onRequest: limited,
      schema: {
        tags: ['payment link (public)'],
        summary: "Start paying a link through the school's gateway: an order for the link's amount",
        description: 'In the sandbox, POST /api/pay/{linkToken}/sandbox-checkout {orderId} returns the signed result the checkout would.',
        params: tokenParams,
        response: {
          200: z.object({
            orderId: z.string(),
            amount: z.string().describe('rupees, "1500.00"'),
            amountPaise: z.number().int().describe('the same in paise, as the checkout script expects'),
            currency: z.literal('INR'),
            keyId: z.string(),
            provider: z.enum(['razorpay', 'sandbox']),
            description: z.string(),
          }),
          404: publicErrorDto,
          409: publicErrorDto,
          429: publicErrorDto,
          502: publicErrorDto,
        },
      },
    },
    async (request) => {
      const now = clock.now();
      const link = await findLinkByToken(db, request.params.linkToken);
      if (!link) throw linkNotFound();
      assertPayable(link, now);
      const gateway = gatewayFor(app.deps, await readSettings(db, link.schoolId));
      if (!gateway) throw conflict(PAY_NO_GATEWAY);
      if (link.amountPaise < MIN_ORDER_PAISE) throw conflict('Online payments start at ₹1.00: pay this amount at the school office.');
      let order;
      try {
        order = await gateway.createOrder({
          amountPaise: link.amountPaise,
          receipt: `link_${link.id.slice(0, 8)}_${now.getTime()}`,
          notes: { linkId: link.id },
        });
      } catch (error) {
        request.log.error({ err: error }, 'payment link order failed');
        throw new HttpError(502, PAY_ORDER_FAILED);
      }
      await db.insert(onlinePayments).values({
        schoolId: link.schoolId,
        linkId: link.id,
        studentId: link.studentId,
        provider: gateway.name,
        orderId: order.id,
        amountPaise: link.amountPaise,
        createdAt: now,
      });
      return {
        orderId: order.id,
        amount: toRupeeString(link.amountPaise as Paise),
        amountPaise: link.amountPaise,
        currency: 'INR' as const,
        keyId: gateway.keyId,
        provider: gateway.name,
        description: link.description,
      };
    },
  );

  if (app.deps.payments instanceof SandboxProvider) {
    const sandbox = app.deps.payments;
    app.post(
      '/api/pay/:linkToken/sandbox-checkout',
      {
        onRequest: limited,
        schema: {
          tags: ['payment link (public)'],
          summary: "Sandbox only (test payments, no money moves): pay a link's order and get the signed result the real checkout would return",
          params: tokenParams,
          body: z.object({ orderId: z.string().min(1).max(100) }),
          response: {
            200: z.object({ razorpay_order_id: z.string(), razorpay_payment_id: z.string(), razorpay_signature: z.string() }),
            404: publicErrorDto,
            409: publicErrorDto,
            429: publicErrorDto,
          },
        },
      },
      async (request) => {
        const link = await findLinkByToken(db, request.params.linkToken);
        if (!link) throw linkNotFound();
        const [payment] = await db
          .select()
          .from(onlinePayments)
          .where(and(eq(onlinePayments.schoolId, link.schoolId), eq(onlinePayments.linkId, link.id), eq(onlinePayments.orderId, request.body.orderId)))
          .limit(1);
        if (!payment || payment.provider !== 'sandbox') throw notFound(PAY_ORDER_UNKNOWN);
        if (payment.status !== 'pending') throw conflict(LINK_NOT_ACTIVE_MESSAGE);
        return sandbox.pay(payment.orderId);
      },
    );
  }

  app.post(
    '/api/pay/:linkToken/verify',
    {
      onRequest: limited,
      schema: {
        tags: ['payment link (public)'],
        summary: "Check the checkout's signature and record the payment: one ONL receipt (and credit beyond the dues), once",
        description:
          'The same payment verified again (or after the webhook) answers with the same receipt and writes nothing. A signature that does not match, or an order of another link or school, is refused.',
        params: tokenParams,
        body: verifyBody,
        response: { 200: paidDto, 400: publicErrorDto, 404: publicErrorDto, 429: publicErrorDto },
      },
    },
    async (request) => {
      const token = request.params.linkToken;
      const { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: signature } = request.body;
      const link = await findLinkByToken(db, token);
      if (!link) throw linkNotFound();
      const [payment] = await db
        .select()
        .from(onlinePayments)
        .where(and(eq(onlinePayments.schoolId, link.schoolId), eq(onlinePayments.linkId, link.id), eq(onlinePayments.orderId, orderId)))
        .limit(1);
      if (!payment) throw badRequest(PAY_VERIFY_FAILED);
      const verifier = verifierFor(app.deps, payment.provider, await readSettings(db, link.schoolId));
      if (!verifier || !verifier.verifyPayment(orderId, paymentId, signature)) throw badRequest(PAY_VERIFY_FAILED);
      const captured = await inLedgerTransaction(db, (tx) =>
        captureOnlinePayment(tx, { schoolId: link.schoolId, userId: null, ip: request.ip }, { schoolId: link.schoolId, orderId, paymentId, now: clock.now() }),
      );
      if (!captured) throw badRequest(PAY_VERIFY_FAILED);
      // other processes' cached figures of the school see the payment too
      if (captured.fresh) await markSchoolChanged(db, link.schoolId);
      return paidAnswer(token, captured);
    },
  );

  app.get(
    '/api/pay/:linkToken/receipt.pdf',
    {
      onRequest: limited,
      schema: {
        tags: ['payment link (public)'],
        summary: "The paid link's receipt as a PDF (404 before it is paid)",
        params: tokenParams,
        response: { 200: z.any().describe('application/pdf'), 404: publicErrorDto, 429: publicErrorDto },
      },
    },
    async (request, reply) => {
      const link = await findLinkByToken(db, request.params.linkToken);
      if (!link || link.status !== 'paid' || !link.receiptId) throw linkNotFound();
      const document = await loadReceiptDocument(db, { schoolId: link.schoolId, id: link.receiptId, now: clock.now() });
      const pdf = await receiptPdf(document, document.school.hasLogo ? await receiptLogo(db, link.schoolId) : undefined);
      return sendPdf(reply, pdf, `receipt-${document.receipt.receiptNumber.replace(/\//g, '-')}.pdf`);
    },
  );

  app.post(
    '/api/pay/:linkToken/upi-reference',
    {
      onRequest: limited,
      schema: {
        tags: ['payment link (public)'],
        summary: "After paying the school's UPI id directly: the UPI reference, for the clerk to confirm against the bank statement",
        params: tokenParams,
        body: z.object({
          upiReference: z.string().trim().regex(/^[A-Za-z0-9]{10,35}$/, UPI_REFERENCE_FORMAT),
          payerName: z.string().trim().max(100, 'Name is too long').optional(),
        }),
        response: { 200: z.object({ status: z.literal('pending') }), 400: publicErrorDto, 404: publicErrorDto, 409: publicErrorDto, 429: publicErrorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const link = await findLinkByToken(db, request.params.linkToken);
      if (!link) throw linkNotFound();
      assertPayable(link, now);
      const settings = await readSettings(db, link.schoolId);
      if (!settings?.upiVpa) throw conflict(PAY_NO_UPI);
      try {
        await db.insert(upiConfirmations).values({
          schoolId: link.schoolId,
          linkId: link.id,
          studentId: link.studentId,
          amountPaise: link.amountPaise,
          upiReference: request.body.upiReference.toUpperCase(),
          payerName: request.body.payerName || null,
          submittedAt: now,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(UPI_REFERENCE_TAKEN);
        throw error;
      }
      return { status: 'pending' as const };
    },
  );

  await app.register(webhookRoute);
}

/** The school's gateway webhook: the raw body is needed for the signature, so this route parses its own JSON. */
async function webhookRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config } = app.deps;
  parseJsonKeepingRaw(app);
  app.post(
    '/api/pay/webhook/:key',
    {
      schema: {
        tags: ['payment link (public)'],
        summary: "A school's gateway webhook (payment.captured, order.paid), checked with X-Razorpay-Signature and the school's webhook secret",
        params: z.object({ key: z.string().max(100) }),
        response: { 200: z.object({ ok: z.literal(true), outcome: z.string() }), 400: publicErrorDto, 404: publicErrorDto },
      },
    },
    async (request) => {
      const [settings] = /^[A-Za-z0-9_-]{20,100}$/.test(request.params.key)
        ? await db.select().from(schoolPaymentSettings).where(eq(schoolPaymentSettings.webhookKey, request.params.key)).limit(1)
        : [];
      if (!settings) throw notFound('Not found');
      const { raw, json } = (request.body ?? {}) as { raw?: string; json?: unknown };
      const signature = request.headers['x-razorpay-signature'];
      if (!raw || typeof signature !== 'string') throw badRequest('Invalid webhook signature');
      const gateway = gatewayFor(app.deps, settings);
      const valid =
        gateway?.name === 'razorpay'
          ? gateway.verifyWebhook(raw, signature)
          : gateway?.name === 'sandbox' && safeEqual(sandboxWebhookSignature(config.sessionSecret, settings.schoolId, raw), signature);
      if (!valid) throw badRequest('Invalid webhook signature');
      const event = json as { event?: string; payload?: { payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown } } } };
      const entity = event.payload?.payment?.entity;
      if ((event.event !== 'payment.captured' && event.event !== 'order.paid') || typeof entity?.id !== 'string' || typeof entity.order_id !== 'string') {
        return { ok: true as const, outcome: 'ignored' };
      }
      const orderId = entity.order_id;
      const paymentId = entity.id;
      const captured = await inLedgerTransaction(db, (tx) =>
        captureOnlinePayment(tx, { schoolId: settings.schoolId, userId: null, ip: request.ip }, { schoolId: settings.schoolId, orderId, paymentId, now: clock.now() }),
      );
      if (!captured) return { ok: true as const, outcome: 'unknown-order' };
      if (captured.fresh) await markSchoolChanged(db, settings.schoolId);
      return { ok: true as const, outcome: captured.fresh ? 'captured' : 'already-captured' };
    },
  );
}
