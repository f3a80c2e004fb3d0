import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CHANNEL_LABELS } from '../../domain/reminders';
import type { MessageProvider } from './provider';

/**
 * Development: every message becomes a text file in DATA_DIR/messages and a console line, like the
 * mail outbox, so reminders can be tried without a WhatsApp or SMS account. Never chosen on a live
 * server unless MESSAGES_PROVIDER=outbox says so.
 */
export function createDevOutboxProvider(outboxDir: string, log: (line: string) => void = (line) => console.log(line)): MessageProvider {
  return {
    name: 'outbox',
    channels: ['whatsapp', 'sms'],
    async send(message) {
      await mkdir(outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${message.channel}-${message.id}.txt`);
      const content = [
        `Channel: ${CHANNEL_LABELS[message.channel]}`,
        `To: +${message.to}`,
        `Template values: ${message.templateValues.join(' | ')}`,
        '',
        message.body,
        '',
      ].join('\n');
      await writeFile(file, content, 'utf8');
      log(`[messages] ${CHANNEL_LABELS[message.channel]} to +${message.to}: ${message.body} (saved as ${file})`);
      return { providerMessageId: `outbox-${message.id}` };
    },
  };
}
