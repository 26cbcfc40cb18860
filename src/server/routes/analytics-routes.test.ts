import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { concurrencyResponseSchema, subscriberActivityResponseSchema } from '../../contract/analytics.js';
import { paths } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { buildTestApp, T0, tokens, type TestApp } from '../test-support/test-app.js';

const acmePbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const MIN = 60_000;
const call = (id: string, startedAt: number, extra: Partial<ProviderCall> = {}): ProviderCall => ({
  callID: id,
  providerCallID: id,
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15555550100',
  startedAt,
  ...extra,
});

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.app.close();
});

const get = (url: string, token: string = tokens.acmeAll) => t.as(token, { method: 'GET', url });
const concurrency = (query: string, token?: string) => get(`${paths.concurrency(acmePbx)}${query}`, token);

describe('GET concurrency', () => {
  it('answers buckets computed from the journal, live calls included', async () => {
    await t.store.importCalls(acmePbx, [
      call('a', T0 - 50 * MIN, { endedAt: T0 - 20 * MIN, subscriberID: 's1' }),
      call('b', T0 - 40 * MIN, { endedAt: T0 - 39 * MIN, isMissedCall: true }),
    ]);
    t.phone('acme/support/pbx').calls = [call('live', T0 - 5 * MIN, { isOutbound: true })];
    await t.app.providers.syncAll();
    const res = await concurrency('?fromDate=2026-11-22T08:00:00Z&toDate=2026-11-22T09:00:00Z&bucketSeconds=1800');
    expect(res.statusCode).toBe(200);
    expect(concurrencyResponseSchema.parse(res.json())).toEqual({
      fromDate: '2026-11-22T08:00:00.000Z',
      toDate: '2026-11-22T09:00:00.000Z',
      bucketSeconds: 1800,
      buckets: [
        { start: '2026-11-22T08:00:00.000Z', peak: 2, average: 0.7, peakInbound: 2, peakOutbound: 0, started: 2, missed: 1 },
        { start: '2026-11-22T08:30:00.000Z', peak: 1, average: 0.5, peakInbound: 1, peakOutbound: 1, started: 1, missed: 0 },
      ],
    });
  });

  it('chooses the bucket size from the window: at most 500 buckets', async () => {
    const day = concurrencyResponseSchema.parse((await concurrency('?fromDate=2026-11-21T09:00:00Z')).json());
    expect(day.bucketSeconds).toBe(300);
    expect(day.buckets).toHaveLength(288);
    const week = concurrencyResponseSchema.parse((await concurrency('?fromDate=2026-11-15T09:00:00Z')).json());
    expect(week.bucketSeconds).toBe(1800);
    expect(week.buckets).toHaveLength(336);
  });

  it.each([
    ['?fromDate=2026-10-01T00:00:00Z&toDate=2026-11-22T00:00:00Z', 'fromDate', /longer than 31 days/],
    ['?fromDate=2026-11-22T00:00:00Z&toDate=2026-11-22T00:00:00Z', 'fromDate', /empty/],
    ['?fromDate=2026-11-15T00:00:00Z&bucketSeconds=60', 'bucketSeconds', /more than 500 buckets/],
    ['?bucketSeconds=0', 'bucketSeconds', /whole number/],
    ['?toDate=soon', 'toDate', /ISO 8601/],
    ['?limit=5', 'limit', /not a known query parameter/],
  ])('refuses %s with a 400 naming %s', async (query, field, detail) => {
    const res = await concurrency(query);
    expect(res.statusCode).toBe(400);
    const problem = problemSchema.parse(res.json());
    expect(problem.code).toBe('invalid_request');
    expect(problem.errors?.map((e) => e.field)).toContain(field);
    expect(problem.detail).toMatch(detail);
  });

  it('follows the list endpoint’s auth and scope rules', async () => {
    expect((await t.app.inject({ method: 'GET', url: paths.concurrency(acmePbx) })).statusCode).toBe(401);
    expect((await concurrency('', tokens.acmeSalesWrite)).json().code).toBe('forbidden');
    expect((await concurrency('', tokens.globex)).statusCode).toBe(404);
    const otherApp = await get(paths.concurrency({ ...acmePbx, applicationID: 'sales' }), tokens.acmeSupportRead);
    expect(otherApp.statusCode).toBe(404);
  });
});

describe('GET subscriber activity', () => {
  it('counts calls per subscriber started in the window, busiest first', async () => {
    const agent = { subscriberFirstName: 'Maya', subscriberLastName: 'Chen', subscriberExtension: '104' };
    await t.store.importCalls(acmePbx, [
      call('a', T0 - 50 * MIN, { subscriberID: 's1', ...agent, answeredAt: T0 - 49 * MIN, endedAt: T0 - 40 * MIN }),
      call('b', T0 - 30 * MIN, { subscriberID: 's1', ...agent, isOutbound: true, answeredAt: T0 - 30 * MIN, endedAt: T0 - 29 * MIN }),
      call('c', T0 - 20 * MIN, { subscriberID: 's2', isMissedCall: true, endedAt: T0 - 19 * MIN }),
      call('queue', T0 - 10 * MIN, { isMissedCall: true, endedAt: T0 - 9 * MIN }),
      call('old', T0 - 120 * MIN, { subscriberID: 's2', endedAt: T0 - 119 * MIN }),
    ]);
    const res = await get(`${paths.subscriberActivity(acmePbx)}?fromDate=2026-11-22T08:00:00Z`);
    expect(res.statusCode).toBe(200);
    expect(subscriberActivityResponseSchema.parse(res.json()).subscribers).toEqual([
      { subscriberID: 's1', firstName: 'Maya', lastName: 'Chen', extension: '104', calls: 2, inbound: 1, outbound: 1, missed: 0, talkSeconds: 600 },
      { subscriberID: 's2', calls: 1, inbound: 1, outbound: 0, missed: 1, talkSeconds: 0 },
    ]);
  });
});

describe('heavy queries', () => {
  it("shares one cap per token between analytics and window lists, answered 429 with the reason, and leaves other tokens' alone", async () => {
    const capped = await buildTestApp({ limits: { heavyQueriesPerToken: 1 } });
    try {
      await capped.store.importCalls(
        acmePbx,
        Array.from({ length: 3_000 }, (_, i) => call(`c${i}`, T0 - 24 * 60 * MIN + i * 28_000, { endedAt: T0 - 24 * 60 * MIN + i * 28_000 + 5 * MIN })),
      );
      const day = '?fromDate=2026-11-21T09:00:00Z';
      const globexPbx = { accountID: 'globex', applicationID: 'support', providerID: 'pbx' };
      const ask = (url: string, token: string = tokens.acmeAll) => capped.as(token, { method: 'GET', url });
      const answers = await Promise.all([
        ask(`${paths.concurrency(acmePbx)}${day}`),
        ask(`${paths.subscriberActivity(acmePbx)}${day}`),
        ask(`${paths.listCalls(acmePbx)}${day}`),
        ask(`${paths.concurrency(globexPbx)}${day}`, tokens.globex),
      ]);
      const [globex, ...acme] = [answers[3], ...answers.slice(0, 3)];
      expect(acme.map((res) => res.statusCode).sort()).toEqual([200, 429, 429]);
      for (const refused of acme.filter((res) => res.statusCode === 429)) {
        expect(refused.headers['retry-after']).toBe('1');
        expect(problemSchema.parse(refused.json())).toMatchObject({ code: 'too_many_heavy_queries', detail: expect.stringMatching(/its limit: wait for one to finish/) });
      }
      expect(globex?.statusCode).toBe(200);
    } finally {
      await capped.app.close();
    }
  });
});
