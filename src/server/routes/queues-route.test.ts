import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import { queueChangesEventSchema, queuesResponseSchema, queuesSnapshotEventSchema, type QueuePeriod, type QueuesResponse } from '../../contract/queues.js';
import { openStream } from '../test-support/stream-client.js';
import { serviceLevelsAnswerSchema } from '../../contract/service-levels.js';
import type { ServiceConfigInput } from '../config/config-schema.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { agentsFor } from '../queues/erlang.js';
import { providerCall } from '../test-support/provider-call.js';
import { subscriber } from '../test-support/scripted-phone-system.js';
import { buildTestApp, T0, testConfig, tokens, type TestApp } from '../test-support/test-app.js';
import { createTestHistory } from '../test-support/test-history.js';

const pbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const S = 1000;
const MIN = 60 * S;
// T0 is 09:00 UTC; the service's zone is UTC.
const DAY_START = Date.parse('2026-11-22T00:00:00.000Z');

const QUEUES = [
  { id: 'support', name: 'Support', numbers: ['+18005550100'], members: ['agt-101', 'agt-102'], answerWithinSeconds: 20, shortAbandonSeconds: 5, serviceLevelTarget: 0.8 },
  { id: 'sales', name: 'Sales', providerQueues: ['sales-q'], members: ['agt-102', 'agt-103', 'agt-gone'], answerWithinSeconds: 10, shortAbandonSeconds: 3, serviceLevelTarget: 0.9 },
];
const PARAMETERS: Record<string, { aw: number; sa: number }> = { support: { aw: 20 * S, sa: 5 * S }, sales: { aw: 10 * S, sa: 3 * S }, '': { aw: 20 * S, sa: 5 * S } };

const withQueues = (): Partial<ServiceConfigInput> => {
  const config = testConfig();
  const provider = config.accounts[0]!.applications[0]!.providers[0]! as Record<string, unknown>;
  provider.queues = QUEUES;
  return { accounts: config.accounts };
};

/** A small deterministic generator, so the day's calls are many and varied but the same at every run. */
const generator = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

/** Calls of the day (and of yesterday), some long over, some of the last half hour, in each queue and none. */
const dayOfCalls = (): ProviderCall[] => {
  const random = generator(7);
  const calls: ProviderCall[] = [];
  const queueOf = (n: number) => (n < 0.45 ? { queueID: 'support', queueName: 'Support' } : n < 0.8 ? { queueID: 'sales', queueName: 'Sales' } : {});
  for (let i = 0; i < 160; i += 1) {
    // From 90 minutes before midnight to 2 minutes before T0: the last ones fall in the 15- and 30-minute windows.
    const startedAt = DAY_START - 90 * MIN + Math.floor(random() * (T0 - 2 * MIN - (DAY_START - 90 * MIN)));
    const isOutbound = random() < 0.15;
    const outcome = random();
    const wait = Math.floor(random() * 40 * S);
    const call: ProviderCall = providerCall(`past-${i}`, startedAt, { isOutbound, ...(isOutbound ? {} : queueOf(random())) });
    if (outcome < 0.7) {
      call.answeredAt = startedAt + wait;
      call.endedAt = call.answeredAt + Math.floor(random() * 6 * MIN) + S;
    } else {
      call.endedAt = startedAt + Math.floor(random() * 12 * S);
      call.isMissedCall = !isOutbound;
    }
    if (call.endedAt > T0) call.endedAt = T0 - S;
    calls.push(call);
  }
  return calls;
};

const liveCalls = (): ProviderCall[] => [
  providerCall('wait-support-1', T0 - 95 * S, { queueID: 'support', queueName: 'Support', calledNumber: '18005550100' }),
  providerCall('wait-support-2', T0 - 30 * S, { queueID: 'support', queueName: 'Support' }),
  providerCall('talk-support', T0 - 3 * MIN, { queueID: 'support', queueName: 'Support', answeredAt: T0 - 170 * S, subscriberID: 'agt-101' }),
  providerCall('wait-sales', T0 - 12 * S, { queueID: 'sales', queueName: 'Sales' }),
  providerCall('talk-sales', T0 - 4 * MIN, { queueID: 'sales', queueName: 'Sales', answeredAt: T0 - 235 * S, subscriberID: 'agt-102' }),
  providerCall('wait-none', T0 - 50 * S),
  providerCall('out-live', T0 - 60 * S, { isOutbound: true, answeredAt: T0 - 50 * S, subscriberID: 'agt-104' }),
];

const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);
const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.round(ms / 100) / 10);

/** The figures of a stretch, straight from their definitions over the list of calls. */
const period = (calls: readonly ProviderCall[], key: string, from: number, to: number): QueuePeriod => {
  const { aw, sa } = PARAMETERS[key]!;
  const offered = calls.filter((c) => !c.isOutbound && (c.queueID ?? '') === key && c.startedAt >= from && c.startedAt <= to);
  const answered = offered.filter((c) => c.answeredAt !== undefined);
  const gaveUp = offered.filter((c) => c.answeredAt === undefined && c.endedAt !== undefined);
  const abandoned = gaveUp.filter((c) => c.endedAt! - c.startedAt >= sa).length;
  const within = answered.filter((c) => c.answeredAt! - c.startedAt <= aw).length;
  const waits = answered.map((c) => c.answeredAt! - c.startedAt);
  const talks = answered.filter((c) => c.endedAt !== undefined).map((c) => c.endedAt! - c.answeredAt!);
  const mean = (values: number[]) => (values.length === 0 ? null : seconds(values.reduce((a, b) => a + b, 0) / values.length));
  return {
    offered: offered.length,
    answered: answered.length,
    answeredWithin: within,
    shortAbandoned: gaveUp.length - abandoned,
    abandoned,
    waiting: offered.filter((c) => c.answeredAt === undefined && c.endedAt === undefined).length,
    serviceLevel: share(within, answered.length + abandoned),
    abandonRate: share(abandoned, answered.length + abandoned),
    averageAnswerSeconds: mean(waits),
    longestAnswerSeconds: waits.length === 0 ? null : seconds(Math.max(...waits)),
    averageTalkSeconds: mean(talks),
  };
};

const needed = (calls: readonly ProviderCall[], queue: (typeof QUEUES)[number], now: number, todayTalk: number | null) => {
  const from = now - 30 * MIN;
  const mine = calls.filter((c) => !c.isOutbound && c.queueID === queue.id);
  const offered = mine.filter((c) => c.startedAt >= from && c.startedAt <= now).length;
  const handled = mine.filter((c) => c.answeredAt !== undefined && c.endedAt !== undefined && c.endedAt >= from && c.endedAt <= now);
  const aht = handled.length > 0 ? handled.reduce((sum, c) => sum + (c.endedAt! - c.answeredAt!), 0) / handled.length / 1000 : todayTalk;
  if (aht === null) return null;
  const result = agentsFor({ offeredPerHour: offered * 2, averageHandleSeconds: aht, answerWithinSeconds: queue.answerWithinSeconds, serviceLevelTarget: queue.serviceLevelTarget });
  return { ...result, offeredPerHour: offered * 2, averageHandleSeconds: Math.round(aht * 10) / 10, basedOnMinutes: 30 };
};

/** Every figure of the answer against its definition over `calls` (the journal's and the live ones, by call ID). */
const expectAgreement = (answer: QueuesResponse, calls: readonly ProviderCall[], agents: Record<string, Record<string, number>>) => {
  const now = Date.parse(answer.figuresAt);
  expect(answer.dayStart).toBe(new Date(DAY_START).toISOString());
  for (const queue of QUEUES) {
    const figures = answer.queues.find((q) => q.queueID === queue.id)!;
    const today = period(calls, queue.id, DAY_START, now);
    expect(figures.today, `${queue.id} today`).toEqual(today);
    expect(figures.last15Minutes, `${queue.id} last 15 minutes`).toEqual(period(calls, queue.id, now - 15 * MIN, now));
    const waiting = calls.filter((c) => c.queueID === queue.id && !c.isOutbound && c.answeredAt === undefined && c.endedAt === undefined);
    const oldest = Math.min(...waiting.map((c) => c.startedAt));
    expect(figures.now).toEqual({
      waiting: waiting.length,
      longestWaitSeconds: waiting.length === 0 ? 0 : Math.floor((now - oldest) / 1000),
      ...(waiting.length === 0 ? {} : { oldestWaitingSince: new Date(oldest).toISOString() }),
      talking: calls.filter((c) => c.queueID === queue.id && c.answeredAt !== undefined && c.endedAt === undefined).length,
      agents: agents[queue.id],
    });
    expect(figures.agentsNeeded, `${queue.id} agents needed`).toEqual(needed(calls, queue, now, today.averageTalkSeconds));
  }
  expect(answer.unqueued?.today).toEqual(period(calls, '', DAY_START, now));
};

const merged = (journal: readonly ProviderCall[], live: readonly ProviderCall[]) => {
  const byID = new Map(journal.map((call) => [call.callID, call]));
  for (const call of live) byID.set(call.callID, call);
  return [...byID.values()];
};

let t: TestApp;
afterEach(async () => {
  await t.app.close();
});

const read = async (app: TestApp = t): Promise<QueuesResponse> => {
  const res = await app.as(tokens.acmeAll, { method: 'GET', url: paths.queues(pbx) });
  expect(res.statusCode, res.body).toBe(200);
  return queuesResponseSchema.parse(res.json());
};

const SUBSCRIBERS = () => [
  subscriber({ providerSubscriberID: 'agt-101' }),
  subscriber({ providerSubscriberID: 'agt-102' }),
  subscriber({ providerSubscriberID: 'agt-103', registered: false }),
  subscriber({ providerSubscriberID: 'agt-104' }),
];

describe('GET queues', () => {
  it("agrees, figure by figure, with each queue's calls recomputed by the definitions, as calls change and after a restart", async () => {
    const history = await createTestHistory();
    t = await buildTestApp(withQueues(), { history });
    const past = dayOfCalls();
    await t.store.importCalls(pbx, past);
    const phone = t.phone('acme/support/pbx');
    phone.subscribers = SUBSCRIBERS();
    phone.calls = liveCalls();
    await t.app.providers.syncAll();
    const agents = {
      // agt-101 on a call; agt-102 on a call; agt-103 offline; agt-gone is no subscriber of the provider.
      support: { staffed: 2, available: 0, ringing: 0, onCall: 2, inactive: 0, offline: 0 },
      sales: { staffed: 1, available: 0, ringing: 0, onCall: 1, inactive: 0, offline: 1 },
    };
    const first = await read();
    expect(first.queues.map((q) => q.queueID)).toEqual(['support', 'sales']);
    expect(first.queues[1]).toMatchObject({ name: 'Sales', providerQueues: ['sales-q'], numbers: [], answerWithinSeconds: 10, serviceLevelTarget: 0.9 });
    expectAgreement(first, merged(past, phone.calls), agents);
    expect(first.queues[0]!.today.offered).toBeGreaterThan(40);

    // The journal's own answer for the same window and queue is the same.
    for (const queue of QUEUES) {
      const res = await t.as(tokens.acmeAll, {
        method: 'GET',
        url: `${paths.serviceLevels(pbx)}?queueID=${queue.id}&fromDate=${new Date(DAY_START).toISOString()}&toDate=${new Date(T0 + 1).toISOString()}&subscribers=omit`,
      });
      expect(res.statusCode, res.body).toBe(200);
      const answer = serviceLevelsAnswerSchema.parse(res.json());
      expect(answer.answerWithinSeconds).toBe(queue.answerWithinSeconds);
      const { offered, answered, answeredWithin, shortAbandoned, abandoned, waiting, serviceLevel, abandonRate, averageAnswerSeconds, longestAnswerSeconds, averageTalkSeconds } =
        answer.totals;
      expect({ offered, answered, answeredWithin, shortAbandoned, abandoned, waiting, serviceLevel, abandonRate, averageAnswerSeconds, longestAnswerSeconds, averageTalkSeconds }).toEqual(
        first.queues.find((q) => q.queueID === queue.id)!.today,
      );
    }

    // A minute on: a waiting caller is answered, a talk ends, a caller gives up, a new one rings.
    t.clock.advance(MIN);
    const [w1, w2, talk, ws, ts, wn, out] = phone.calls as [ProviderCall, ProviderCall, ProviderCall, ProviderCall, ProviderCall, ProviderCall, ProviderCall];
    phone.calls = [
      { ...w1, answeredAt: T0 + 10 * S, subscriberID: 'agt-101' },
      { ...w2, endedAt: T0 + 40 * S, isMissedCall: true },
      { ...talk, endedAt: T0 + 5 * S },
      ws,
      ts,
      wn,
      out,
      providerCall('new-sales', T0 + 50 * S, { queueID: 'sales', queueName: 'Sales' }),
    ];
    await t.app.providers.syncAll();
    const second = await read();
    expect(second.figuresAt).toBe(new Date(T0 + MIN).toISOString());
    expectAgreement(second, merged(past, phone.calls), agents);
    expect(second.queues[0]!.today.abandoned).toBe(first.queues[0]!.today.abandoned + 1);

    // A restart takes the day back from the journal: the same figures.
    await t.app.close();
    const restarted = await buildTestApp(withQueues(), { history });
    try {
      restarted.clock.set(T0 + MIN);
      const phoneAgain = restarted.phone('acme/support/pbx');
      phoneAgain.subscribers = SUBSCRIBERS();
      phoneAgain.calls = phone.calls;
      await restarted.app.providers.syncAll();
      expectAgreement(await read(restarted), merged(past, phone.calls), agents);
    } finally {
      await restarted.app.close();
      await history.dispose();
    }
    t = await buildTestApp();
  });

  it('filters the live list and the window list by queue, and names a queue the provider does not have', async () => {
    t = await buildTestApp(withQueues());
    const phone = t.phone('acme/support/pbx');
    phone.calls = liveCalls();
    await t.app.providers.syncAll();
    const ids = async (query: string) => {
      const res = await t.as(tokens.acmeAll, { method: 'GET', url: `${paths.listCalls(pbx)}?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { calls: { callID: string; queueID?: string; queueName?: string }[]; totalCalls: number };
      expect(body.totalCalls).toBe(body.calls.length);
      return body.calls.map((call) => call.callID);
    };
    expect(await ids('queueID=sales')).toEqual(['talk-sales', 'wait-sales']);
    expect(await ids('queueID=support,none')).toEqual(['talk-support', 'wait-support-1', 'out-live', 'wait-none', 'wait-support-2'].sort((a, b) => {
      const order = liveCalls().sort((x, y) => x.startedAt - y.startedAt).map((c) => c.callID);
      return order.indexOf(a) - order.indexOf(b);
    }));
    const from = new Date(T0 - 10 * MIN).toISOString();
    expect(await ids(`queueID=sales&fromDate=${from}`)).toEqual(['talk-sales', 'wait-sales']);
    const record = (await t.as(tokens.acmeAll, { method: 'GET', url: paths.listCalls(pbx) })).json().calls.find((c: { callID: string }) => c.callID === 'wait-support-1');
    expect(record).toMatchObject({ queueID: 'support', queueName: 'Support', calledNumber: '18005550100' });

    const unknown = await t.as(tokens.acmeAll, { method: 'GET', url: `${paths.listCalls(pbx)}?queueID=billing` });
    expect(unknown.statusCode).toBe(404);
    expect(problemSchema.parse(unknown.json()).detail).toBe('No queue "billing" in provider "pbx": its queues are support, sales.');
    const malformed = await t.as(tokens.acmeAll, { method: 'GET', url: `${paths.serviceLevels(pbx)}?queueID=Sales!` });
    expect(malformed.statusCode).toBe(400);
    expect(JSON.stringify(malformed.json())).toContain('queueID');
    const twice = await t.as(tokens.acmeAll, { method: 'GET', url: `${paths.listCalls(pbx)}?queueID=sales,sales` });
    expect(twice.statusCode).toBe(400);
  });

  it('answers an empty list of queues for a provider without any, and is scoped to what the token may see', async () => {
    t = await buildTestApp(withQueues());
    await t.app.providers.syncAll();
    const trunk = { ...pbx, providerID: 'trunk' };
    const res = await t.as(tokens.acmeAll, { method: 'GET', url: paths.queues(trunk) });
    expect(res.statusCode, res.body).toBe(200);
    expect(queuesResponseSchema.parse(res.json()).queues).toEqual([]);
    const other = await t.as(tokens.globex, { method: 'GET', url: paths.queues(pbx) });
    expect(other.statusCode).toBe(404);
    const writeOnly = await t.as(tokens.acmeSalesWrite, { method: 'GET', url: paths.queues({ ...pbx, applicationID: 'sales' }) });
    expect(writeOnly.statusCode).toBe(403);
  });
  it('scopes missed callers, concurrency and the agent board to the queues named', async () => {
    t = await buildTestApp(withQueues());
    const past = dayOfCalls();
    await t.store.importCalls(pbx, past);
    const phone = t.phone('acme/support/pbx');
    phone.subscribers = SUBSCRIBERS();
    phone.calls = liveCalls();
    await t.app.providers.syncAll();
    const window = `fromDate=${new Date(DAY_START).toISOString()}&toDate=${new Date(T0).toISOString()}`;
    const get = async (url: string) => {
      const res = await t.as(tokens.acmeAll, { method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const inWindow = merged(past, phone.calls).filter((c) => c.startedAt >= DAY_START && c.startedAt < T0);
    const missedOf = (key: string) =>
      inWindow
        .filter((c) => !c.isOutbound && (c.queueID ?? 'none') === key && c.answeredAt === undefined && c.endedAt !== undefined && c.endedAt - c.startedAt >= PARAMETERS[key === 'none' ? '' : key]!.sa)
        .map((c) => c.callID)
        .sort();
    for (const key of ['sales', 'none']) {
      const missed = (await get(`${paths.missedCalls(pbx)}?${window}&queueID=${key}`)) as { missedCalls: { callID: string }[]; shortAbandonSeconds: number };
      expect(missed.missedCalls.map((c) => c.callID).sort(), key).toEqual(missedOf(key));
    }
    // One queue's short-abandon threshold is the default.
    expect(((await get(`${paths.missedCalls(pbx)}?${window}&queueID=sales`)) as { shortAbandonSeconds: number }).shortAbandonSeconds).toBe(3);

    const concurrency = (await get(`${paths.concurrency(pbx)}?${window}&bucketSeconds=3600&queueID=support`)) as { buckets: { started: number }[] };
    expect(concurrency.buckets.reduce((sum, b) => sum + b.started, 0)).toBe(inWindow.filter((c) => c.queueID === 'support').length);

    const board = async (query: string) => ((await get(`${paths.agents(pbx)}?${query}`)) as { agents: { subscriberID: string }[]; totals: Record<string, number> });
    expect((await board('queueID=sales')).agents.map((a) => a.subscriberID)).toEqual(['agt-102', 'agt-103']);
    expect((await board('queueID=sales')).totals).toEqual({ offline: 1, inactive: 0, available: 0, ringing: 0, onCall: 1 });
    expect((await board('queueID=none')).agents.map((a) => a.subscriberID)).toEqual(['agt-104']);
    const unknown = await t.as(tokens.acmeAll, { method: 'GET', url: `${paths.agents(pbx)}?queueID=billing` });
    expect(unknown.statusCode).toBe(404);
  });
  it('counts the past the journal is filled with after the figures were first read', async () => {
    t = await buildTestApp(withQueues());
    const phone = t.phone('acme/support/pbx');
    phone.subscribers = SUBSCRIBERS();
    phone.calls = liveCalls();
    await t.app.providers.syncAll();
    const before = await read();
    expect(before.queues[0]!.today.offered).toBe(3);
    // The provider's past arrives in the journal, as the backfill writes it.
    const past = dayOfCalls();
    await t.store.importCalls(pbx, past);
    t.app.providers.get(pbx)!.pastWritten();
    t.clock.advance(S);
    expectAgreement(await read(), merged(past, phone.calls), {
      support: { staffed: 2, available: 0, ringing: 0, onCall: 2, inactive: 0, offline: 0 },
      sales: { staffed: 1, available: 0, ringing: 0, onCall: 1, inactive: 0, offline: 1 },
    });
  });
  it('rides on the change stream: the figures whole, then only the queues that changed, resumed from Last-Event-ID', async () => {
    t = await buildTestApp(withQueues());
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const phone = t.phone('acme/support/pbx');
    phone.subscribers = SUBSCRIBERS();
    phone.calls = liveCalls();
    await t.app.providers.syncAll();
    const url = `${base}${paths.callStream(pbx)}?providers=pbx&include=queues`;
    const stream = await openStream(url, { authorization: `Bearer ${tokens.acmeAll}` });
    try {
      const first = queuesSnapshotEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'queues')).data));
      expect(first.providerID).toBe('pbx');
      expect(first.queues.map((q) => [q.queueID, q.now.waiting])).toEqual([
        ['support', 2],
        ['sales', 1],
      ]);
      const seen = stream.events.length;
      // A sales caller is answered: only sales changes.
      t.clock.advance(2 * S);
      phone.calls = phone.calls.map((c) => (c.callID === 'wait-sales' ? { ...c, answeredAt: T0 + S, subscriberID: 'agt-102' } : c));
      await t.app.providers.syncAll();
      const change = queueChangesEventSchema.parse(JSON.parse((await stream.next((e) => e.event === 'queue-changes', { after: seen })).data));
      expect(change.upserted.map((q) => [q.queueID, q.now.waiting, q.now.talking])).toEqual([['sales', 0, 2]]);
      const last = stream.events.at(-1) as { id: string };
      stream.close();

      t.clock.advance(2 * S);
      phone.calls = phone.calls.filter((c) => c.callID !== 'wait-support-2');
      await t.app.providers.syncAll();
      const resumed = await openStream(url, { authorization: `Bearer ${tokens.acmeAll}`, 'last-event-id': last.id });
      try {
        const next = queueChangesEventSchema.parse(JSON.parse((await resumed.next((e) => e.event === 'queue-changes')).data));
        expect(next.upserted.map((q) => [q.queueID, q.now.waiting])).toEqual([['support', 1]]);
        expect(resumed.events.map((e) => e.event)).not.toContain('queues');
      } finally {
        resumed.close();
      }
    } finally {
      stream.close();
    }
  });
  it("groups a window's service level by queue, each with its own parameters, as the queues' day figures count them", async () => {
    t = await buildTestApp(withQueues());
    const past = dayOfCalls();
    await t.store.importCalls(pbx, [...past, providerCall('gone-queue', DAY_START + 60 * MIN, { queueID: 'retired', queueName: 'Retired', answeredAt: DAY_START + 61 * MIN, endedAt: DAY_START + 62 * MIN })]);
    const phone = t.phone('acme/support/pbx');
    phone.subscribers = SUBSCRIBERS();
    phone.calls = liveCalls();
    await t.app.providers.syncAll();
    const day = await read();
    const res = await t.as(tokens.acmeAll, {
      method: 'GET',
      url: `${paths.serviceLevels(pbx)}?fromDate=${new Date(DAY_START).toISOString()}&toDate=${new Date(T0 + 1).toISOString()}&bucketSeconds=3600&groupBy=queue&subscribers=omit`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = serviceLevelsAnswerSchema.parse(res.json());
    expect(answer.queues?.map((q) => [q.queueID, q.name, q.answerWithinSeconds, q.serviceLevelTarget])).toEqual([
      ['support', 'Support', 20, 0.8],
      ['sales', 'Sales', 10, 0.9],
      [null, 'No queue', 20, null],
      ['retired', 'retired', 20, null],
    ]);
    for (const queue of day.queues) {
      const grouped = answer.queues!.find((q) => q.queueID === queue.queueID)!;
      const { offered, answered, answeredWithin, shortAbandoned, abandoned, waiting, serviceLevel, abandonRate, averageAnswerSeconds, longestAnswerSeconds, averageTalkSeconds } = grouped.totals;
      expect({ offered, answered, answeredWithin, shortAbandoned, abandoned, waiting, serviceLevel, abandonRate, averageAnswerSeconds, longestAnswerSeconds, averageTalkSeconds }, queue.queueID).toEqual(queue.today);
      expect(grouped.buckets).toHaveLength(10);
      expect(grouped.buckets.reduce((sum, b) => sum + b.offered, 0)).toBe(queue.today.offered);
    }
    const narrowed = await t.as(tokens.acmeAll, {
      method: 'GET',
      url: `${paths.serviceLevels(pbx)}?fromDate=${new Date(DAY_START).toISOString()}&toDate=${new Date(T0 + 1).toISOString()}&bucketSeconds=3600&groupBy=queue&subscribers=omit&queueID=sales,none`,
    });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    const narrowedAnswer = serviceLevelsAnswerSchema.parse(narrowed.json());
    expect(narrowedAnswer.queues?.map((q) => q.queueID)).toEqual(['sales', null]);
    expect(narrowedAnswer.queues?.[0]).toEqual(answer.queues?.find((q) => q.queueID === 'sales'));
    const bad = await t.as(tokens.acmeAll, { method: 'GET', url: `${paths.serviceLevels(pbx)}?groupBy=subscriber` });
    expect(bad.statusCode).toBe(400);
  });
  it('counts a call that leaves the list as ended, where the provider lists ended calls for no time', async () => {
    const overrides = withQueues();
    Object.assign(overrides.accounts![0]!.applications[0]!.providers[0]!, { keepEndedMs: 0 });
    t = await buildTestApp(overrides);
    const phone = t.phone('acme/support/pbx');
    phone.subscribers = SUBSCRIBERS();
    phone.calls = liveCalls();
    await t.app.providers.syncAll();
    const before = await read();
    const sales = () => before.queues.find((q) => q.queueID === 'sales')!;
    expect(sales().now.waiting).toBe(1);
    t.clock.advance(20 * S);
    phone.calls = phone.calls.filter((c) => c.callID !== 'wait-sales');
    await t.app.providers.syncAll();
    const after = (await read()).queues.find((q) => q.queueID === 'sales')!;
    expect(after.now.waiting).toBe(0);
    expect(after.today.abandoned).toBe(sales().today.abandoned + 1);
    expect(after.today.waiting).toBe(0);
  });
});
