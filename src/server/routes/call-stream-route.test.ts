import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listCallsResponseSchema, type CallRecord } from '../../contract/call-record.js';
import { agentChangesEventSchema, agentsSnapshotEventSchema } from '../../contract/agents.js';
import { changesEventSchema, snapshotEventSchema, statusEventSchema } from '../../contract/call-stream.js';
import { paths } from '../../contract/paths.js';
import { buildApp } from '../app.js';
import { ManualClock } from '../clock.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import { providerCall } from '../test-support/provider-call.js';
import { ScriptedPhoneSystem, subscriber } from '../test-support/scripted-phone-system.js';
import { SharedText } from '../http/event-stream.js';
import { openStream, type StreamClient } from '../test-support/stream-client.js';
import { SNAPSHOT_REUSE_MS } from './call-stream-route.js';

const deflateOriginal = SharedText.prototype.deflate;
import { buildTestApp, T0, testConfig, tokens, type TestApp } from '../test-support/test-app.js';
import { createTestHistory } from '../test-support/test-history.js';

let t: TestApp;
let base: string;
const clients: StreamClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await t?.app.close();
});

const support = { accountID: 'acme', applicationID: 'support' };
const streamPath = (providers: string) => `${paths.callStream(support)}?providers=${providers}`;

const start = async () => {
  t = await buildTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
};

const open = async (providers: string, headers: Record<string, string> = {}, token: string = tokens.acmeAll) => {
  const client = await openStream(`${base}${streamPath(providers)}`, { authorization: `Bearer ${token}`, ...headers });
  clients.push(client);
  return client;
};

const list = async (providerID: string) =>
  listCallsResponseSchema.parse((await t.as(tokens.acmeAll, { method: 'GET', url: paths.listCalls({ ...support, providerID }) })).json());

/** The snapshots' call arrays compressed from now on (each SharedText once, however often it is sent). */
const watchSnapshotCompressions = () => {
  const compressed = new Set<SharedText>();
  const deflate = vi.spyOn(SharedText.prototype, 'deflate').mockImplementation(function (this: SharedText) {
    if (this.text.startsWith('[')) compressed.add(this);
    return deflateOriginal.call(this);
  });
  return { compressed, deflate };
};

describe('the change stream', () => {
  it('starts with a snapshot per provider, equal to the list, then sends each change once', async () => {
    await start();
    t.phone('acme/support/pbx').calls = [providerCall('c1', T0 - 60_000)];
    t.phone('acme/support/trunk').calls = [providerCall('t1', T0 - 30_000, { isOutbound: true })];
    await t.app.providers.syncAll();
    const stream = await open('pbx,trunk');
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    const pbx = snapshotEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'snapshot' && e.data.includes('"pbx"'))).data));
    const trunk = snapshotEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'snapshot' && e.data.includes('"trunk"'))).data));
    expect(pbx.calls).toEqual((await list('pbx')).calls);
    expect(trunk.calls).toEqual((await list('trunk')).calls);

    const seen = stream.events.length;
    t.clock.advance(1000);
    t.phone('acme/support/pbx').calls = [providerCall('c1', T0 - 60_000, { answeredAt: T0 + 500 }), providerCall('c2', T0 + 800)];
    await t.app.providers.syncAll();
    const changes = changesEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'changes', { after: seen })).data));
    expect(changes.providerID).toBe('pbx');
    expect(changes.upserted.map((c) => c.callID)).toEqual(['c1', 'c2']);
    expect(changes.upserted).toEqual((await list('pbx')).calls);
    expect(changes.removed).toEqual([]);

    // A sync that changes nothing sends nothing; a call that leaves the provider's list is sent
    // ended, and named once when it leaves the list for good, keepEndedMs later.
    await t.app.providers.syncAll();
    t.phone('acme/support/pbx').calls = [providerCall('c2', T0 + 800)];
    await t.app.providers.syncAll();
    const ended = changesEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'changes', { after: seen + 1 })).data));
    expect(ended).toMatchObject({ upserted: [{ callID: 'c1', endedAt: new Date(T0 + 1000).toISOString() }], removed: [] });
    t.clock.advance(120_000);
    await t.app.providers.syncAll();
    const gone = changesEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'changes', { after: seen + 2 })).data));
    expect(gone).toMatchObject({ upserted: [], removed: ['c1'] });
    expect(stream.events.filter((e) => e.event === 'changes')).toHaveLength(3);
  });

  it('resumes from Last-Event-ID with only the changes since, and starts over from a snapshot when it cannot', async () => {
    await start();
    t.phone('acme/support/pbx').calls = [providerCall('c1', T0)];
    await t.app.providers.syncAll();
    const first = await open('pbx');
    const snapshot = await first.next((e) => e.event === 'snapshot');
    first.close();

    t.phone('acme/support/pbx').calls = [providerCall('c1', T0), providerCall('c2', T0 + 1)];
    await t.app.providers.syncAll();
    t.phone('acme/support/pbx').calls = [providerCall('c2', T0 + 1)];
    await t.app.providers.syncAll();
    t.clock.advance(120_000);
    await t.app.providers.syncAll();

    const resumed = await open('pbx', { 'last-event-id': snapshot.id });
    const missed = await resumed.next((e) => e.event === 'changes' && e.data.includes('"removed":["c1"]'));
    expect(resumed.events.map((e) => e.event)).toEqual(['changes', 'changes', 'changes']);
    expect(changesEventSchema.parse(JSON.parse(resumed.events[0]?.data ?? '')).upserted.map((c) => c.callID)).toEqual(['c2']);
    expect(missed.id).not.toBe(snapshot.id);

    for (const lastEventID of ['c1.eyJwYngiOiJvdGhlci4zIn0', 'garbage', missed.id.replace(/.$/, 'x')]) {
      const fresh = await open('pbx', { 'last-event-id': lastEventID });
      const event = await fresh.next(() => true);
      expect(event.event).toBe('snapshot');
    }
  });

  it('tells when a provider fails, when its snapshot is too old to serve, and when it recovers', async () => {
    await start();
    t.phone('acme/support/pbx').calls = [providerCall('c1', T0)];
    await t.app.providers.syncAll();
    const stream = await open('pbx');
    await stream.next((e) => e.event === 'snapshot');

    t.phone('acme/support/pbx').failure = 'unavailable';
    await t.app.providers.syncAll();
    const failing = statusEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'status')).data));
    expect(failing).toMatchObject({ providerID: 'pbx', available: true, problem: { code: 'provider_unavailable' } });

    t.clock.advance(31_000);
    await t.app.providers.syncAll();
    const stale = await stream.next((e) => e.event === 'status' && e.data.includes('"available":false'));
    expect(statusEventSchema.parse(JSON.parse(stale.data))).toMatchObject({ available: false, snapshotAgeMs: 31_000, problem: { status: 503 } });

    t.phone('acme/support/pbx').failure = null;
    await t.app.providers.syncAll();
    const back = statusEventSchema.parse(
      JSON.parse((await stream.next((e) => e.event === 'status' && e.data.includes('"available":true'), { after: 2 })).data),
    );
    expect(back.problem).toBeUndefined();
  });

  it('answers bad requests with the list’s problems, before any event', async () => {
    await start();
    const refusals = [
      { providers: '', token: tokens.acmeAll, status: 400, field: 'providers' },
      { providers: 'pbx,pbx', token: tokens.acmeAll, status: 400, field: 'providers' },
      { providers: 'pbx,nope', token: tokens.acmeAll, status: 404 },
      { providers: 'pbx', token: tokens.globex, status: 404 },
      { providers: 'pbx', token: 'not-a-token-at-all-000', status: 401 },
    ];
    for (const { providers, token, status, field } of refusals) {
      const res = await fetch(`${base}${streamPath(providers)}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, providers).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      const problem = (await res.json()) as { errors?: { field: string }[] };
      if (field) expect(problem.errors?.[0]?.field).toBe(field);
    }
    const missing = await fetch(`${base}${paths.callStream(support)}`, { headers: { authorization: `Bearer ${tokens.acmeAll}` } });
    expect(missing.status).toBe(400);
  });

  it('gzips the stream for a client that accepts it, every event readable as it arrives', async () => {
    await start();
    t.phone('acme/support/pbx').calls = Array.from({ length: 200 }, (_, i) => providerCall(`c${i}`, T0 - i));
    await t.app.providers.syncAll();
    const stream = await open('pbx', { 'accept-encoding': 'gzip' });
    expect(stream.headers.get('content-encoding')).toBe('gzip');
    expect(snapshotEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'snapshot')).data)).calls).toHaveLength(200);
    t.phone('acme/support/pbx').calls = [...t.phone('acme/support/pbx').calls, providerCall('late', T0 + 5)];
    await t.app.providers.syncAll();
    expect((await stream.next((e) => e.event === 'changes')).data).toContain('"late"');
  });

  it('compresses a list once for every stream it opens, also after a sync that changed nothing', async () => {
    await start();
    t.phone('acme/support/pbx').calls = Array.from({ length: 200 }, (_, i) => providerCall(`c${i}`, T0 - i));
    await t.app.providers.syncAll();
    const { compressed, deflate } = watchSnapshotCompressions();
    try {
      for (let i = 0; i < 3; i += 1) {
        const stream = await open('pbx', { 'accept-encoding': 'gzip' });
        expect(snapshotEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'snapshot')).data)).calls).toHaveLength(200);
        t.clock.advance(1000);
        await t.app.providers.syncAll();
      }
      expect(compressed.size).toBe(1);
    } finally {
      deflate.mockRestore();
    }
  });

  it('sends a tab opened within a second of another the same compressed list, then the changes since', async () => {
    await start();
    t.phone('acme/support/pbx').calls = Array.from({ length: 50 }, (_, i) => providerCall(`c${i}`, T0 - i));
    await t.app.providers.syncAll();
    const { compressed, deflate } = watchSnapshotCompressions();
    try {
      const first = await open('pbx', { 'accept-encoding': 'gzip' });
      const firstSnapshot = await first.next((e) => e.event === 'snapshot');
      t.clock.advance(1000);
      t.phone('acme/support/pbx').calls = [...t.phone('acme/support/pbx').calls.slice(1), providerCall('new', T0 + 900)];
      await t.app.providers.syncAll();

      const second = await open('pbx', { 'accept-encoding': 'gzip' });
      await second.next((e) => e.event === 'changes');
      expect(second.events.map((e) => e.event)).toEqual(['snapshot', 'changes']);
      expect(second.events[0]?.id).toBe(firstSnapshot.id);
      // Applied in order, they give the list as it is now.
      const held = new Map(snapshotEventSchema.parse(JSON.parse(second.events[0]?.data ?? '')).calls.map((c) => [c.callID, c]));
      const changes = changesEventSchema.parse(JSON.parse(second.events[1]?.data ?? ''));
      for (const call of changes.upserted) held.set(call.callID, call);
      for (const callID of changes.removed) held.delete(callID);
      expect([...held.values()].sort((a, b) => a.callID.localeCompare(b.callID))).toEqual(
        [...(await list('pbx')).calls].sort((a, b) => a.callID.localeCompare(b.callID)),
      );
      expect(compressed.size).toBe(1);

      // Past the reuse window, a tab gets the latest list alone.
      await new Promise((resolve) => setTimeout(resolve, SNAPSHOT_REUSE_MS + 50));
      const third = await open('pbx', { 'accept-encoding': 'gzip' });
      const latest = await third.next((e) => e.event === 'snapshot');
      expect(latest.id).toBe(second.events[1]?.id);
      expect(snapshotEventSchema.parse(JSON.parse(latest.data)).calls).toEqual((await list('pbx')).calls);
      expect(compressed.size).toBe(2);
    } finally {
      deflate.mockRestore();
    }
  });

  it('ends its streams when the service shuts down', async () => {
    await start();
    await t.app.providers.syncAll();
    const stream = await open('pbx');
    await stream.next((e) => e.event === 'snapshot');
    await t.app.close();
    await expect(stream.ended).resolves.toBeUndefined();
  });
});

describe('a reader that stops reading', () => {
  it('is dropped once its backlog passes the cap, instead of growing the service’s memory', async () => {
    const history = await createTestHistory();
    const phone = new ScriptedPhoneSystem();
    // 400 calls with 2 KB names: each change that renames them all is about 1 MB on the wire.
    phone.calls = Array.from({ length: 400 }, (_, i) => providerCall(`call-${i}`, T0 - i, { remoteName: 'n'.repeat(2000) }));
    const app = await buildApp({
      config: serviceConfigSchema.parse(testConfig()),
      history: await history.open(),
      clock: new ManualClock(T0),
      autoSync: false,
      createPhoneSystem: (_config, scope) => (scope.applicationID === 'support' && scope.providerID === 'pbx' ? phone : new ScriptedPhoneSystem()),
      streams: { maxBufferedBytes: 256 * 1024 },
    });
    const url = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    await app.providers.syncAll();
    const socket = connect(Number(url.port), '127.0.0.1');
    socket.pause();
    socket.write(`GET ${streamPath('pbx')} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.acmeAll}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sync = app.providers.get({ ...support, providerID: 'pbx' })?.sync;
    for (let i = 0; i < 20; i += 1) {
      phone.calls = phone.calls.map((call) => ({ ...call, remoteName: `${'n'.repeat(2000)}${i}` }));
      await app.providers.syncAll();
    }
    let received = 0;
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.on('error', () => undefined);
    socket.resume();
    await closed;
    // 20 changes of about 1 MB were made; the reader got a fraction before the service let go of it.
    expect(sync?.live.serializations).toBe(20);
    expect(received).toBeLessThan(8 * 1024 * 1024);
    await app.close();
    await history.dispose();
  }, 20_000);
});

describe('snapshot and changes, applied in order', () => {
  it('give exactly the list at every moment of a long random run of the simulator', async () => {
    const { createPhoneSystemSimulator } = await import('../providers/simulator/phone-system-simulator.js');
    const history = await createTestHistory();
    const clock = new ManualClock(T0);
    const app = await buildApp({
      config: serviceConfigSchema.parse(testConfig()),
      history: await history.open(),
      clock,
      autoSync: false,
      createPhoneSystem: (_config, scope) =>
        createPhoneSystemSimulator({ clock, name: scope.providerID, seed: 41, agents: 30, traffic: 2, speed: 10 }),
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    await app.providers.syncAll();
    const client = await openStream(`${base}${streamPath('pbx')}`, { authorization: `Bearer ${tokens.acmeAll}` });
    clients.push(client);
    const held = new Map<string, CallRecord>();
    let applied = 0;
    const apply = () => {
      for (; applied < client.events.length; applied += 1) {
        const event = client.events[applied];
        if (event?.event === 'snapshot') {
          held.clear();
          for (const call of snapshotEventSchema.parse(JSON.parse(event.data)).calls) held.set(call.callID, call);
        } else if (event?.event === 'changes') {
          const change = changesEventSchema.parse(JSON.parse(event.data));
          for (const call of change.upserted) held.set(call.callID, call);
          for (const id of change.removed) held.delete(id);
        }
      }
    };
    const byStart = (a: CallRecord, b: CallRecord) => a.startedAt.localeCompare(b.startedAt) || a.callID.localeCompare(b.callID);
    let random = 7;
    for (let step = 0; step < 120; step += 1) {
      random = (random * 1103515245 + 12345) % 2 ** 31;
      clock.advance(200 + (random % 4000));
      await app.providers.syncAll();
      const listed = await app.inject({ method: 'GET', url: paths.listCalls({ ...support, providerID: 'pbx' }), headers: { authorization: `Bearer ${tokens.acmeAll}` } });
      const expected = listCallsResponseSchema.parse(listed.json()).calls;
      const changesSoFar = app.providers.get({ ...support, providerID: 'pbx' })?.sync.live.positioned()?.position.seq ?? 0;
      await client.next((e) => (JSON.parse(e.data) as { cursor?: string }).cursor?.endsWith(`.${changesSoFar}`) === true);
      apply();
      expect([...held.values()].sort(byStart), `step ${step}`).toEqual(expected);
    }
    expect(client.events.filter((e) => e.event === 'snapshot')).toHaveLength(1);
    client.close();
    await app.close();
    await history.dispose();
  }, 60_000);
});

describe("a token's streams", () => {
  it('are counted apart from its requests in flight, up to their own cap, and give their slot back when closed', async () => {
    // A closed stream's connection stays open as an idle keep-alive one: a short keep-alive lets the app close at once.
    t = await buildTestApp({ limits: { streamsPerToken: 2, requestsPerToken: 1, keepAliveTimeoutMs: 1000 } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.providers.syncAll();
    const first = await open('pbx');
    const second = await open('trunk');
    expect([first.status, second.status]).toEqual([200, 200]);
    // Two streams open, and the token's one request in flight is still free for a list.
    expect((await list('pbx')).totalCalls).toBe(0);

    const third = await fetch(`${base}${streamPath('pbx')}`, { headers: { authorization: `Bearer ${tokens.acmeAll}` } });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(await third.json()).toMatchObject({ code: 'too_many_streams' });

    first.close();
    await expect.poll(async () => (await open('pbx')).status, { timeout: 5000 }).toBe(200);
  });
});

describe('the agent board on the change stream', () => {
  const withAgents = (providers: string) => `${streamPath(providers)}&include=agents`;
  const openWithAgents = async (providers: string, headers: Record<string, string> = {}) => {
    const client = await openStream(`${base}${withAgents(providers)}`, { authorization: `Bearer ${tokens.acmeAll}`, ...headers });
    clients.push(client);
    return client;
  };
  const agentsOf = (data: string) => agentsSnapshotEventSchema.parse(JSON.parse(data));
  const changesOf = (data: string) => agentChangesEventSchema.parse(JSON.parse(data));

  const staff = async () => {
    await start();
    const phone = t.phone('acme/support/pbx');
    phone.subscribers = [subscriber({ providerSubscriberID: 'agt-1', extension: '101' }), subscriber({ providerSubscriberID: 'agt-2', extension: '102' })];
    await t.app.providers.syncAll();
    return phone;
  };

  it('sends the board once the client asks for it, then only the agents that changed, with the new totals', async () => {
    const phone = await staff();
    const plain = await open('pbx');
    const stream = await openWithAgents('pbx');
    const board = agentsOf((await stream.next((e) => e.event === 'agents')).data);
    expect(board.providerID).toBe('pbx');
    expect(board.agents.map((a) => [a.subscriberID, a.state])).toEqual([
      ['agt-1', 'available'],
      ['agt-2', 'available'],
    ]);
    const seen = stream.events.length;
    t.clock.advance(1000);
    phone.calls = [providerCall('c1', T0 + 1000, { subscriberID: 'agt-2', subscriberExtension: '102' })];
    await t.app.providers.syncAll();
    const change = changesOf((await stream.next((e) => e.event === 'agent-changes', { after: seen })).data);
    expect(change.upserted.map((a) => [a.subscriberID, a.state, a.callID])).toEqual([['agt-2', 'ringing', 'c1']]);
    expect(change.removed).toEqual([]);
    expect(change.totals).toEqual({ offline: 0, inactive: 0, available: 1, ringing: 1, onCall: 0 });

    // A subscriber who leaves the provider's list leaves the board.
    phone.subscribers = phone.subscribers.slice(1);
    await t.app.providers.syncAll();
    const left = changesOf((await stream.next((e) => e.event === 'agent-changes' && e.data.includes('"removed":["agt-1"]'), { after: seen + 1 })).data);
    expect(left.upserted.map((a) => a.subscriberID)).not.toContain('agt-1');
    expect(left.totals).toEqual({ offline: 0, inactive: 0, available: 0, ringing: 1, onCall: 0 });

    // A stream that did not ask carries no agent events.
    await plain.next((e) => e.event === 'changes');
    expect(plain.events.map((e) => e.event)).not.toContain('agents');
    expect(plain.events.map((e) => e.event)).not.toContain('agent-changes');
  });

  it('resumes the board from Last-Event-ID with the agent changes since, and sends it whole when it cannot', async () => {
    const phone = await staff();
    const first = await openWithAgents('pbx');
    await first.next((e) => e.event === 'agents');
    await first.next((e) => e.event === 'snapshot');
    const last = first.events.at(-1) as { id: string };
    first.close();

    phone.subscribers = [{ ...(phone.subscribers[0] as (typeof phone.subscribers)[number]), registered: false }, ...phone.subscribers.slice(1)];
    t.clock.advance(1000);
    await t.app.providers.syncAll();

    const resumed = await openWithAgents('pbx', { 'last-event-id': last.id });
    const change = changesOf((await resumed.next((e) => e.event === 'agent-changes')).data);
    expect(change.upserted.map((a) => [a.subscriberID, a.state])).toEqual([['agt-1', 'offline']]);
    expect(resumed.events.map((e) => e.event)).not.toContain('agents');
    expect(resumed.events.map((e) => e.event)).not.toContain('snapshot');

    // A cursor from before the board's log (another instance's, say): the whole board again.
    const elsewhere = `c1.${Buffer.from(JSON.stringify({ pbx: 'other.3', 'agents:pbx': 'other.2' })).toString('base64url')}`;
    const fresh = await openWithAgents('pbx', { 'last-event-id': elsewhere });
    expect(agentsOf((await fresh.next((e) => e.event === 'agents')).data).agents.map((a) => a.state)).toEqual(['offline', 'available']);
  });

  it('refuses an include it does not know, naming it', async () => {
    await start();
    const res = await t.as(tokens.acmeAll, { method: 'GET', url: `${streamPath('pbx')}&include=agents,wallboard` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
    expect(res.json()).toMatchObject({ errors: [{ field: 'include', message: 'names "wallboard", which is not one of "agents", "queues"' }] });
  });
});
