import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../clock.js';
import { callWithDeadline } from '../../call-with-deadline.js';
import { ProviderFailure, type PhoneSystem } from '../../phone-system.js';
import { createPhoneSystemSimulator } from '../phone-system-simulator.js';
import { createRemoteSimulator, type RemoteSimulatorOptions } from './remote-simulator.js';
import { startSimulatorServer, type SimulatorServer } from './simulator-server.js';
import type { CenterBody } from './wire-contract.js';

const START = Date.parse('2026-03-02T10:00:00Z');
const CENTER: CenterBody = {
  name: 'pbx',
  seed: 3,
  dialMode: 'two-step',
  agents: 24,
  traffic: 1,
  speed: 1,
  keepEndedMs: 120_000,
  emailDomain: 'example.com',
  recordedCalls: 0,
  control: false,
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const signal = () => new AbortController().signal;
const failureOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.unreachable('expected it to fail'),
    (error: unknown) => error,
  );

const serve = async (phoneSystem: PhoneSystem, port = 0): Promise<SimulatorServer> => {
  const server = await startSimulatorServer({ phoneSystem, center: CENTER, host: '127.0.0.1', port, changePollMs: 20, onInternalError: () => {} });
  cleanups.push(() => server.close());
  return server;
};

const client = (url: string, options: Partial<RemoteSimulatorOptions> = {}) => {
  const remote = createRemoteSimulator({ url, requestTimeoutMs: 500, ...options });
  cleanups.push(() => remote.close());
  return remote;
};

/** A plain HTTP server that answers as a test says: to stand in for something that is not a good simulator. */
const fakeServer = async (answer: (req: IncomingMessage, res: ServerResponse) => void) => {
  const server = createHttpServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

/** A port that accepts connections and never answers, as a hung process does. */
const hungPort = async () => {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

const waitFor = async (condition: () => boolean, timeoutMs = 3000) => {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('a remote simulator that cannot answer', () => {
  it('is unavailable when nothing listens at its address (the process stopped)', async () => {
    const server = await serve(createPhoneSystemSimulator({ clock: new ManualClock(START), seed: 3, name: 'pbx' }));
    const remote = client(server.url);
    await expect(remote.listCalls(signal())).resolves.not.toHaveLength(0);
    await server.close();
    for (const attempt of [remote.listCalls(signal()), remote.listSubscribers(signal()), remote.placeCall({ providerSubscriberID: 'agt-0001', remoteNumber: '15555550123' }, signal())]) {
      const error = await failureOf(attempt);
      expect(error).toBeInstanceOf(ProviderFailure);
      expect(error).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('cannot be reached (ECONNREFUSED)') });
    }
  });

  it('times out when the process accepts connections but never answers (it hangs)', async () => {
    const remote = client(await hungPort(), { requestTimeoutMs: 300 });
    expect(await failureOf(callWithDeadline(300, (s) => remote.listCalls(s)))).toMatchObject({ kind: 'timeout' });
    // The client's own deadline bounds the drills, which no sync loop or route bounds.
    const drill = await failureOf(remote.control.setFailure('error'));
    expect(drill).toMatchObject({ kind: 'timeout', message: expect.stringContaining('did not answer in time') });
  });

  it('fails with an error on a failed answer that is not the wire’s, and keeps 503 and 504 for what they mean', async () => {
    let status = 500;
    const url = await fakeServer((_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('upstream trouble'));
    const remote = client(url);
    expect(await failureOf(remote.listCalls(signal()))).toMatchObject({ kind: 'error', message: expect.stringContaining('HTTP 500') });
    status = 503;
    expect(await failureOf(remote.listCalls(signal()))).toMatchObject({ kind: 'unavailable' });
    status = 504;
    expect(await failureOf(remote.listCalls(signal()))).toMatchObject({ kind: 'timeout' });
  });

  it('refuses an answer that breaks the wire, naming what is wrong', async () => {
    let body = '{"calls":[{"callID":"c1","providerCallID":"p1","isOutbound":true,"isMissedCall":false,"remoteNumber":"+1 555","startedAt":1}]}';
    const url = await fakeServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    const remote = client(url);
    expect(await failureOf(remote.listCalls(signal()))).toMatchObject({ kind: 'error', message: expect.stringContaining('calls.0.remoteNumber') });
    body = 'not json';
    expect(await failureOf(remote.listSubscribers(signal()))).toMatchObject({ kind: 'error', message: expect.stringContaining('against the wire') });
  });

  it('says so when the drills are asked of a process started without --control', async () => {
    const sim = createPhoneSystemSimulator({ clock: new ManualClock(START), seed: 3, name: 'pbx' });
    const { control: _control, ...withoutControl } = sim;
    const remote = client((await serve(withoutControl)).url);
    const error = await failureOf(remote.control.setFailure('error'));
    expect(error).toMatchObject({ kind: 'error', message: expect.stringContaining('start it with --control') });
    await expect(remote.listCalls(signal())).resolves.not.toHaveLength(0);
  });

  it('is unavailable once closed', async () => {
    const remote = client((await serve(createPhoneSystemSimulator({ clock: new ManualClock(START), seed: 3, name: 'pbx' }))).url);
    await remote.close();
    expect(await failureOf(remote.listCalls(signal()))).toMatchObject({ kind: 'unavailable' });
  });
});

describe('the past from a remote simulator', () => {
  const range = { since: START - 3_600_000, from: START - 3_600_000, to: START };
  const batchLine = (through: number) => `${JSON.stringify({ calls: [], through })}\n`;

  it('times out when the process stops sending in the middle', async () => {
    const url = await fakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(batchLine(START - 1_800_000));
    });
    const batches = client(url, { pastIdleMs: 300 }).backfill(range, signal())[Symbol.asyncIterator]();
    expect((await batches.next()).value).toEqual({ calls: [], through: START - 1_800_000 });
    expect(await failureOf(batches.next())).toMatchObject({ kind: 'timeout', message: expect.stringContaining('sent no part of the past for 300 ms') });
  });

  it('fails when the stream ends before the end of the range, or with the error the process sent', async () => {
    let tail = '';
    const url = await fakeServer((_req, res) => res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(batchLine(START - 1_800_000) + tail));
    const remote = client(url);
    const drain = async () => {
      for await (const _batch of remote.backfill(range, signal()));
    };
    expect(await failureOf(drain())).toMatchObject({ kind: 'error', message: expect.stringContaining('before the end of its range') });
    tail = `${JSON.stringify({ error: { code: 'internal', message: 'the worker ran out of memory' } })}\n`;
    expect(await failureOf(drain())).toMatchObject({ kind: 'error', message: expect.stringContaining('the worker ran out of memory') });
  });

  it('is unavailable when the process shuts down in the middle, not cut short', { timeout: 30_000 }, async () => {
    const clock = new ManualClock(START);
    const server = await serve(createPhoneSystemSimulator({ clock, seed: 3, name: 'pbx', agents: 2000 }));
    const week = { since: START - 7 * 86_400_000, from: START - 7 * 86_400_000, to: START };
    const batches = client(server.url).backfill(week, signal())[Symbol.asyncIterator]();
    expect((await batches.next()).done).toBe(false);
    const closing = server.close();
    const drain = async () => {
      while (!(await batches.next()).done);
    };
    expect(await failureOf(drain())).toMatchObject({ kind: 'unavailable', message: 'the simulator is shutting down' });
    await closing;
  });
});

describe('watching a remote simulator for changes', () => {
  it('watching a phone system that cannot tell of changes: ticks at once, then as its calls change, and stops when told to', async () => {
    const clock = new ManualClock(START);
    // Without a change watch of its own, the process finds the changes by reading the calls.
    const { watchChanges: _cannotTell, ...polled } = createPhoneSystemSimulator({ clock, seed: 3, name: 'pbx' });
    const remote = client((await serve(polled)).url);
    let ticks = 0;
    const stop = remote.watchChanges(() => (ticks += 1));
    await waitFor(() => ticks === 1);
    // Nothing happens while the clock stands still...
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ticks).toBe(1);
    // ...and calls start, ring and end as it moves.
    clock.advance(5 * 60_000);
    await waitFor(() => ticks === 2);
    stop();
    clock.advance(5 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ticks).toBe(2);
  });

  it('uses the phone system’s own change watch when it has one, merging ticks that come close together', async () => {
    const clock = new ManualClock(START);
    let notify = () => {};
    const sim = createPhoneSystemSimulator({ clock, seed: 3, name: 'pbx' });
    const remote = client(
      (
        await serve({
          ...sim,
          watchChanges: (onChange) => {
            notify = onChange;
            return () => (notify = () => {});
          },
        })
      ).url,
    );
    let ticks = 0;
    remote.watchChanges(() => (ticks += 1));
    await waitFor(() => ticks === 1);
    for (let i = 0; i < 50; i += 1) notify();
    await waitFor(() => ticks >= 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ticks).toBeLessThanOrEqual(3);
  });

  it('reconnects with back-off when the process restarts, and ticks once it is back', async () => {
    const clock = new ManualClock(START);
    const sim = createPhoneSystemSimulator({ clock, seed: 3, name: 'pbx' });
    const first = await serve(sim);
    const port = Number(new URL(first.url).port);
    const remote = client(first.url, { reconnectMs: { first: 20, max: 100 } });
    let ticks = 0;
    remote.watchChanges(() => (ticks += 1));
    await waitFor(() => ticks >= 1);
    await first.close();
    const before = ticks;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ticks).toBe(before);
    await serve(sim, port);
    await waitFor(() => ticks > before);
  });

  it('reopens a stream that falls silent, keepalives and all', async () => {
    let connections = 0;
    const url = await fakeServer((_req, res) => {
      connections += 1;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"event":"change"}\n');
    });
    let ticks = 0;
    client(url, { changesIdleMs: 100, reconnectMs: { first: 10, max: 20 } }).watchChanges(() => (ticks += 1));
    await waitFor(() => connections >= 3 && ticks >= 3);
  });
});
