import { afterEach, describe, expect, it } from 'vitest';
import { listAgentsResponseSchema } from '../../contract/agents.js';
import { paths } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import { providerCall as call } from '../test-support/provider-call.js';
import { subscriber } from '../test-support/scripted-phone-system.js';
import { buildTestApp, T0, tokens, type TestApp } from '../test-support/test-app.js';

const pbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const S = 1000;
const MIN = 60 * S;
const iso = (ms: number) => new Date(ms).toISOString();
const of = (id: string) => ({ subscriberID: id, subscriberFirstName: id.toUpperCase(), subscriberExtension: id.slice(-3) });

let t: TestApp;
afterEach(async () => {
  await t.app.close();
});

const agents = async (token: string = tokens.acmeAll) => {
  const res = await t.as(token, { method: 'GET', url: paths.agents(pbx) });
  expect(res.statusCode, res.body).toBe(200);
  return listAgentsResponseSchema.parse(res.json());
};

describe('GET agents', () => {
  it("derives each subscriber's state from the subscribers and the live calls, with today's figures from the journal", async () => {
    // T0 is 09:00 UTC, 10:00 in Berlin: the center's day began at 23:00 UTC.
    t = await buildTestApp({ timeZone: 'Europe/Berlin' });
    const dayStart = Date.parse('2026-11-21T23:00:00.000Z');
    const phone = t.phone('acme/support/pbx');
    phone.subscribers = [
      subscriber({ providerSubscriberID: 'agt-101', firstName: 'Ada', lastName: 'Byron', extension: '101' }),
      subscriber({ providerSubscriberID: 'agt-102', firstName: 'Bo', lastName: 'Chen', extension: '102' }),
      subscriber({ providerSubscriberID: 'agt-103', firstName: 'Cy', lastName: 'Dunn', extension: '103', registered: false }),
      subscriber({ providerSubscriberID: 'agt-104', firstName: 'Di', lastName: 'Eck', extension: '104', active: false }),
      subscriber({ providerSubscriberID: 'agt-105', firstName: 'Ed', lastName: 'Fox', extension: '105' }),
    ];
    // Yesterday's call (before the center's midnight) is not today's; two today, one of them missed.
    await t.store.importCalls(pbx, [
      call('yesterday', dayStart - 10 * MIN, { ...of('agt-101'), answeredAt: dayStart - 9 * MIN, endedAt: dayStart - 5 * MIN }),
      call('early', dayStart + 60 * MIN, { ...of('agt-101'), answeredAt: dayStart + 61 * MIN, endedAt: dayStart + 63 * MIN }),
      call('missed', dayStart + 90 * MIN, { ...of('agt-101'), isMissedCall: true, endedAt: dayStart + 90 * MIN + 20 * S }),
    ]);
    phone.calls = [
      call('ringing', T0 - 5 * S, { ...of('agt-101'), remoteName: 'Customer One' }),
      call('talking', T0 - 2 * MIN, { ...of('agt-102'), answeredAt: T0 - 110 * S, remoteNumber: '15555550199' }),
    ];
    await t.app.providers.syncAll();

    const board = await agents();
    expect(board.dayStart).toBe(iso(dayStart));
    expect(board.totals).toEqual({ offline: 1, inactive: 1, available: 1, ringing: 1, onCall: 1 });
    expect(board.agents.map((a) => [a.subscriberID, a.state])).toEqual([
      ['agt-101', 'ringing'],
      ['agt-102', 'on-call'],
      ['agt-103', 'offline'],
      ['agt-104', 'inactive'],
      ['agt-105', 'available'],
    ]);
    expect(board.agents[0]).toEqual({
      subscriberID: 'agt-101',
      firstName: 'Ada',
      lastName: 'Byron',
      extension: '101',
      state: 'ringing',
      since: iso(T0 - 5 * S),
      callID: 'ringing',
      remoteNumber: '15555550100',
      remoteName: 'Customer One',
      isOutbound: false,
      // Today's two, and the live one ringing now (the journal holds it since the sync).
      callsToday: 3,
      missedToday: 1,
      talkSecondsToday: 120,
    });
    expect(board.agents[1]).toMatchObject({ state: 'on-call', since: iso(T0 - 110 * S), remoteNumber: '15555550199', callsToday: 1, talkSecondsToday: 110 });

    // The ringing call is answered, then ends: the agent is on it from the answer, then free from its end.
    phone.calls[0] = { ...(phone.calls[0] as (typeof phone.calls)[number]), answeredAt: T0 + 2 * S };
    t.clock.advance(3 * S);
    await t.app.providers.syncAll();
    expect((await agents()).agents[0]).toMatchObject({ state: 'on-call', since: iso(T0 + 2 * S), callID: 'ringing' });
    phone.calls[0] = { ...(phone.calls[0] as (typeof phone.calls)[number]), endedAt: T0 + 65 * S };
    t.clock.advance(63 * S);
    await t.app.providers.syncAll();
    const free = (await agents()).agents[0];
    expect(free).toMatchObject({ state: 'available', since: iso(T0 + 65 * S), talkSecondsToday: 183 });
    expect(free).not.toHaveProperty('callID');
  });

  it("is scoped like the list: another application's token sees no such provider, a token without calls:read is refused", async () => {
    t = await buildTestApp();
    const other = await t.as(tokens.globex, { method: 'GET', url: paths.agents(pbx) });
    expect(other.statusCode).toBe(404);
    const writeOnly = await t.as(tokens.acmeSalesWrite, { method: 'GET', url: paths.agents({ ...pbx, applicationID: 'sales' }) });
    expect(writeOnly.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: paths.agents(pbx) })).statusCode).toBe(401);
  });

  it('answers 503 naming the provider while it has never listed its subscribers, and serves the board once it does', async () => {
    t = await buildTestApp();
    const phone = t.phone('acme/support/pbx');
    phone.failure = 'unavailable';
    const res = await t.as(tokens.acmeAll, { method: 'GET', url: paths.agents(pbx) });
    expect(res.statusCode).toBe(503);
    const problem = problemSchema.parse(res.json());
    expect(problem.code).toBe('provider_unavailable');
    expect(problem.detail).toMatch(/Acme PBX has no agent board to serve: it has not listed its subscribers yet: scripted unavailable/);
    phone.failure = null;
    phone.subscribers = [subscriber({ providerSubscriberID: 'agt-1' })];
    await t.app.providers.syncAll();
    expect((await agents()).agents.map((a) => a.state)).toEqual(['available']);
  });

  it('keeps serving the last subscribers while a list fails, until they are older than the provider may go stale', async () => {
    t = await buildTestApp();
    const phone = t.phone('acme/support/pbx');
    phone.subscribers = [subscriber({ providerSubscriberID: 'agt-1' })];
    await t.app.providers.syncAll();
    phone.failure = 'error';
    t.clock.advance(20 * S);
    await t.app.providers.syncAll();
    expect((await agents()).agents).toHaveLength(1);
    t.clock.advance(11 * S);
    const res = await t.as(tokens.acmeAll, { method: 'GET', url: paths.agents(pbx) });
    expect(res.statusCode).toBe(503);
    expect(problemSchema.parse(res.json()).detail).toMatch(/subscribers are 31 s old: scripted error/);
  });
});
