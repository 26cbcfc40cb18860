/** Finds free loopback ports: one for a service, or a block of consecutive ones free for both TCP and UDP. */
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

const HOST = '127.0.0.1';
/** Above the phones' RTP range and below Linux's ephemeral ports, where outgoing connections take theirs. */
const FIRST = 20_000;
const LAST = 32_000;

const tcpFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });

const udpFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, HOST, () => socket.close(() => resolve(true)));
  });

const blockFree = async (first: number, count: number) => {
  const ports = Array.from({ length: count }, (_, i) => first + i);
  const free = await Promise.all(ports.map(async (port) => (await tcpFree(port)) && (await udpFree(port))));
  return free.every(Boolean);
};

export const freePortBlock = async (count: number): Promise<number> => {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const first = FIRST + Math.floor(Math.random() * (LAST - FIRST - count));
    if (await blockFree(first, count)) return first;
  }
  throw new Error(`no block of ${count} free ports on ${HOST} between ${FIRST} and ${LAST}`);
};

/** The phones' media ports, kept apart from the signalling ports above. */
export const RTP_PORTS = '10000-19999';

/** A free loopback port, for a service whose URL must be known before it starts (Twilio's callbacks are signed over it). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
