import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { concurrencyResponseSchema, type ConcurrencyResponse } from '../../contract/analytics.js';
import { paths, type ProviderScope } from '../../contract/paths.js';
import { buildApp } from '../app.js';
import { ManualClock } from '../clock.js';
import { serviceConfigSchema, type ServiceConfigInput } from '../config/config-schema.js';
import type { PastRange, PhoneSystem } from '../providers/phone-system.js';
import { createPhoneSystemSimulator } from '../providers/simulator/phone-system-simulator.js';
import { callIDPrefix } from '../providers/simulator/run-identity.js';
import { ScriptedPhoneSystem } from '../test-support/scripted-phone-system.js';
import { CALL_MS, minutesIn, MINUTE, ScriptedPast } from '../test-support/scripted-past.js';
import { createTestHistory, historyKind, type TestHistory } from '../test-support/test-history.js';
import { HistoryBackfill } from './history-backfill.js';
import type { HistoryStore } from './history-store.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TOKEN = 'backfill-test-token-0123456789';
const scope = { accountID: 'a', applicationID: 'app', providerID: 'pbx' };
const trunk = { ...scope, providerID: 'trunk' };

const configWith = (
  providers: ServiceConfigInput['accounts'][number]['applications'][number]['providers'],
  backfill: { days?: number; maxCalls?: number } = {},
) =>
  serviceConfigSchema.parse({
    accounts: [
      {
        id: 'a',
        name: 'A',
        applications: [{ id: 'app', name: 'App', providers }],
        tokens: [{ name: 't', token: TOKEN, applications: '*', permissions: ['calls:read'] }],
      },
    ],
    history: { backfill },
  });

const pbx = [{ id: 'pbx', name: 'PBX', type: 'simulator' as const, settings: { seed: 5, agents: 8 } }];

const log = { info: () => {}, warn: () => {}, error: () => {} } as unknown as FastifyInstance['log'];

/** A phone system with no calls of its own whose past is `past`'s. */
const withPast = (past: ScriptedPast): PhoneSystem => Object.assign(new ScriptedPhoneSystem(), { backfill: past.backfill });

const concurrency = async (app: FastifyInstance, query: string, at: ProviderScope = scope): Promise<ConcurrencyResponse> => {
  const res = await app.inject({
    method: 'GET',
    url: `${paths.concurrency(at)}${query}`,
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return concurrencyResponseSchema.parse(res.json());
};

/** How many journaled calls ended at each minute. */
const endsPerMinute = async (store: HistoryStore, at: ProviderScope = scope) => {
  const counts = new Map<number, number>();
  for (const call of await store.callsLiveDuring(at, NOW - 40 * DAY, NOW + DAY, 1_000_000))
    counts.set(call.endedAt as number, (counts.get(call.endedAt as number) ?? 0) + 1);
  return counts;
};

/** Exactly `callsAt(minute)` calls ended at every minute of [from, to), and none elsewhere: no gap, no double. */
const expectExactly = (counts: Map<number, number>, from: number, to: number, callsAt: (end: number) => number = () => 1) => {
  const expected = new Map(minutesIn(from, to).map((end) => [end, callsAt(end)]));
  expect([...counts].filter(([end, n]) => expected.get(end) !== n).slice(0, 5)).toEqual([]);
  expect([...expected].filter(([end]) => !counts.has(end)).slice(0, 5)).toEqual([]);
};

// A simulated day or week of a real center, in a worker thread: seconds, not milliseconds.
describe('history backfill', { timeout: 30_000 }, () => {
  it(`writes the past on a provider's first start only (${historyKind})`, async () => {
    const history = await createTestHistory();
    const start = async (days: number) => {
      const store = await history.open();
      const app = await buildApp({
        config: configWith(pbx, { days }),
        history: store,
        clock: new ManualClock(NOW),
        autoSync: false,
        backfill: true,
      });
      await app.ready();
      await app.historyBackfill?.settled();
      return { app, store };
    };
    try {
      const first = await start(1);
      const journaled = await first.store.callsLiveDuring(scope, NOW - DAY, NOW, 10_000);
      await first.app.close();
      expect(journaled.length).toBeGreaterThan(100);

      const second = await start(1);
      const again = await second.store.callsLiveDuring(scope, NOW - DAY, NOW, 10_000);
      await second.app.close();
      expect(again).toEqual(journaled);
    } finally {
      await history.dispose();
    }
  });
});

describe('history backfill of any provider that can tell its past', () => {
  let history: TestHistory;
  const opened: FastifyInstance[] = [];
  beforeEach(async () => {
    history = await createTestHistory();
  });
  afterEach(async () => {
    for (const app of opened.splice(0)) await app.close();
    await history.dispose();
  });

  const start = async (
    pasts: Record<string, ScriptedPast | undefined>,
    options: { at?: number; days?: number; maxCalls?: number } = {},
  ) => {
    const store = await history.open();
    const app = await buildApp({
      config: configWith(
        [
          { id: 'pbx', name: 'PBX', type: 'simulator' },
          { id: 'trunk', name: 'Trunk', type: 'simulator' },
        ],
        { days: options.days ?? 2, maxCalls: options.maxCalls },
      ),
      history: store,
      clock: new ManualClock(options.at ?? NOW),
      autoSync: false,
      backfill: true,
      createPhoneSystem: (_config, at) => {
        const past = pasts[at.providerID];
        return past ? withPast(past) : new ScriptedPhoneSystem();
      },
    });
    opened.push(app);
    await app.ready();
    return { app, store };
  };

  const stop = async (app: FastifyInstance) => {
    opened.splice(opened.indexOf(app), 1);
    await app.close();
  };

  /** The backfill as the journal recorded it, read after its app closed the store. */
  const readSaved = async (at: ProviderScope = scope) => {
    const reader = await history.open();
    try {
      return await reader.readBackfill(at);
    } finally {
      await reader.close();
    }
  };

  it('fills in the background while the service answers: newest hour first, then back a day at a time, and says how far it got', async () => {
    const past = new ScriptedPast();
    const held = past.holdAfter(1);
    const { app, store } = await start({ pbx: past });
    const before = await concurrency(app, '?fromDate=2026-11-25T11:00:00Z&toDate=2026-11-25T12:00:00Z');
    expect(before.historyFill).toMatchObject({
      status: 'filling',
      from: '2026-11-23T12:00:00.000Z',
      to: '2026-11-25T12:00:00.000Z',
    });

    await held.reached;
    const newestHour = await concurrency(app, '?fromDate=2026-11-25T11:00:00Z&toDate=2026-11-25T12:00:00Z');
    expect(newestHour.historyFill).toEqual({
      status: 'filling',
      from: '2026-11-23T12:00:00.000Z',
      to: '2026-11-25T12:00:00.000Z',
      filledFrom: '2026-11-25T11:00:00.000Z',
      calls: 60,
    });
    // 60 calls ended in the newest hour; the first of them started before it.
    expect(newestHour.buckets.reduce((sum, b) => sum + b.started, 0)).toBe(59);

    held.release();
    await app.historyBackfill?.settled();
    expect((await concurrency(app, '')).historyFill).toMatchObject({
      status: 'complete',
      filledFrom: '2026-11-23T12:00:00.000Z',
      calls: 2 * 24 * 60 - 1,
    });
    expect(past.ranges.map((r) => [r.from, r.to])).toEqual([
      [NOW - HOUR, NOW],
      [NOW - 25 * HOUR, NOW - HOUR],
      [NOW - 2 * DAY, NOW - 25 * HOUR],
    ]);
    expectExactly(await endsPerMinute(store), NOW - 2 * DAY + CALL_MS, NOW);
  });

  it('resumes after a restart in the middle where the last batch ended: no call twice, no gap', async () => {
    const first = new ScriptedPast();
    const held = first.holdAfter(6);
    const run1 = await start({ pbx: first });
    await held.reached;
    await stop(run1.app);
    const saved = await readSaved();
    expect(saved).toMatchObject({ status: 'filling', filledFrom: NOW - HOUR, chunk: { from: NOW - 25 * HOUR } });

    const second = new ScriptedPast();
    const run2 = await start({ pbx: second }, { at: NOW + 5 * MINUTE });
    await run2.app.historyBackfill?.settled();
    expect(second.ranges[0]).toEqual({ since: NOW - 2 * DAY, from: saved?.chunk?.through, to: NOW - HOUR });
    expectExactly(await endsPerMinute(run2.store), NOW - 2 * DAY + CALL_MS, NOW);
    expect(await run2.store.readBackfill(scope)).toMatchObject({
      status: 'complete',
      calls: 2 * 24 * 60 - 1,
      filledFrom: NOW - 2 * DAY,
    });
  });

  it('stops cleanly at a shutdown: the written batches stay, the provider is told to stop, nothing is reported failed', async () => {
    const past = new ScriptedPast();
    const held = past.holdAfter(3);
    const { app, store } = await start({ pbx: past });
    await held.reached;
    const fill = app.historyBackfill;
    await stop(app);
    expect(past.aborted).toBe(true);
    expect(fill?.report(scope)?.status).toBe('filling');
    expect((await readSaved())?.calls).toBe(60 + 2 * 100);
    expect(await store.readBackfill(scope).catch((error: Error) => error.message)).toMatch(/destroyed|closed|not open|Pool/i);
  });

  it('fills every provider, and one failing provider does not stop the others', async () => {
    const broken = new ScriptedPast({ failAtBatch: 2 });
    const healthy = new ScriptedPast();
    const { app, store } = await start({ pbx: broken, trunk: healthy });
    await app.historyBackfill?.settled();
    expect((await concurrency(app, '')).historyFill?.status).toBe('failed');
    expect((await concurrency(app, '', trunk)).historyFill?.status).toBe('complete');
    expectExactly(await endsPerMinute(store, trunk), NOW - 2 * DAY + CALL_MS, NOW);
    expect(broken.ranges).toHaveLength(2);
  });

  it('leaves alone a provider that cannot tell its past, and one whose journal already has calls', async () => {
    const store = await history.open();
    await store.importCalls(trunk, [
      {
        callID: 'old',
        providerCallID: 'old',
        isOutbound: false,
        isMissedCall: false,
        remoteNumber: '',
        startedAt: NOW - DAY,
        endedAt: NOW - DAY + 1,
      },
    ]);
    await store.close();
    const trunkPast = new ScriptedPast();
    const { app } = await start({ pbx: undefined, trunk: trunkPast });
    await app.historyBackfill?.settled();
    expect((await concurrency(app, '')).historyFill).toBeUndefined();
    expect((await concurrency(app, '', trunk)).historyFill).toBeUndefined();
    expect(trunkPast.ranges).toEqual([]);
  });
});

describe('the backfill runner', () => {
  let history: TestHistory;
  let store: HistoryStore;
  beforeEach(async () => {
    history = await createTestHistory();
    store = await history.open();
  });
  afterEach(async () => {
    await store.close();
    await history.dispose();
  });

  const fillWith = async (sources: { scope: ProviderScope; phoneSystem: PhoneSystem }[], maxCalls = 1_000_000) => {
    const backfill = new HistoryBackfill({
      store,
      sources,
      spanMs: 2 * DAY,
      maxCalls,
      clock: new ManualClock(NOW),
      log,
      parallel: 1,
    });
    await backfill.plan();
    backfill.start();
    await backfill.settled();
    return backfill;
  };

  it('takes the least filled provider next, so every provider gets its newest hour before anyone gets older days', async () => {
    const order: string[] = [];
    const traced = (name: string, past: ScriptedPast): PhoneSystem => {
      const phone = withPast(past);
      return Object.assign(phone, {
        backfill: (range: PastRange, signal: AbortSignal) => (
          order.push(`${name} ${(NOW - range.to) / HOUR}`),
          past.backfill(range, signal)
        ),
      });
    };
    await fillWith([
      { scope, phoneSystem: traced('pbx', new ScriptedPast()) },
      { scope: trunk, phoneSystem: traced('trunk', new ScriptedPast()) },
    ]);
    expect(order).toEqual(['pbx 0', 'trunk 0', 'pbx 1', 'trunk 1', 'pbx 25', 'trunk 25']);
  });

  it('reports a provider whose past stops short of the range as failed, instead of asking it again and again', async () => {
    let asked = 0;
    const silent: PhoneSystem = Object.assign(new ScriptedPhoneSystem(), {
      // eslint-disable-next-line require-yield
      backfill: async function* () {
        asked += 1;
      },
    });
    const backfill = await fillWith([{ scope, phoneSystem: silent }]);
    expect(backfill.report(scope)?.status).toBe('failed');
    expect(asked).toBe(1);
  });

  it('shortens the history to the budget, newest first, without a gap, even when older days are busier than any before', async () => {
    // One call a minute in the newest day, two before it.
    const callsAt = (end: number) => (end < NOW - DAY ? 2 : 1);
    const past = new ScriptedPast({ callsAt });
    const backfill = await fillWith([{ scope, phoneSystem: withPast(past) }], 3000);
    const saved = await store.readBackfill(scope);
    expect(saved).toMatchObject({ status: 'capped' });
    expect(backfill.report(scope)?.status).toBe('capped');
    const filledFrom = saved?.filledFrom as number;
    expect(filledFrom).toBeGreaterThan(NOW - 2 * DAY);
    const counts = await endsPerMinute(store);
    const written = [...counts.values()].reduce((sum, n) => sum + n, 0);
    expect(written).toBe(saved?.calls);
    expect(written).toBeLessThanOrEqual(3000);
    expect(written).toBeGreaterThan(2700);
    expectExactly(counts, filledFrom, NOW, callsAt);
    // Near the budget the chunks shrink, each sized to a part of what is left.
    const lengths = past.ranges.slice(1).map((r) => r.to - r.from);
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
    expect(lengths.at(-1)).toBeLessThan(HOUR);
  });
});

describe('where the simulated past meets the live traffic', { timeout: 60_000 }, () => {
  it(`leaves no gap, no double count and no cliff in the concurrency curve (${historyKind})`, async () => {
    const history = await createTestHistory();
    const store = await history.open();
    const junction = Date.parse('2026-11-24T15:00:00Z');
    const clock = new ManualClock(junction);
    const settings = { seed: 21, agents: 300 };
    const app = await buildApp({
      config: configWith([{ id: 'pbx', name: 'PBX', type: 'simulator', settings }], { days: 3 / 24 }),
      history: store,
      clock,
      autoSync: false,
      backfill: true,
    });
    try {
      await app.ready();
      // The first sync comes late: by then the live center no longer lists the oldest calls it had ended at its start.
      clock.advance(90_000);
      for (let elapsed = 0; elapsed < 45 * MINUTE; elapsed += 15_000) {
        await app.providers.syncAll();
        clock.advance(15_000);
      }
      await app.historyBackfill?.settled();

      const journal = await store.callsLiveDuring(scope, junction - 4 * HOUR, junction + HOUR, 100_000);
      const livePrefix = callIDPrefix(settings.seed, junction);
      const fromPast = journal.filter((c) => !c.callID.startsWith(livePrefix));
      // No double count: the past stops where the live center's list of ended calls begins (keepEndedMs back)...
      expect(fromPast.length).toBeGreaterThan(1000);
      expect(fromPast.every((c) => (c.endedAt as number) <= junction - 120_000)).toBe(true);
      // ...and no gap: every call the live center had ended at its start and still listed is journaled.
      const twin = createPhoneSystemSimulator({ clock: new ManualClock(junction), name: 'pbx', ...settings });
      const handedOver = (await twin.listCalls(new AbortController().signal)).filter((c) => c.endedAt !== undefined);
      const journaled = new Set(journal.map((c) => c.callID));
      expect(handedOver.length).toBeGreaterThan(10);
      expect(handedOver.filter((c) => !journaled.has(c.callID))).toEqual([]);

      // No cliff: around the chunk boundary (an hour back) and the junction, live calls run on as around them.
      const { buckets } = await concurrency(app, `?fromDate=2026-11-24T12:00:00Z&toDate=2026-11-24T15:40:00Z&bucketSeconds=60`);
      const mean = (from: number, to: number) => {
        const inside = buckets.filter((b) => Date.parse(b.start) >= from && Date.parse(b.start) < to);
        return inside.reduce((sum, b) => sum + b.average, 0) / inside.length;
      };
      for (const at of [junction - HOUR, junction]) {
        const around = (mean(at - 40 * MINUTE, at - 20 * MINUTE) + mean(at + 20 * MINUTE, at + 40 * MINUTE)) / 2;
        expect(mean(at - 10 * MINUTE, at + 10 * MINUTE) / around, new Date(at).toISOString()).toBeGreaterThan(0.85);
        expect(mean(at - 10 * MINUTE, at + 10 * MINUTE) / around, new Date(at).toISOString()).toBeLessThan(1.15);
      }
    } finally {
      await app.close();
      await history.dispose();
    }
  });
});
