// An SMTP server for tests (smtp-server): accepts every message without TLS or sign-in and keeps it parsed
// (mailparser), so a test asserts what was really sent. Used by the API tests and the Playwright spec of e-mail.
import { SMTPServer } from 'smtp-server';
import { type ParsedMail, simpleParser } from 'mailparser';

export interface MailCatcher {
  port: number;
  inbox: ParsedMail[];
  /** The first message to `to` whose subject contains `about`, waiting up to `ms`. */
  find(to: string, about: string, ms?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** Starts a catcher on 127.0.0.1:`port` (0: any free port). */
export async function startMailCatcher(port = 0): Promise<MailCatcher> {
  const inbox: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(port, '127.0.0.1', resolve);
  });
  const matches = (m: ParsedMail, to: string, about: string) =>
    JSON.stringify(m.to ?? '').includes(to) && (m.subject ?? '').includes(about);
  return {
    port: (smtp.server.address() as { port: number }).port,
    inbox,
    async find(to, about, ms = 15_000) {
      for (const end = Date.now() + ms; ;) {
        const m = inbox.find((x) => matches(x, to, about));
        if (m) return m;
        if (Date.now() > end)
          throw new Error(
            `no e-mail to ${to} about ${about}; received: ${inbox.map((x) => `${JSON.stringify(x.to)} ${x.subject}`).join(' | ')}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
