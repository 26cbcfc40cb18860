/** A raw TCP client for tests of what happens below HTTP requests: held sockets, protocol errors, caps. */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** The status of the first response, or undefined when the socket closed without one. */
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting until the service closed the socket (or until `waitMs` ran out: undefined). */
  closedAfterMs?: number;
}

const parse = (text: string): Pick<RawAnswer, 'status' | 'headers' | 'body'> => {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { headers: {}, body: '' };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
};

export interface RawConnection {
  socket: Socket;
  /** Resolves once the service closed the connection, or after `waitMs` with the socket still open. */
  answer(waitMs: number): Promise<RawAnswer>;
  write(bytes: string): void;
  close(): void;
}

/** Opens a connection and sends `bytes` (possibly an incomplete request); the answer is read as it comes. */
export const openRaw = (port: number, bytes = ''): Promise<RawConnection> =>
  new Promise((resolve, reject) => {
    const started = Date.now();
    let received = '';
    let closedAfterMs: number | undefined;
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) =>
      socket.once('close', () => {
        closedAfterMs = Date.now() - started;
        done();
      }),
    );
    socket.once('connect', () => {
      if (bytes) socket.write(bytes);
      resolve({
        socket,
        write: (more) => socket.write(more),
        close: () => socket.destroy(),
        answer: async (waitMs) => {
          await Promise.race([closed, new Promise((done) => setTimeout(done, waitMs))]);
          return { ...parse(received), closedAfterMs };
        },
      });
    });
    socket.once('error', reject);
  });

/** Sends one whole exchange and waits for the service to close the connection. */
export const rawExchange = async (port: number, bytes: string, waitMs = 5000): Promise<RawAnswer> => (await openRaw(port, bytes)).answer(waitMs);
