import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server on loopback that keeps every message it receives. */
export async function startMailbox(): Promise<{
  url: string;
  messages: ReceivedMail[];
  waitFor(to: string, match?: RegExp): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(',');
          messages.push({ to, subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '' });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, match) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = [...messages].reverse().find((m) => m.to.includes(to.toLowerCase()) && (!match || match.test(m.subject + '\n' + m.text)));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${match}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first link in a mail that points at `path`. */
export function tokenFrom(mail: ReceivedMail, path: string): string {
  const m = new RegExp(`${path.replace(/\//g, '\\/')}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in mail: ${mail.text}`);
  return decodeURIComponent(m[1]);
}
