import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** A real SMTP server on a loopback port: the app sends through nodemailer exactly as in production. */
export async function startTestSmtp() {
  const inbox: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
          const text = mail.text ?? '';
          inbox.push({ to, subject: mail.subject ?? '', text, links: text.match(/https?:\/\/\S+/g) ?? [] });
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
    /** The newest mail to `to` whose subject matches, waiting up to 5 s for it to arrive. */
    async waitFor(to: string, subject: RegExp = /./): Promise<ReceivedMail> {
      const deadline = Date.now() + 5_000;
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
