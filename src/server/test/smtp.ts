import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
  /** attached files: name, type and bytes */
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

/** An SMTP reply code the server answers MAIL FROM with, e.g. 451 (try later) or 550 (refused). */
type Refusal = { code: number; message: string };

/**
 * A real SMTP server on a loopback port: the app sends through nodemailer exactly as in production.
 * A test can make it slow (`slowDown`), refuse mail (`refuse`), never answer (`hang`), and bring it
 * back (`recover`).
 */
export async function startTestSmtp() {
  const inbox: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  let delayMs = 0;
  let refusal: Refusal | null = null;
  let hanging = false;
  const hung: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (hanging) {
        // a server that comes back does not resume the sessions it dropped
        hung.push(() => callback(Object.assign(new Error('Service restarted'), { responseCode: 421 })));
        return;
      }
      if (refusal) {
        const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
          const text = mail.text ?? '';
          const attachments = mail.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content }));
          inbox.push({ to, subject: mail.subject ?? '', text, links: text.match(/https?:\/\/\S+/g) ?? [], attachments });
          waiters.splice(0).forEach((w) => w());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    /** every later message is accepted only after this delay */
    slowDown(ms: number) {
      delayMs = ms;
    },
    /** answers every later message with this SMTP error, e.g. 451 (temporary) or 550 (permanent) */
    refuse(code: number, message = code >= 500 ? 'Mailbox unavailable' : 'Try again later') {
      refusal = { code, message };
    },
    /** stops answering after the greeting, like a server that has hung */
    hang() {
      hanging = true;
    },
    /** back to normal: fast, accepting, answering */
    recover() {
      delayMs = 0;
      refusal = null;
      hanging = false;
      hung.splice(0).forEach((release) => release());
    },
    /** The newest mail to `to` whose subject matches, waiting up to `timeoutMs` (5 s) for it to arrive. */
    async waitFor(to: string, subject: RegExp = /./, timeoutMs = 5_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = [...inbox].reverse().find((m) => m.to.toLowerCase().includes(to.toLowerCase()) && subject.test(m.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    /** how many mails to `to` have arrived */
    countTo(to: string): number {
      return inbox.filter((m) => m.to.toLowerCase().includes(to.toLowerCase())).length;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
