import path from 'node:path';
import type { Config } from '../config';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './mailer';

export function createMailer(config: Config): Mailer {
  return config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, config.mailFrom)
    : createOutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom);
}
