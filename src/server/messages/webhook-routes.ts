import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorDto } from '../auth/dto';
import { badRequest, notFound } from '../lib/errors';
import { parseJsonKeepingRaw } from '../lib/raw-json-body';
import { applyDeliveryReports } from './delivery';
import { smsDeliveryReports } from './sms-gateway';
import { whatsappDeliveryReports, whatsappSignatureValid } from './whatsapp-cloud';

const okDto = z.object({ ok: z.literal(true), updated: z.number().int() });

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Delivery reports from the providers (decision 0040). WhatsApp signs its webhook with the app
 * secret (X-Hub-Signature-256); the SMS gateway cannot sign, so its URL carries a secret token.
 * Public routes: a provider has no session. A channel that is not set up answers 404.
 */
export async function messageWebhookRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config } = app.deps;
  const { whatsapp, sms } = config.messages;
  parseJsonKeepingRaw(app);

  app.get(
    '/api/messages/webhook/whatsapp',
    {
      schema: {
        tags: ['reminders'],
        summary: "WhatsApp's webhook check: echoes hub.challenge when hub.verify_token is WHATSAPP_VERIFY_TOKEN",
        querystring: z.object({
          'hub.mode': z.string().max(50).optional(),
          'hub.verify_token': z.string().max(500).optional(),
          'hub.challenge': z.string().max(500).optional(),
        }),
        response: { 200: z.string(), 403: errorDto, 404: errorDto },
      },
    },
    async (request, reply) => {
      const verifyToken = whatsapp?.verifyToken;
      if (!verifyToken) throw notFound();
      const q = request.query;
      if (q['hub.mode'] !== 'subscribe' || !q['hub.verify_token'] || !sameText(q['hub.verify_token'], verifyToken)) {
        return reply.code(403).send({ error: 'Verify token does not match' });
      }
      return reply.type('text/plain').send(q['hub.challenge'] ?? '');
    },
  );

  app.post(
    '/api/messages/webhook/whatsapp',
    {
      schema: {
        tags: ['reminders'],
        summary: 'WhatsApp Cloud delivery statuses (sent, delivered, read, failed), checked with X-Hub-Signature-256',
        response: { 200: okDto, 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const secret = whatsapp?.appSecret;
      if (!secret) throw notFound();
      const { raw, json } = (request.body ?? {}) as { raw?: string; json?: unknown };
      const signature = request.headers['x-hub-signature-256'];
      if (!raw || !whatsappSignatureValid(secret, raw, typeof signature === 'string' ? signature : undefined)) {
        throw badRequest('Invalid webhook signature');
      }
      const updated = await applyDeliveryReports(db, 'whatsapp', whatsappDeliveryReports(json), clock.now());
      return { ok: true as const, updated };
    },
  );

  app.post(
    '/api/messages/webhook/sms/:token',
    {
      schema: {
        tags: ['reminders'],
        summary: 'SMS gateway delivery reports; the path carries SMS_WEBHOOK_TOKEN',
        params: z.object({ token: z.string().max(200) }),
        response: { 200: okDto, 404: errorDto },
      },
    },
    async (request) => {
      const token = sms?.webhookToken;
      if (!token || !sameText(request.params.token, token)) throw notFound();
      const { json } = (request.body ?? {}) as { json?: unknown };
      const updated = await applyDeliveryReports(db, 'sms', smsDeliveryReports(json), clock.now());
      return { ok: true as const, updated };
    },
  );
}
