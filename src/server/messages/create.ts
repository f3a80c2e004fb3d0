import type { Config } from '../config';
import { createDevOutboxProvider } from './dev-outbox';
import { noProvider, routeByChannel, type MessageProvider } from './provider';
import { createSmsGatewayProvider } from './sms-gateway';
import { createWhatsAppCloudProvider } from './whatsapp-cloud';

/** The provider the configuration asks for (decision 0040). */
export function createMessageProvider(config: Config): MessageProvider {
  const m = config.messages;
  if (m.provider === 'outbox') return createDevOutboxProvider(m.outboxDir);
  if (m.provider === 'none') return noProvider;
  return routeByChannel({
    ...(m.whatsapp ? { whatsapp: createWhatsAppCloudProvider(m.whatsapp) } : {}),
    ...(m.sms ? { sms: createSmsGatewayProvider(m.sms) } : {}),
  });
}
