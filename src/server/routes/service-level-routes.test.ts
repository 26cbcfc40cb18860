import { figuresByHand } from '../test-support/figures-by-hand.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import {
  ANSWER_TIME_BOUNDS,
  missedCallsResponseSchema,
  serviceLevelsResponseSchema,
  serviceLevelTotalsResponseSchema,
  type ServiceLevelFigures,
} from '../../contract/service-levels.js';
import { createRandom } from '../providers/simulator/random.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { providerCall as call } from '../test-support/provider-call.js';
import { buildTestApp, T0, tokens, type TestApp } from '../test-support/test-app.js';

const pbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const iso = (ms: number) => new Date(ms).toISOString();
const agent = (id: string) => ({ subscriberID: id, subscriberFirstName: id.toUpperCase(), subscriberExtension: id.slice(-3) });

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.app.close();
});

const get = (url: string) => t.as(tokens.acmeAll, { method: 'GET', url });

/** Puts the calls in the journal; open ones are what the provider lists now, so the first sync keeps them open. */
const journal = async (calls: ProviderCall[]) => {
  await t.store.importCalls(pbx, calls);
  t.phone('acme/support/pbx').calls = calls.filter((c) => c.endedAt === undefined);
  await t.app.providers.syncAll();
};

const serviceLevels = async (query: string) => {
  const res = await get(`${paths.serviceLevels(pbx)}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return serviceLevelsResponseSchema.parse(res.json());
};

/** The figures of the definitions, recomputed by hand, every call with the same parameters. */
const byHand = (calls: readonly ProviderCall[], aw: number, sa: number): ServiceLevelFigures => figuresByHand(calls, () => ({ aw, sa }));

describe('GET service-levels', () => {
  it('counts each definition at its edges: answered at exactly 20 s, given up at exactly 5 s, still ringing, answered after the window', async () => {
    const from = T0 - HOUR;
    const calls = [
      call('at-20s', from + 1 * MIN, { answeredAt: from + 1 * MIN + 20 * SEC, endedAt: from + 4 * MIN, ...agent('agt-101') }),
      call('over-20s', from + 2 * MIN, { answeredAt: from + 2 * MIN + 20 * SEC + 1, endedAt: from + 3 * MIN, ...agent('agt-101') }),
      call('short', from + 3 * MIN, { endedAt: from + 3 * MIN + 5 * SEC - 1, isMissedCall: true }),
      call('at-5s', from + 4 * MIN, { endedAt: from + 4 * MIN + 5 * SEC, isMissedCall: true, ...agent('agt-102') }),
      call('ringing', T0 - 30 * SEC),
      // Answered after the window's end: it counts in the window its start falls in.
      call('late-answer', T0 - 10 * SEC, { answeredAt: T0 + 50 * SEC, endedAt: T0 + 2 * MIN, ...agent('agt-102') }),
      call('before', from - 1, { answeredAt: from + 5 * SEC, endedAt: from + MIN }),
      call('out-connected', from + 5 * MIN, { isOutbound: true, answeredAt: from + 5 * MIN + 10 * SEC, endedAt: from + 7 * MIN + 10 * SEC, ...agent('agt-101') }),
      call('out-unanswered', from + 6 * MIN, { isOutbound: true, endedAt: from + 6 * MIN + 30 * SEC, ...agent('agt-101') }),
    ];
    t.clock.set(T0 + 3 * MIN);
    await journal(calls);
    const answer = await serviceLevels(`?fromDate=${iso(from)}&toDate=${iso(T0)}&bucketSeconds=1800`);
    expect(answer).toMatchObject({ fromDate: iso(from), toDate: iso(T0), bucketSeconds: 1800, answerWithinSeconds: 20, shortAbandonSeconds: 5 });
    expect(answer.totals).toEqual({
      offered: 6,
      answered: 3,
      answeredWithin: 1,
      shortAbandoned: 1,
      abandoned: 1,
      waiting: 1,
      serviceLevel: 0.25,
      abandonRate: 0.25,
      averageAnswerSeconds: 33.3,
      longestAnswerSeconds: 60,
      averageTalkSeconds: 90,
      outboundPlaced: 2,
      outboundConnected: 1,
      averageOutboundTalkSeconds: 120,
      answerTimes: { within10: 0, within20: 1, within30: 2, within60: 3, within120: 3, later: 0 },
    });
    expect(answer.totals).toEqual(byHand(calls.filter((c) => c.startedAt >= from && c.startedAt < T0), 20 * SEC, 5 * SEC));
    expect(answer.buckets.map((b) => [b.start, b.offered, b.outboundPlaced])).toEqual([
      [iso(from), 4, 2],
      [iso(from + 30 * MIN), 2, 0],
    ]);
    expect(answer.subscribers.map((s) => [s.subscriberID, s.offered, s.answered, s.abandoned, s.outboundPlaced])).toEqual([
      ['agt-101', 2, 2, 0, 2],
      ['agt-102', 2, 1, 1, 0],
    ]);
    expect(answer.subscribers[0]).toMatchObject({ firstName: 'AGT-101', extension: '101', serviceLevel: 0.5 });

    // Without the per-subscriber rows: the same totals and buckets, and no `subscribers` at all (not an empty list that would read as "nobody").
    const res = await get(`${paths.serviceLevels(pbx)}?fromDate=${iso(from)}&toDate=${iso(T0)}&bucketSeconds=1800&subscribers=omit`);
    expect(res.statusCode, res.body).toBe(200);
    const totalsOnly = serviceLevelTotalsResponseSchema.strict().parse(res.json());
    expect(totalsOnly).toEqual({ ...answer, subscribers: undefined });
    expect(res.json()).not.toHaveProperty('subscribers');

    // The two thresholds are the asker's: 60 s answers all three in time, and with 0 s every caller who gave up counts.
    const lenient = await serviceLevels(`?fromDate=${iso(from)}&toDate=${iso(T0)}&answerWithinSeconds=60&shortAbandonSeconds=0`);
    expect(lenient.totals).toMatchObject({ answeredWithin: 3, shortAbandoned: 0, abandoned: 2, serviceLevel: 0.6 });
  });

  it('agrees with the same window recomputed by hand, over a day of random calls', async () => {
    const random = createRandom(42);
    const from = T0 - 24 * HOUR;
    const calls: ProviderCall[] = [];
    for (let i = 0; i < 600; i += 1) {
      const startedAt = from - HOUR + Math.floor(random.next() * 26 * HOUR);
      const outbound = random.next() < 0.3;
      const answered = random.next() < 0.8;
      const wait = Math.floor(random.next() * 150 * SEC);
      const ended = startedAt + wait + Math.floor(random.next() * 10 * MIN) < T0 - MIN;
      calls.push(
        call(`c${i}`, startedAt, {
          isOutbound: outbound,
          ...(answered ? { answeredAt: startedAt + wait } : {}),
          ...(ended ? { endedAt: startedAt + wait + Math.floor(random.next() * 10 * MIN) } : {}),
          ...(random.next() < 0.7 ? agent(`agt-${100 + Math.floor(random.next() * 5)}`) : {}),
        }),
      );
    }
    const open = calls.filter((c) => c.endedAt === undefined);
    t.clock.set(T0);
    await journal(calls);
    const answer = await serviceLevels(`?fromDate=${iso(from)}&toDate=${iso(T0)}&bucketSeconds=3600&answerWithinSeconds=30&shortAbandonSeconds=8`);
    const inWindow = calls.filter((c) => c.startedAt >= from && c.startedAt < T0);
    expect(open.length).toBeGreaterThan(0);
    expect(answer.totals).toEqual(byHand(inWindow, 30 * SEC, 8 * SEC));
    answer.buckets.forEach((bucket, i) => {
      const start = from + i * HOUR;
      expect(bucket, bucket.start).toEqual({ start: iso(start), ...byHand(inWindow.filter((c) => c.startedAt >= start && c.startedAt < start + HOUR), 30 * SEC, 8 * SEC) });
    });
    for (const subscriber of answer.subscribers)
      expect(subscriber).toMatchObject(byHand(inWindow.filter((c) => c.subscriberID === subscriber.subscriberID), 30 * SEC, 8 * SEC));
    expect(ANSWER_TIME_BOUNDS).toHaveLength(5);
  });

  it('refuses thresholds out of range and an unknown subscribers choice, naming them', async () => {
    for (const [query, field] of [
      ['?answerWithinSeconds=0', 'answerWithinSeconds'],
      ['?answerWithinSeconds=601', 'answerWithinSeconds'],
      ['?shortAbandonSeconds=61', 'shortAbandonSeconds'],
      ['?shortAbandonSeconds=2.5', 'shortAbandonSeconds'],
      ['?subscribers=none', 'subscribers'],
    ]) {
      const res = await get(`${paths.serviceLevels(pbx)}${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(problemSchema.parse(res.json()).errors?.[0]?.field, query).toBe(field);
    }
  });
});

describe('GET missed-calls', () => {
  it('lists the callers who gave up, newest first, with who called them back and when they were reached', async () => {
    const from = T0 - 3 * HOUR;
    const missed = call('missed', from + 10 * MIN, { remoteNumber: '15550101001', endedAt: from + 11 * MIN, isMissedCall: true, ...agent('agt-101') });
    const rangAgain = call('rang-again', from + 20 * MIN, { remoteNumber: '15550101002', endedAt: from + 20 * MIN + 30 * SEC, isMissedCall: true });
    await journal([
      missed,
      rangAgain,
      call('withheld', from + 30 * MIN, { remoteNumber: '', endedAt: from + 31 * MIN, isMissedCall: true }),
      call('short', from + 40 * MIN, { remoteNumber: '15550101003', endedAt: from + 40 * MIN + 2 * SEC, isMissedCall: true }),
      call('answered', from + 50 * MIN, { remoteNumber: '15550101004', answeredAt: from + 50 * MIN + 5 * SEC, endedAt: from + 52 * MIN }),
      // Called back twice: not answered at 20 minutes, answered at 90.
      call('back-1', from + 31 * MIN, { isOutbound: true, remoteNumber: '15550101001', endedAt: from + 32 * MIN }),
      call('back-2', from + 101 * MIN, { isOutbound: true, remoteNumber: '15550101001', answeredAt: from + 101 * MIN + 8 * SEC, endedAt: from + 104 * MIN }),
      // The other caller rang again and was answered.
      call('again', from + 45 * MIN, { remoteNumber: '15550101002', answeredAt: from + 45 * MIN + 4 * SEC, endedAt: from + 47 * MIN }),
    ]);
    const res = await get(`${paths.missedCalls(pbx)}?fromDate=${iso(from)}&toDate=${iso(T0)}`);
    expect(res.statusCode).toBe(200);
    const answer = missedCallsResponseSchema.parse(res.json());
    expect(answer.missedCalls.map((m) => m.callID)).toEqual(['withheld', 'rang-again', 'missed']);
    expect(answer.totalMissedCalls).toBe(3);
    expect(answer.missedCalls[2]).toEqual({
      callID: 'missed',
      remoteNumber: '15550101001',
      startedAt: iso(from + 10 * MIN),
      endedAt: iso(from + 11 * MIN),
      subscriberID: 'agt-101',
      subscriberFirstName: 'AGT-101',
      calledBackAt: iso(from + 31 * MIN),
      callbackCallID: 'back-1',
      attempts: 2,
      reachedAt: iso(from + 101 * MIN + 8 * SEC),
    });
    expect(answer.missedCalls[1]).toMatchObject({ callID: 'rang-again', attempts: 0, reachedAt: iso(from + 45 * MIN + 4 * SEC) });
    expect(answer.missedCalls[1]?.calledBackAt).toBeUndefined();
    // A withheld number is nobody's to call back, nor anybody's to match.
    expect(answer.missedCalls[0]).toMatchObject({ callID: 'withheld', remoteNumber: '', attempts: 0 });
    expect(answer.missedCalls[0]?.reachedAt).toBeUndefined();
    // One of the three was called back within the hour.
    expect(answer.calledBackWithinHour).toBe(0.333);
  });
});
