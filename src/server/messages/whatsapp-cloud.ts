import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MessagesConfig } from '../config';
import { postJson } from './http';
import { ProviderError, type MessageProvider } from './provider';

type WhatsAppSettings = NonNullable<MessagesConfig['whatsapp']>;

/**
 * WhatsApp Cloud API (Meta): a business may start a conversation only with an approved template,
 * so the reminder is the template WHATSAPP_TEMPLATE with its body values {{1}} student, {{2}}
 * amount, {{3}} payment link, {{4}} school.
 * `POST {WHATSAPP_API_URL}/{WHATSAPP_PHONE_NUMBER_ID}/messages`, bearer WHATSAPP_TOKEN; the answer
 * `{ messages: [{ id: "wamid…" }] }` gives the id that delivery webhooks quote.
 */
export function createWhatsAppCloudProvider(settings: WhatsAppSettings): MessageProvider {
  const url = `${settings.apiUrl}/${settings.phoneNumberId}/messages`;
  return {
    name: 'whatsapp-cloud',
    channels: ['whatsapp'],
    async send(message, signal) {
      const answer = (await postJson(
        url,
        { authorization: `Bearer ${settings.token}` },
        {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: message.to,
          type: 'template',
          template: {
            name: settings.template,
            language: { code: settings.language },
            components: [{ type: 'body', parameters: message.templateValues.map((text) => ({ type: 'text', text })) }],
          },
        },
        signal,
      )) as { messages?: Array<{ id?: unknown }> };
      const id = answer.messages?.[0]?.id;
      if (typeof id !== 'string' || !id) throw new ProviderError('WhatsApp accepted the request but gave no message id', false);
      return { providerMessageId: id };
    },
  };
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`, compared in constant time. */
export function whatsappSignatureValid(appSecret: string, rawBody: string | Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type DeliveryStatus = 'sent' | 'delivered' | 'failed';

export interface DeliveryReport {
  providerMessageId: string;
  status: DeliveryStatus;
  error: string | null;
}

/**
 * The statuses of a WhatsApp webhook: `entry[].changes[].value.statuses[]` with `id`, `status`
 * (sent, delivered, read, failed) and `errors[]`. Read counts as delivered; anything else is ignored.
 */
export function whatsappDeliveryReports(payload: unknown): DeliveryReport[] {
  const reports: DeliveryReport[] = [];
  const entries = (payload as { entry?: unknown })?.entry;
  if (!Array.isArray(entries)) return reports;
  for (const entry of entries) {
    for (const change of (entry as { changes?: unknown[] })?.changes ?? []) {
      for (const status of (change as { value?: { statuses?: unknown[] } })?.value?.statuses ?? []) {
        const s = status as { id?: unknown; status?: unknown; errors?: Array<{ title?: unknown; message?: unknown; code?: unknown }> };
        if (typeof s.id !== 'string') continue;
        const mapped: DeliveryStatus | null = s.status === 'delivered' || s.status === 'read' ? 'delivered' : s.status === 'failed' ? 'failed' : s.status === 'sent' ? 'sent' : null;
        if (!mapped) continue;
        const first = s.errors?.[0];
        const error = mapped === 'failed' ? [first?.code, first?.title ?? first?.message].filter(Boolean).join(' ') || 'WhatsApp could not deliver the message' : null;
        reports.push({ providerMessageId: s.id, status: mapped, error });
      }
    }
  }
  return reports;
}
