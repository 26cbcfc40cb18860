/**
 * The service with a simulator provider whose settings.url points at a standalone simulator
 * process, as every instance of a cluster would: lists, calls, drills, outages and history through it.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConcurrencyResponse } from '../contract/analytics.js';
import type { CallRecord, ListCallsResponse } from '../contract/call-record.js';
import type { Subscriber } from '../contract/subscriber.js';
import { buildApp } from './app.js';
import { parseConfig } from './config/load-config.js';
import { startSimulatorProcess, stopSimulatorsAfterEach, type SimulatorProcess } from './test-support/simulator-process.js';
import { createTestHistory, type TestHistory } from './test-support/test-history.js';

const TOKEN = 'supervisor-token-0123456789';
const BASE = '/v1/accounts/acme/applications/support';
const LIST = `${BASE}/provider/shared/calls`;
const SUBSCRIBERS = `${BASE}/providers/shared/subscribers`;
const PLACE = `${BASE}/providers/shared/calls`;
const FAILURE = `${BASE}/providers/shared/simulator/failure`;
const NEXT_CALL = `${BASE}/providers/shared/simulator/next-placed-call`;
const CUSTOMER = '15555550177';

stopSimulatorsAfterEach();

let app: FastifyInstance | undefined;
let history: TestHistory | undefined;
afterEach(async () => {
  await app?.close();
  await history?.dispose();
  app = undefined;
  history = undefined;
});

interface ServiceOptions {
  /** How old the snapshot may grow while the simulator fails before lists answer 503. */
  staleAfterMs?: number;
  /** Days of past to fill from the simulator at start; 0 fills none. */
  backfillDays?: number;
}

/** The service from a config file's text, as an operator writes it, its sync loops running on the wall clock. */
const startService = async (simulatorURL: string, { staleAfterMs = 30_000, backfillDays = 0 }: ServiceOptions = {}) => {
  const config = {
    accounts: [
      {
        id: 'acme',
        name: 'Acme',
        applications: [
          {
            id: 'support',
            name: 'Support',
            providers: [
              {
                id: 'shared',
                name: 'Shared PBX',
                type: 'simulator',
                syncIntervalMs: 200,
                requestTimeoutMs: 1000,
                staleAfterMs,
                settings: { url: simulatorURL, control: true },
              },
            ],
          },
        ],
        tokens: [{ name: 'supervisors', token: TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
      },
    ],
    history: { backfill: { days: backfillDays } },
  };
  history = await createTestHistory();
  app = await buildApp({ config: parseConfig(JSON.stringify(config), 'callboard.json'), history: await history.open(), backfill: backfillDays > 0 });
  await app.ready();
  return app;
};

const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> => {
  if (!app) throw new Error('the service is not started');
  const body = payload ? { 'content-type': 'application/json' } : {};
  return app.inject({ method, url, payload, headers: { authorization: `Bearer ${TOKEN}`, ...body, ...headers } });
};

/** Asks again until the answer passes `check`, failing with the last answer after `timeoutMs`. */
const eventually = async <T>(ask: () => Promise<T>, check: (answer: T) => boolean, timeoutMs = 10_000): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const answer = await ask();
    if (check(answer)) return answer;
    if (Date.now() > until) throw new Error(`no answer passed in ${timeoutMs} ms; the last was ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const listed = async (): Promise<CallRecord[]> => (await send('GET', LIST)).json<ListCallsResponse>().calls;

const callTo = (calls: CallRecord[], number: string) => calls.find((call) => call.remoteNumber === number);

const directCallIDs = async (sim: SimulatorProcess): Promise<Set<string>> => {
  const body = (await (await fetch(`${sim.url}/v1/calls`)).json()) as { calls: { callID: string }[] };
  return new Set(body.calls.map((call) => call.callID));
};

const availableAgent = async (): Promise<Subscriber> => {
  const subscribers = (await send('GET', SUBSCRIBERS)).json<{ subscribers: Subscriber[] }>().subscribers;
  const agent = subscribers.find((s) => s.registered && s.active);
  if (!agent) throw new Error('no agent can place calls');
  return agent;
};

describe('the service with a simulator provider pointed at a simulator process', { timeout: 60_000 }, () => {
  it('lists the process’s calls; a call placed through it rings, connects and ends there and in the list, once', async () => {
    const sim = await startSimulatorProcess(['--port', '0', '--seed', '11', '--agents', '40', '--control']);
    await startService(sim.url);

    const first = await send('GET', LIST);
    expect(first.statusCode).toBe(200);
    const calls = first.json<ListCallsResponse>().calls;
    expect(calls.length).toBeGreaterThan(3);
    // Every call the service lists is the process's: it still lists them a moment later (ended ones stay two minutes).
    const inProcess = await directCallIDs(sim);
    expect(calls.filter((call) => !inProcess.has(call.callID))).toEqual([]);

    const agent = await availableAgent();
    const script = { agent: 'answer', agentRingMs: 300, remote: 'answer', remoteRingMs: 300, talkMs: 1500 };
    expect((await send('PUT', NEXT_CALL, script)).statusCode).toBe(204);
    const request = { providerSubscriberID: agent.providerSubscriberID, remoteNumber: CUSTOMER };
    const key = { 'idempotency-key': 'call-remote-1' };
    expect((await send('POST', PLACE, request, key)).statusCode).toBe(204);
    // The retry of a request whose answer was lost rings no one twice.
    expect((await send('POST', PLACE, request, key)).statusCode).toBe(204);

    const ringing = callTo(await eventually(listed, (now) => callTo(now, CUSTOMER) !== undefined, 3000), CUSTOMER);
    expect(ringing).toMatchObject({ isOutbound: true, subscriberID: agent.providerSubscriberID, providerID: 'shared', providerName: 'Shared PBX' });
    expect(ringing?.endedAt).toBeUndefined();
    const ended = callTo(await eventually(listed, (now) => callTo(now, CUSTOMER)?.endedAt !== undefined), CUSTOMER) as CallRecord;
    const startedAt = Date.parse(ended.startedAt);
    // The script's times to the millisecond: agent rings 300 ms, customer 300 ms, then 1.5 s of talk.
    expect(Date.parse(ended.answeredAt as string) - startedAt).toBe(600);
    expect(Date.parse(ended.endedAt as string) - startedAt).toBe(2100);
    expect(ended.isMissedCall).toBe(false);
    expect((await listed()).filter((call) => call.remoteNumber === CUSTOMER)).toHaveLength(1);
  });

  it('drives the process’s drills: 502 and 504 as they happen, 503 once the snapshot is too old, and it recovers', async () => {
    const sim = await startSimulatorProcess(['--port', '0', '--seed', '11', '--control']);
    await startService(sim.url, { staleAfterMs: 1000 });
    expect((await send('GET', LIST)).statusCode).toBe(200);
    const agent = await availableAgent();

    expect((await send('PUT', FAILURE, { mode: 'error' })).statusCode).toBe(204);
    const failing = await send('GET', SUBSCRIBERS);
    expect(failing.statusCode).toBe(502);
    expect(failing.json()).toMatchObject({ code: 'provider_error', detail: expect.stringContaining('Shared PBX answered with an error') });
    const placing = await send('POST', PLACE, { providerSubscriberID: agent.providerSubscriberID, remoteNumber: CUSTOMER });
    expect(placing.json().code).toBe('provider_error');

    expect((await send('PUT', FAILURE, { mode: 'stall' })).statusCode).toBe(204);
    const asked = Date.now();
    const stalled = await send('GET', SUBSCRIBERS);
    expect(stalled.statusCode).toBe(504);
    expect(stalled.json().code).toBe('provider_timeout');
    // Answered at the provider's deadline (requestTimeoutMs), not later.
    expect(Date.now() - asked).toBeGreaterThanOrEqual(950);
    // Well before the 10 s a request waits by default; the margin is for a busy machine.
    expect(Date.now() - asked).toBeLessThan(5000);

    expect((await send('PUT', FAILURE, { mode: 'unavailable' })).statusCode).toBe(204);
    expect((await send('GET', SUBSCRIBERS)).json().code).toBe('provider_unavailable');
    const stale = await eventually(() => send('GET', LIST), (res) => res.statusCode === 503);
    expect(stale.json()).toMatchObject({ code: 'provider_unavailable', detail: expect.stringContaining('has not delivered its calls') });

    expect((await send('PUT', FAILURE, { mode: null })).statusCode).toBe(204);
    expect((await send('GET', SUBSCRIBERS)).statusCode).toBe(200);
    await eventually(() => send('GET', LIST), (res) => res.statusCode === 200);
  });

  it('answers 504 while the process hangs and 503 while it is down, and recovers by itself once it is back', async () => {
    const sim = await startSimulatorProcess(['--port', '0', '--seed', '11']);
    await startService(sim.url, { staleAfterMs: 1000 });
    expect((await send('GET', LIST)).statusCode).toBe(200);

    sim.child.kill('SIGSTOP');
    try {
      const hung = await send('GET', SUBSCRIBERS);
      expect(hung.statusCode).toBe(504);
      expect(hung.json()).toMatchObject({ code: 'provider_timeout', detail: expect.stringContaining('did not answer in time') });
      expect((await eventually(() => send('GET', LIST), (res) => res.statusCode === 503)).json().code).toBe('provider_unavailable');
    } finally {
      sim.child.kill('SIGCONT');
    }
    await eventually(() => send('GET', LIST), (res) => res.statusCode === 200);

    sim.child.kill('SIGTERM');
    expect(await sim.exited).toBe(0);
    const down = await send('GET', SUBSCRIBERS);
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json()).toMatchObject({ code: 'provider_unavailable', detail: expect.stringContaining('cannot be reached (ECONNREFUSED)') });
    const agent = 'agt-0001';
    expect((await send('POST', PLACE, { providerSubscriberID: agent, remoteNumber: CUSTOMER })).json().code).toBe('provider_unavailable');
    expect((await eventually(() => send('GET', LIST), (res) => res.statusCode === 503)).json().code).toBe('provider_unavailable');

    // The process is back where it was: the service finds it on its own.
    const port = new URL(sim.url).port;
    const back = await startSimulatorProcess(['--port', port, '--seed', '11']);
    const recovered = await eventually(() => send('GET', LIST), (res) => res.statusCode === 200);
    const inProcess = await directCallIDs(back);
    // The old center's calls the new one does not know were ended by the service; they stay listed, ended, for keepEndedMs.
    const unknown = recovered.json<ListCallsResponse>().calls.filter((call) => !inProcess.has(call.callID));
    expect(unknown.every((call) => call.endedAt !== undefined)).toBe(true);
    expect((await send('GET', SUBSCRIBERS)).statusCode).toBe(200);
  });

  it('fills its history from the process’s past: the hour before the service started has no gap', async () => {
    const sim = await startSimulatorProcess(['--port', '0', '--seed', '11', '--agents', '40']);
    const started = Date.now();
    // An hour and a quarter back: the newest hour comes first, then the rest.
    await startService(sim.url, { backfillDays: 75 / 1440 });
    const url = `${BASE}/provider/shared/concurrency?fromDate=${new Date(started - 3_600_000).toISOString()}&toDate=${new Date(started).toISOString()}&bucketSeconds=300`;
    const filled = await eventually(
      async () => (await send('GET', url)).json<ConcurrencyResponse>(),
      (body) => body.historyFill?.status === 'complete',
      30_000,
    );
    expect(filled.historyFill?.calls).toBeGreaterThan(100);
    expect(filled.buckets).toHaveLength(12);
    // 40 agents keep at least ten calls live at any time: every five minutes of that hour had some.
    expect(filled.buckets.filter((bucket) => bucket.peak === 0)).toEqual([]);
    expect(filled.buckets.reduce((sum, bucket) => sum + bucket.started, 0)).toBeGreaterThan(100);
  });
});
