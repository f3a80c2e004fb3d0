import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /** true when the transport answers; used by health checks */
  verify(): Promise<boolean>;
}

/**
 * How long the SMTP client waits for each step. nodemailer's own defaults (2 minutes to connect,
 * 10 minutes of socket silence) would let one hung server hold the mail worker for that long.
 */
export interface SmtpTimeouts {
  connectMs: number;
  greetingMs: number;
  socketMs: number;
}

export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectMs: 10_000, greetingMs: 10_000, socketMs: 30_000 };

export function createSmtpMailer(smtpUrl: string, from: string, timeouts: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
  });
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    async verify() {
      try {
        await transport.verify();
        return true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * Development outbox: every message becomes an .eml file under DATA_DIR/outbox and its subject
 * and links are logged, so a newcomer can confirm an account without a mail server.
 */
export function createOutboxMailer(
  outboxDir: string,
  from: string,
  log: (line: string) => void = (line) => console.log(line),
): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let counter = 0;
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      mkdirSync(outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = path.join(outboxDir, `${stamp}-${++counter}-${safeTo}.eml`);
      writeFileSync(file, info.message as Buffer);
      const links = message.text.match(/https?:\/\/\S+/g) ?? [];
      log(`[mail] to ${message.to}: ${message.subject}${links.map((l) => `\n[mail]   ${l}`).join('')}\n[mail]   saved ${file}`);
    },
    async verify() {
      return true;
    },
  };
}
