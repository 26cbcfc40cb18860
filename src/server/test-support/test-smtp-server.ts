/**
 * A real SMTP server on 127.0.0.1 for the tests (the smtp-server package), keeping each mail it
 * accepted parsed by mailparser. It can refuse the next mails, or hold a mail's final reply until
 * told (to stop a sender between its DATA and the server's 250).
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  parsed: ParsedMail;
  /** The envelope's recipients. */
  to: string[];
  /** Who signed in, if anyone did. */
  user: string | undefined;
}

export interface TestSmtpServer {
  port: number;
  /** Mails the server accepted (answered 250), in order. */
  accepted: ReceivedMail[];
  /** Mails whose data arrived, accepted or not, in order. */
  arrived: ReceivedMail[];
  /** The next `count` mails are refused with a temporary failure. */
  refuseNext(count: number, reply?: string): void;
  /** From now, a mail's final reply waits until `release()`; a mail whose connection closes meanwhile is not accepted. */
  hold(): void;
  release(): void;
  /** Mails whose final reply is held now. */
  readonly heldCount: number;
  /** Resolves when `count` mails have arrived. */
  arrivals(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const startTestSmtpServer = async (credentials?: { user: string; password: string }): Promise<TestSmtpServer> => {
  const accepted: ReceivedMail[] = [];
  const arrived: ReceivedMail[] = [];
  let refusals: { count: number; reply: string } = { count: 0, reply: '' };
  let holding = false;
  /** Held final replies by session: resolved true when the connection closed first, false on release. */
  const held = new Map<string, (closed: boolean) => void>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: credentials === undefined,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.password)
        callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onClose(session) {
      held.get(session.id)?.(true);
    },
    onData(stream, session, callback) {
      void (async () => {
        const parsed = await simpleParser(stream);
        const mail = {
          parsed,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
        };
        arrived.push(mail);
        for (const wake of waiters) wake();
        if (refusals.count > 0) {
          refusals = { ...refusals, count: refusals.count - 1 };
          return callback(Object.assign(new Error(refusals.reply), { responseCode: 451 }));
        }
        if (holding) {
          const closed = await new Promise<boolean>((resolve) => held.set(session.id, resolve));
          held.delete(session.id);
          if (closed) return undefined;
        }
        accepted.push(mail);
        callback(null, 'Queued');
      })().catch((error: unknown) => callback(error as Error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    accepted,
    arrived,
    refuseNext: (count, reply = 'Try again later') => {
      refusals = { count, reply };
    },
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const release of held.values()) release(false);
    },
    get heldCount() {
      return held.size;
    },
    arrivals: async (count, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (arrived.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${count} mails did not arrive within ${timeoutMs} ms (${arrived.length} did)`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
