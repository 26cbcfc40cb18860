import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listCallsResponseSchema } from '../../contract/call-record.js';
import { paths, SNAPSHOT_AGE_HEADER } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import { buildTestApp, T0, tokens, type TestApp } from '../test-support/test-app.js';
import { createTestHistory } from '../test-support/test-history.js';
import { providerCall } from '../test-support/provider-call.js';

const acmePbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const url = paths.listCalls(acmePbx);

const call = providerCall;

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.app.close();
});

const list = (query = '', headers: Record<string, string> = {}) =>
  t.as(tokens.acmeAll, { method: 'GET', url: `${url}${query}`, headers });

describe('GET list calls', () => {
  it('answers the provider calls with the spec fields, oldest first, totalCalls = calls.length', async () => {
    t.phone('acme/support/pbx').calls = [
      call('c2', T0 - 5_000, { answeredAt: T0 - 1_000, remoteName: 'Ada Lovelace', subscriberID: 's1', subscriberExtension: '104' }),
      call('c1', T0 - 60_000, { isOutbound: true }),
      call('c3', T0 - 5_000),
    ];
    await t.app.providers.syncAll();
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = listCallsResponseSchema.parse(res.json());
    expect(body.calls.map((c) => c.callID)).toEqual(['c1', 'c2', 'c3']);
    expect(body.totalCalls).toBe(3);
    expect(body).not.toHaveProperty('fromDate');
    expect(body.calls[1]).toEqual({
      callID: 'c2',
      providerCallID: 'c2@pbx',
      providerID: 'pbx',
      providerName: 'Acme PBX',
      isOutbound: false,
      isMissedCall: false,
      remoteNumber: '15555550100',
      remoteName: 'Ada Lovelace',
      startedAt: '2026-11-22T08:59:55.000Z',
      answeredAt: '2026-11-22T08:59:59.000Z',
      subscriberID: 's1',
      subscriberExtension: '104',
    });
    expect(Object.keys(body.calls[0] ?? {})).not.toContain('answeredAt');
  });

  it('keeps a call that left the provider listed as ended for keepEndedMs, missed when inbound and never answered, and in the journal', async () => {
    t.phone('acme/support/pbx').calls = [call('gave-up', T0 - 20_000), call('talked', T0 - 30_000, { answeredAt: T0 - 25_000 })];
    await t.app.providers.syncAll();
    t.phone('acme/support/pbx').calls = [];
    t.clock.advance(1000);
    await t.app.providers.syncAll();
    const ended = listCallsResponseSchema.parse((await list()).json()).calls.map((c) => [c.callID, c.endedAt, c.isMissedCall]);
    expect(ended).toEqual([
      ['talked', '2026-11-22T09:00:01.000Z', false],
      ['gave-up', '2026-11-22T09:00:01.000Z', true],
    ]);
    const journaled = listCallsResponseSchema.parse((await list('?fromDate=2026-11-22T08:00:00Z')).json()).calls;
    expect(journaled.map((c) => [c.callID, c.endedAt, c.isMissedCall])).toEqual(ended);

    t.clock.advance(119_999);
    await t.app.providers.syncAll();
    expect(listCallsResponseSchema.parse((await list()).json()).totalCalls).toBe(2);
    t.clock.advance(1);
    await t.app.providers.syncAll();
    expect(listCallsResponseSchema.parse((await list()).json()).totalCalls).toBe(0);
  });

  it('never marks an outbound call as missed', async () => {
    t.phone('acme/support/pbx').calls = [call('c1', T0, { isOutbound: true, isMissedCall: true })];
    await t.app.providers.syncAll();
    expect((await list()).json().calls[0].isMissedCall).toBe(false);
  });

  it('lists only the calls of the provider and application in the path', async () => {
    t.phone('acme/support/pbx').calls = [call('mine', T0)];
    t.phone('acme/support/trunk').calls = [call('other-provider', T0)];
    t.phone('acme/sales/pbx').calls = [call('other-application', T0)];
    t.phone('globex/support/pbx').calls = [call('other-account', T0)];
    await t.app.providers.syncAll();
    expect((await list()).json().calls.map((c: { callID: string }) => c.callID)).toEqual(['mine']);
    const trunk = await t.as(tokens.acmeAll, { method: 'GET', url: paths.listCalls({ ...acmePbx, providerID: 'trunk' }) });
    expect(trunk.json().calls.map((c: { callID: string }) => c.callID)).toEqual(['other-provider']);
  });

  it('serves every reader from one upstream poll per sync', async () => {
    // 200 readers sharing one token, all in flight at once: past the default cap of a token's requests in flight.
    await t.app.close();
    t = await buildTestApp({ limits: { requestsPerToken: 200 } });
    const phone = t.phone('acme/support/pbx');
    phone.calls = [call('c1', T0)];
    await t.app.providers.syncAll();
    const before = phone.listRequests;
    const answers = await Promise.all(Array.from({ length: 200 }, () => list()));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect(phone.listRequests).toBe(before);
  });

  it('waits for the first sync instead of failing right after start-up', async () => {
    t.phone('acme/support/pbx').calls = [call('c1', T0)];
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json().totalCalls).toBe(1);
  });

  it('reports the snapshot age and keeps serving the last snapshot while the provider fails', async () => {
    const phone = t.phone('acme/support/pbx');
    phone.calls = [call('c1', T0)];
    await t.app.providers.syncAll();
    phone.failure = 'unavailable';
    t.clock.advance(4_000);
    await t.app.providers.syncAll();
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.headers[SNAPSHOT_AGE_HEADER]).toBe('4000');
    expect(res.json().totalCalls).toBe(1);
  });

  it('answers 503 provider_unavailable with Retry-After once the snapshot is older than the limit', async () => {
    const phone = t.phone('acme/support/pbx');
    await t.app.providers.syncAll();
    phone.failure = 'error';
    t.clock.advance(30_001);
    await t.app.providers.syncAll();
    const res = await list();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    const problem = problemSchema.parse(res.json());
    expect(problem.code).toBe('provider_unavailable');
    expect(problem.detail).toMatch(/Acme PBX has not delivered its calls for 30 s: scripted error/);

    phone.failure = null;
    await t.app.providers.syncAll();
    expect((await list()).statusCode).toBe(200);
  });

  it('answers 503 when the provider never answered', async () => {
    t.phone('acme/support/pbx').failure = 'unavailable';
    const res = await list();
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('provider_unavailable');
  });
});

describe('caching and compression', () => {
  beforeEach(async () => {
    t.phone('acme/support/pbx').calls = Array.from({ length: 50 }, (_, i) => call(`c${i}`, T0 - i * 1000));
    await t.app.providers.syncAll();
  });

  it('carries a strong ETag and answers 304 to If-None-Match, also across unchanged syncs', async () => {
    const first = await list();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    t.clock.advance(1000);
    await t.app.providers.syncAll();
    const again = await list('', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers[SNAPSHOT_AGE_HEADER]).toBe('0');
    expect((await list('', { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
  });

  it('changes the ETag when the calls change', async () => {
    const etag = (await list()).headers.etag as string;
    t.phone('acme/support/pbx').calls.pop();
    await t.app.providers.syncAll();
    const res = await list('', { 'if-none-match': etag });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).not.toBe(etag);
  });

  it('gzips when the client accepts it, and not when it refuses it', async () => {
    const plain = await list();
    const zipped = await list('', { 'accept-encoding': 'br;q=1, gzip;q=0.8' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    expect((await list('', { 'accept-encoding': 'gzip;q=0' })).headers['content-encoding']).toBeUndefined();
  });
});

describe('date windows', () => {
  beforeEach(async () => {
    const phone = t.phone('acme/support/pbx');
    phone.calls = [call('old', T0 - 3 * 3600_000), call('recent', T0 - 600_000), call('live', T0 - 10_000)];
    await t.app.providers.syncAll();
    phone.calls = phone.calls.filter((c) => c.callID === 'live');
    t.clock.advance(1000);
    await t.app.providers.syncAll();
  });

  it('lists calls live at any moment of the window, ended ones included, and echoes the window', async () => {
    const res = await list('?fromDate=2026-11-22T08:55:00Z&toDate=2026-11-22T09:00:30.000%2B00:00');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.calls.map((c: { callID: string }) => c.callID)).toEqual(['old', 'recent', 'live']);
    expect(body.fromDate).toBe('2026-11-22T08:55:00.000Z');
    expect(body.toDate).toBe('2026-11-22T09:00:30.000Z');
    expect(body.totalCalls).toBe(3);
    const vanished = body.calls.find((c: { callID: string }) => c.callID === 'recent');
    expect(vanished.endedAt).toBe('2026-11-22T09:00:01.000Z');
  });

  it('lists only the missed calls of the window with isMissedCall=true, and the others with false', async () => {
    const phone = t.phone('acme/support/pbx');
    phone.calls = [
      ...phone.calls,
      call('missed', T0 - 5_000, { isMissedCall: true, endedAt: T0 - 1_000 }),
      call('outbound-unanswered', T0 - 4_000, { isOutbound: true, isMissedCall: true, endedAt: T0 - 2_000 }),
    ];
    await t.app.providers.syncAll();
    const window = '?fromDate=2026-11-22T08:55:00Z';
    const all = (await list(window)).json();
    const missed = (await list(`${window}&isMissedCall=true`)).json();
    const others = (await list(`${window}&isMissedCall=false`)).json();
    // The calls that left the provider unanswered ('old', 'recent') were ended by the service as missed.
    type Listed = { callID: string; isMissedCall: boolean };
    expect(missed.calls.map((c: Listed) => c.callID)).toEqual(['old', 'recent', 'missed']);
    expect(missed.totalCalls).toBe(3);
    expect(missed.calls).toEqual(all.calls.filter((c: Listed) => c.isMissedCall));
    expect(others.calls.map((c: Listed) => c.callID)).toEqual(['live', 'outbound-unanswered']);
    expect(others.calls).toEqual(all.calls.filter((c: Listed) => !c.isMissedCall));
  });

  it('excludes calls outside the window', async () => {
    const body = (await list('?fromDate=2026-11-22T09:00:05Z&toDate=2026-11-22T09:00:06Z')).json();
    expect(body.calls.map((c: { callID: string }) => c.callID)).toEqual(['live']);
  });

  it('defaults a missing toDate to now and a missing fromDate to 24 hours before toDate', async () => {
    const onlyFrom = (await list('?fromDate=2026-11-22T08:00:00Z')).json();
    expect(onlyFrom.toDate).toBe('2026-11-22T09:00:01.000Z');
    const onlyTo = (await list('?toDate=2026-11-22')).json();
    expect(onlyTo.fromDate).toBe('2026-11-21T00:00:00.000Z');
    expect(onlyTo.toDate).toBe('2026-11-22T00:00:00.000Z');
  });

  it.each([
    ['?fromDate=yesterday', 'fromDate'],
    ['?toDate=2026-02-30T00:00:00Z', 'toDate'],
    ['?fromDate=2026-11-22T10:00:00Z&toDate=2026-11-22T09:00:00Z', 'fromDate'],
    ['?fromDate=2026-11-22&fromDate=2026-11-21', 'fromDate'],
    ['?limit=5', 'limit'],
    ['?fromDate=2026-11-22T08:00:00Z&isMissedCall=yes', 'isMissedCall'],
    ['?isMissedCall=true', 'isMissedCall'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    const problem = problemSchema.parse(res.json());
    expect(problem.code).toBe('invalid_request');
    expect(problem.errors?.map((e) => e.field)).toContain(field);
    expect(problem.detail).toContain(field);
  });
});

describe('date windows from the journal', () => {
  it('refuses a window longer than 31 days with a 400 naming fromDate', async () => {
    const res = await list('?fromDate=2026-10-01&toDate=2026-11-22');
    expect(res.statusCode).toBe(400);
    const problem = problemSchema.parse(res.json());
    expect(problem.errors?.map((e) => e.field)).toEqual(['fromDate']);
    expect(problem.detail).toMatch(/longer than 31 days/);
  });

  it('refuses a window holding more than 10,000 calls, and answers one holding exactly 10,000', async () => {
    const calls = Array.from({ length: 10_001 }, (_, i) => call(`c${String(i).padStart(5, '0')}`, T0 - 3_600_000 + i, { endedAt: T0 - 60_000 }));
    await t.store.importCalls(acmePbx, calls);
    const full = await list(`?fromDate=2026-11-22T08:00:00.000Z&toDate=${encodeURIComponent(new Date(T0 - 3_600_000 + 9_999).toISOString())}`);
    expect(full.statusCode).toBe(200);
    expect(full.json().totalCalls).toBe(10_000);
    const over = await list('?fromDate=2026-11-22T08:00:00Z');
    expect(over.statusCode).toBe(400);
    const problem = problemSchema.parse(over.json());
    expect(problem.detail).toMatch(/More than 10000 calls/);
    expect(problem.errors?.map((e) => e.field)).toEqual(['fromDate']);
  });

  it('after a restart, still lists the calls that had just ended, and ends those that left while it was down at its last sync', async () => {
    const history = await createTestHistory();
    try {
      const before = await buildTestApp({}, { history });
      const talking = call('talking', T0 - 30_000, { answeredAt: T0 - 25_000 });
      before.phone('acme/support/pbx').calls = [call('gave-up', T0 - 20_000), talking, call('stays', T0 - 10_000)];
      await before.app.providers.syncAll();
      before.clock.advance(1000);
      before.phone('acme/support/pbx').calls = [talking, call('stays', T0 - 10_000)];
      await before.app.providers.syncAll();
      await before.app.close();

      // Down for half a minute; the talking call ended meanwhile.
      const after = await buildTestApp({}, { history });
      after.clock.advance(30_000);
      after.phone('acme/support/pbx').calls = [call('stays', T0 - 10_000)];
      await after.app.providers.syncAll();
      const res = await after.as(tokens.acmeAll, { method: 'GET', url });
      await after.app.close();
      expect(listCallsResponseSchema.parse(res.json()).calls.map((c) => [c.callID, c.endedAt ?? null, c.isMissedCall])).toEqual([
        ['talking', '2026-11-22T09:00:01.000Z', false],
        ['gave-up', '2026-11-22T09:00:01.000Z', true],
        ['stays', null, false],
      ]);
    } finally {
      await history.dispose();
    }
  });

  it('still answers after a restart: the journal outlives the process, and ghosts stay closed', async () => {
    const history = await createTestHistory();
    try {
      const before = await buildTestApp({}, { history });
      before.phone('acme/support/pbx').calls = [call('ghost', T0 - 60_000), call('ends', T0 - 30_000), call('stays', T0 - 10_000)];
      await before.app.providers.syncAll();
      before.clock.advance(1000);
      before.phone('acme/support/pbx').calls = [call('ends', T0 - 30_000, { endedAt: T0 + 500 }), call('stays', T0 - 10_000)];
      await before.app.providers.syncAll();
      await before.app.close();

      const after = await buildTestApp({}, { history });
      after.clock.advance(60_000);
      after.phone('acme/support/pbx').calls = [call('stays', T0 - 10_000)];
      const res = await after.as(tokens.acmeAll, { method: 'GET', url: `${url}?fromDate=2026-11-22T08:00:00Z` });
      await after.app.close();
      expect(res.json().calls).toEqual([
        expect.objectContaining({ callID: 'ghost', endedAt: '2026-11-22T09:00:01.000Z' }),
        expect.objectContaining({ callID: 'ends', endedAt: '2026-11-22T09:00:00.500Z' }),
        expect.not.objectContaining({ endedAt: expect.anything() }),
      ]);
    } finally {
      await history.dispose();
    }
  });
});

describe("one tenant's heavy lists and another tenant's live view", () => {
  const globexUrl = paths.listCalls({ accountID: 'globex', applicationID: 'support', providerID: 'pbx' });
  const week = `?fromDate=${encodeURIComponent(new Date(T0 - 7 * 86_400_000).toISOString())}`;
  /** A busy week in acme's journal: 9,000 calls of three minutes, spread evenly. */
  const importBusyWeek = (app: TestApp) =>
    app.store.importCalls(
      acmePbx,
      Array.from({ length: 9_000 }, (_, i) => {
        const startedAt = T0 - 7 * 86_400_000 + i * 67_000;
        return call(`w${String(i).padStart(5, '0')}`, startedAt, { endedAt: startedAt + 180_000 });
      }),
    );

  it("answers another tenant's live list while a week-long window list is still being read", async () => {
    await importBusyWeek(t);
    t.phone('globex/support/pbx').calls = [call('g1', T0 - 30_000)];
    await t.app.providers.syncAll();
    const answered: string[] = [];
    const heavy = list(week).then((res) => (answered.push('acme week'), res));
    // Asked once the week is being read: read on the event loop, it would hold this timer back too.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const live = t.as(tokens.globex, { method: 'GET', url: globexUrl }).then((res) => (answered.push('globex live'), res));
    const [heavyRes, liveRes] = await Promise.all([heavy, live]);
    expect(liveRes.json().totalCalls).toBe(1);
    expect(heavyRes.json().totalCalls).toBe(9_000);
    expect(answered).toEqual(['globex live', 'acme week']);
  });

  it("answers a token past its heavy-query cap 429 too_many_heavy_queries, and never another token's", async () => {
    const capped = await buildTestApp({ limits: { heavyQueriesPerToken: 2 } });
    try {
      await importBusyWeek(capped);
      await capped.app.providers.syncAll();
      const weekList = (token: string, target = url) => capped.as(token, { method: 'GET', url: `${target}${week}` });
      const [acme, globex] = await Promise.all([
        Promise.all(Array.from({ length: 5 }, () => weekList(tokens.acmeAll))),
        weekList(tokens.globex, globexUrl),
      ]);
      expect(acme.map((res) => res.statusCode).sort()).toEqual([200, 200, 429, 429, 429]);
      const refused = acme.find((res) => res.statusCode === 429);
      expect(refused?.headers['retry-after']).toBe('1');
      const problem = problemSchema.parse(refused?.json());
      expect(problem.code).toBe('too_many_heavy_queries');
      expect(problem.detail).toMatch(/already has 2 heavy queries/);
      expect(globex.statusCode).toBe(200);
      // The slots come back as the reads end.
      expect((await weekList(tokens.acmeAll)).statusCode).toBe(200);
    } finally {
      await capped.app.close();
    }
  });
});
