/** The factory's simulator cases: a center run in the service, or a simulator process reached at settings.url. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { ManualClock } from '../clock.js';
import { providerConfigSchema, serviceConfigSchema } from '../config/config-schema.js';
import { createPhoneSystemSimulator } from '../providers/simulator/phone-system-simulator.js';
import { startSimulatorServer } from '../providers/simulator/remote/simulator-server.js';
import { createTestHistory } from '../test-support/test-history.js';
import { phoneSystemFactory } from './phone-system-factory.js';

const TOKEN = 'remote-simulator-token-0001';
const START = Date.parse('2026-03-02T10:00:00Z');
const BASE = '/v1/accounts/a/applications/app';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A simulator process stand-in on a free port, and a service whose providers point at it (one with drills, one without). */
const build = async () => {
  const served = createPhoneSystemSimulator({ clock: new ManualClock(START), seed: 5, name: 'shared', agents: 30 });
  const server = await startSimulatorServer({
    phoneSystem: served,
    center: { name: 'shared', seed: 5, dialMode: 'two-step', agents: 30, traffic: 1, speed: 1, keepEndedMs: 120_000, emailDomain: 'example.com', recordedCalls: 0, control: true },
    host: '127.0.0.1',
    port: 0,
    onInternalError: (error) => {
      throw error;
    },
  });
  cleanups.push(() => server.close());
  const history = await createTestHistory();
  cleanups.push(() => history.dispose());
  const app = await buildApp({
    history: await history.open(),
    clock: new ManualClock(START),
    autoSync: false,
    config: serviceConfigSchema.parse({
      accounts: [
        {
          id: 'a',
          name: 'A',
          applications: [
            {
              id: 'app',
              name: 'App',
              providers: [
                { id: 'shared', name: 'Shared PBX', type: 'simulator', requestTimeoutMs: 1000, settings: { url: server.url, control: true } },
                { id: 'watch-only', name: 'Watch-only PBX', type: 'simulator', requestTimeoutMs: 1000, settings: { url: server.url } },
              ],
            },
          ],
          tokens: [{ name: 't', token: TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
        },
      ],
    }),
  });
  cleanups.push(() => app.close());
  await app.providers.syncAll();
  const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}`, ...(payload ? { 'content-type': 'application/json' } : {}) }, payload });
  return { served, server, request };
};

describe('a simulator provider with a url', () => {
  it('lists the calls of the simulator process it points at, with that process’s times', async () => {
    const { served, request } = await build();
    const listed = (await served.listCalls(new AbortController().signal)).map((call) => [call.callID, new Date(call.startedAt).toISOString()]);
    const res = await request('GET', `${BASE}/provider/shared/calls`);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ calls: { callID: string; startedAt: string; providerID: string }[] }>();
    expect(body.calls.length).toBeGreaterThan(3);
    expect(body.calls.map((call) => [call.callID, call.startedAt])).toEqual(listed);
    // Both providers point at the same process: every instance of a cluster sees one phone system.
    const other = (await request('GET', `${BASE}/provider/watch-only/calls`)).json<{ calls: { callID: string }[] }>();
    expect(other.calls.map((call) => call.callID)).toEqual(body.calls.map((call) => call.callID));
  });

  it('places calls there, answers its refusals and failures as the in-process simulator’s, and drives its drills', async () => {
    const { served, request } = await build();
    const subscribers = (await request('GET', `${BASE}/providers/shared/subscribers`)).json<{
      subscribers: { providerSubscriberID: string; registered: boolean; active: boolean }[];
    }>().subscribers;
    const agent = subscribers.find((s) => s.registered && s.active);
    const offline = subscribers.find((s) => !s.registered);
    expect((await request('POST', `${BASE}/providers/shared/calls`, { providerSubscriberID: agent?.providerSubscriberID, remoteNumber: '15555550142' })).statusCode).toBe(204);
    expect((await served.listCalls(new AbortController().signal)).some((call) => call.remoteNumber === '15555550142')).toBe(true);
    const refused = await request('POST', `${BASE}/providers/shared/calls`, { providerSubscriberID: offline?.providerSubscriberID, remoteNumber: '15555550142' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('subscriber_not_registered');

    expect((await request('PUT', `${BASE}/providers/shared/simulator/failure`, { mode: 'error' })).statusCode).toBe(204);
    const failing = await request('GET', `${BASE}/providers/shared/subscribers`);
    expect(failing.statusCode).toBe(502);
    expect(failing.json().detail).toBe('Shared PBX answered with an error: the simulated phone system answered 500 Internal Server Error (outage demo)');
    expect((await request('PUT', `${BASE}/providers/shared/simulator/failure`, { mode: 'stall' })).statusCode).toBe(204);
    expect((await request('GET', `${BASE}/providers/shared/subscribers`)).json().code).toBe('provider_timeout');
    expect((await request('PUT', `${BASE}/providers/shared/simulator/failure`, { mode: null })).statusCode).toBe(204);
    expect((await request('GET', `${BASE}/providers/shared/subscribers`)).statusCode).toBe(200);
    // Without `control` the provider exposes no drills, whatever the process offers.
    expect((await request('PUT', `${BASE}/providers/watch-only/simulator/failure`, { mode: 'error' })).statusCode).toBe(404);
  });

  it('answers 503 once the process is gone', async () => {
    const { server, request } = await build();
    await server.close();
    const res = await request('GET', `${BASE}/providers/shared/subscribers`);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'provider_unavailable', detail: expect.stringContaining('cannot be reached') });
  });
});

describe('a simulator provider without a url', () => {
  const scope = { accountID: 'a', applicationID: 'app', providerID: 'local' };
  const build = (settings: object) =>
    phoneSystemFactory(new ManualClock(START))(providerConfigSchema.parse({ id: 'local', name: 'Local PBX', type: 'simulator', settings }), scope);

  it('runs its center in this service, on the service’s clock, as its settings say', async () => {
    const phoneSystem = build({ seed: 9, agents: 12, dialMode: 'direct' });
    const twin = createPhoneSystemSimulator({ clock: new ManualClock(START), seed: 9, name: 'local', agents: 12, dialMode: 'direct' });
    const signal = new AbortController().signal;
    expect(await phoneSystem.listCalls(signal)).toEqual(await twin.listCalls(signal));
    expect(await phoneSystem.listSubscribers(signal)).toHaveLength(12);
    expect(phoneSystem.backfill).toBeTypeOf('function');
    // Drills only where the config enables them.
    expect(phoneSystem.control).toBeUndefined();
    expect(build({ control: true }).control).toBeDefined();
  });

  it('draws a seed of its own per provider when none is set, the same at every start', async () => {
    const signal = new AbortController().signal;
    const first = await build({}).listCalls(signal);
    expect(await build({}).listCalls(signal)).toEqual(first);
    const other = phoneSystemFactory(new ManualClock(START))(providerConfigSchema.parse({ id: 'other', name: 'Other', type: 'simulator' }), {
      ...scope,
      providerID: 'other',
    });
    expect((await other.listCalls(signal)).map((call) => call.callID)).not.toEqual(first.map((call) => call.callID));
  });
});
