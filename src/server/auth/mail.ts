import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import type { Mailer, MailMessage } from '../mail/mailer';

export interface AuthMail extends MailMessage {
  kind: string;
  schoolId?: string | null;
  now?: Date;
}

/**
 * How account mail leaves the app, called inside the transaction of the change that causes it.
 * It never waits for SMTP. Stand-in until the transactional outbox (queueMail) is on main.
 */
export function authMailSender(app: FastifyInstance, mailer: Mailer) {
  return async (_db: Db, mail: AuthMail): Promise<void> => {
    const { to, subject, text, html } = mail;
    mailer.send({ to, subject, text, ...(html ? { html } : {}) }).catch((error: unknown) => app.log.error({ err: error }, 'mail could not be sent'));
  };
}

/**
 * Answers that must not reveal whether an address has an account (item 7) take at least this long
 * from the moment the handler starts: the per-account work (a token row, its mail) fits well inside,
 * so a real and an unknown address answer at the same moment. Equal steps alone cannot do it: the
 * unknown address has no account to write a token for (docs/decisions/0018-equal-answers.md).
 */
export const EQUAL_ANSWER_MS = 400;
export const EQUAL_REGISTRATION_MS = 900;

export function answerFloor(ms: number): () => Promise<void> {
  const started = performance.now();
  return async () => {
    const left = started + ms - performance.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  };
}
