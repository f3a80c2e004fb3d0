import type { MessagesConfig } from '../config';
import { postJson } from './http';
import { ProviderError, type MessageProvider } from './provider';
import type { DeliveryReport } from './whatsapp-cloud';

type SmsSettings = NonNullable<MessagesConfig['sms']>;

/**
 * An Indian SMS gateway in the shape of MSG91's v5 Flow API (a common choice; Kaleyra, Gupshup and
 * Textlocal take the same fields under other names). In India a business SMS must use a sender id
 * (header) and a template registered on DLT, so the text is not sent, only the template's values:
 * `POST SMS_API_URL` with header `authkey: SMS_API_KEY` and
 * `{ template_id, sender, DLT_TE_ID, PE_ID?, short_url: "0", recipients: [{ mobiles, var1…var4 }] }`
 * (var1 student, var2 amount, var3 payment link, var4 school). The answer
 * `{ type: "success", message: "<request id>" }` gives the id that delivery reports quote;
 * `{ type: "error", message }` is a refusal even with status 200.
 */
export function createSmsGatewayProvider(settings: SmsSettings): MessageProvider {
  return {
    name: 'sms-gateway',
    channels: ['sms'],
    async send(message, signal) {
      const vars = Object.fromEntries(message.templateValues.map((value, i) => [`var${i + 1}`, value]));
      const answer = (await postJson(
        settings.apiUrl,
        { authkey: settings.apiKey },
        {
          template_id: settings.dltTemplateId,
          sender: settings.senderId,
          DLT_TE_ID: settings.dltTemplateId,
          ...(settings.dltEntityId ? { PE_ID: settings.dltEntityId } : {}),
          short_url: '0',
          recipients: [{ mobiles: message.to, ...vars }],
        },
        signal,
      )) as { type?: unknown; message?: unknown; request_id?: unknown };
      if (answer.type === 'error') throw new ProviderError(`the SMS gateway refused the message: ${String(answer.message ?? 'no reason given')}`, true);
      const id = typeof answer.request_id === 'string' ? answer.request_id : typeof answer.message === 'string' ? answer.message : null;
      return { providerMessageId: id };
    },
  };
}

/**
 * A delivery report pushed by the gateway: `{ requestId, status, description? }` or a list of them,
 * status `delivered`/`1` or `failed`/`2`/`rejected` (MSG91 posts its numeric codes). The gateway
 * cannot sign it, so the URL carries SMS_WEBHOOK_TOKEN.
 */
export function smsDeliveryReports(payload: unknown): DeliveryReport[] {
  const items: unknown[] = Array.isArray(payload) ? payload : Array.isArray((payload as { data?: unknown })?.data) ? (payload as { data: unknown[] }).data : [payload];
  const reports: DeliveryReport[] = [];
  for (const item of items) {
    const r = item as { requestId?: unknown; request_id?: unknown; status?: unknown; description?: unknown };
    const id = typeof r.requestId === 'string' ? r.requestId : typeof r.request_id === 'string' ? r.request_id : null;
    if (!id) continue;
    const status = String(r.status ?? '').toLowerCase();
    if (status === 'delivered' || status === '1') reports.push({ providerMessageId: id, status: 'delivered', error: null });
    else if (['failed', 'rejected', 'undelivered', '2', '16'].includes(status))
      reports.push({ providerMessageId: id, status: 'failed', error: typeof r.description === 'string' && r.description ? r.description : 'The SMS could not be delivered' });
  }
  return reports;
}
