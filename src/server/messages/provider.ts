import type { MessageChannel } from '../../domain/reminders';

/** One message as the sender hands it to a provider. */
export interface OutgoingMessage {
  id: string;
  channel: MessageChannel;
  /** `91` and ten digits */
  to: string;
  /** the full text (development outbox) */
  body: string;
  /** the approved template's values, in order (WhatsApp Cloud, DLT SMS) */
  templateValues: string[];
}

export interface SendResult {
  /** the provider's id of the message, which its delivery reports quote; null when it gives none */
  providerMessageId: string | null;
}

/**
 * Where reminders leave the app (decision 0040): the development outbox, WhatsApp Cloud API, an
 * Indian SMS gateway. Only the background sender calls `send`; a request never waits on it.
 */
export interface MessageProvider {
  readonly name: string;
  /** the channels this server can send on; a reminder on any other is refused when asked for */
  readonly channels: readonly MessageChannel[];
  send(message: OutgoingMessage, signal: AbortSignal): Promise<SendResult>;
}

/**
 * A send that did not go through. `permanent` refusals (a 4xx other than 408 and 429: a bad
 * number, a template the provider does not know) fail the message at once; everything else
 * (timeouts, network errors, 5xx, rate limits) is retried with backoff.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A provider for a server with no way to send (production without settings): asks are refused before anything is queued. */
export const noProvider: MessageProvider = {
  name: 'none',
  channels: [],
  async send() {
    throw new ProviderError('Messaging is not set up on this server', false);
  },
};

/** WhatsApp through one provider and SMS through another. */
export function routeByChannel(providers: Partial<Record<MessageChannel, MessageProvider>>): MessageProvider {
  const channels = (Object.keys(providers) as MessageChannel[]).filter((c) => providers[c]);
  return {
    name: channels.map((c) => providers[c]!.name).join('+') || 'none',
    channels,
    async send(message, signal) {
      const provider = providers[message.channel];
      if (!provider) throw new ProviderError(`${message.channel} is not set up on this server`, true);
      return provider.send(message, signal);
    },
  };
}
