import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import type { PastCalls, PastRange, ProviderCall } from '../phone-system.js';
import { pastFromWorker } from './past-worker-thread.js';
import { createPhoneSystemSimulator } from './phone-system-simulator.js';
import { callIDPrefix, sipHostFor } from './run-identity.js';
import { PAST_BATCH_CALLS, simulatePast, type PastRun } from './simulated-past.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const collect = async (batches: AsyncIterable<PastCalls>): Promise<PastCalls[]> => {
  const all: PastCalls[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
};

const pastOf = async (range: PastRange, options: { seed?: number; agents?: number; traffic?: number; speed?: number } = {}) => {
  const sim = createPhoneSystemSimulator({ clock: new ManualClock(NOW), seed: 9, name: 'pbx', agents: 8, ...options });
  return collect(sim.backfill(range, new AbortController().signal));
};

const callsOf = (batches: PastCalls[]): ProviderCall[] => batches.flatMap((batch) => batch.calls);

const run = (range: PastRange, overrides: Partial<PastRun> = {}): PastRun => ({
  seed: 3,
  dialMode: 'two-step',
  agents: 400,
  traffic: 1,
  speed: 1,
  keepEndedMs: 120_000,
  warmupMs: HOUR,
  emailDomain: 'example.com',
  queues: [],
  sipHost: sipHostFor('pbx'),
  origin: NOW,
  handover: NOW - 120_000,
  range,
  ...overrides,
});

// Each test runs whole simulated days, some in worker threads: seconds, not milliseconds.
describe('the simulated past', { timeout: 30_000 }, () => {
  it('is deterministic by seed, holds only calls that ended in the backfilled past, and follows the daily curve', async () => {
    const generate = async () => callsOf(await pastOf({ since: NOW - 7 * DAY, from: NOW - 7 * DAY, to: NOW }));
    const calls = await generate();
    expect(calls).toEqual(await generate());
    expect(calls.every((c) => c.endedAt !== undefined && c.endedAt <= NOW && c.startedAt >= NOW - 7 * DAY)).toBe(true);
    const atHour = (hour: number) => calls.filter((c) => new Date(c.startedAt).getUTCHours() === hour).length;
    expect(atHour(10)).toBeGreaterThan(2 * atHour(3));
    expect(calls.some((c) => c.isMissedCall)).toBe(true);
  });

  it('comes in bounded batches, in the order calls ended, each batch saying how far the range is covered', () => {
    const range = { since: NOW - 7 * DAY, from: NOW - 5 * HOUR, to: NOW - 2 * HOUR };
    const batches = [...simulatePast(run(range))];
    const calls = callsOf(batches);
    expect(batches.length).toBeGreaterThan(2);
    expect(Math.max(...batches.map((b) => b.calls.length))).toBeLessThanOrEqual(PAST_BATCH_CALLS);
    const ends = calls.map((c) => c.endedAt as number);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    expect(ends.every((end) => end >= range.from && end < range.to)).toBe(true);
    expect(new Set(calls.map((c) => c.callID)).size).toBe(calls.length);
    batches.forEach((batch, i) => {
      if (i > 0) expect(batch.through).toBeGreaterThanOrEqual((batches[i - 1] as PastCalls).through);
      // Everything that ended before `through` came in this batch or an earlier one.
      const later = callsOf(batches.slice(i + 1));
      expect(later.every((c) => (c.endedAt as number) >= batch.through)).toBe(true);
    });
    expect(batches.at(-1)?.through).toBe(range.to);
  });

  it('warms up before its range, so calls in flight at its start are there too, but none that started before `since`', () => {
    const warm = callsOf([...simulatePast(run({ since: NOW - DAY, from: NOW - 3 * HOUR, to: NOW - 2 * HOUR }))]);
    expect(warm.some((c) => c.startedAt < NOW - 3 * HOUR)).toBe(true);
    const cold = callsOf([...simulatePast(run({ since: NOW - 3 * HOUR, from: NOW - 3 * HOUR, to: NOW - 2 * HOUR }))]);
    expect(cold.length).toBeGreaterThan(0);
    expect(cold.every((c) => c.startedAt >= NOW - 3 * HOUR)).toBe(true);
  });

  it('gives every run its own call IDs, apart from the live center’s', async () => {
    const sim = createPhoneSystemSimulator({ clock: new ManualClock(NOW), seed: 9, name: 'pbx', agents: 40 });
    // Its ended calls are handed over to the past as they are (the test above): only the live ones count here.
    const live = (await sim.listCalls(new AbortController().signal)).filter((c) => c.endedAt === undefined);
    const older = callsOf(
      await collect(sim.backfill({ since: NOW - DAY, from: NOW - 4 * HOUR, to: NOW - 2 * HOUR }, new AbortController().signal)),
    );
    const newer = callsOf(
      await collect(sim.backfill({ since: NOW - DAY, from: NOW - 2 * HOUR, to: NOW }, new AbortController().signal)),
    );
    const ids = [...live, ...older, ...newer].map((c) => c.callID);
    expect(new Set(ids).size).toBe(ids.length);
    const sipIDs = [...live, ...older, ...newer].map((c) => c.providerCallID);
    expect(new Set(sipIDs).size).toBe(sipIDs.length);
  });

  it('hands over to the live center: the past ends with the ended calls it lists, and holds none of its live ones', async () => {
    const sim = createPhoneSystemSimulator({ clock: new ManualClock(NOW), seed: 9, name: 'pbx', agents: 40 });
    const listed = await sim.listCalls(new AbortController().signal);
    const past = callsOf(
      await collect(sim.backfill({ since: NOW - DAY, from: NOW - HOUR, to: NOW }, new AbortController().signal)),
    );
    const handed = listed.filter((c) => c.endedAt !== undefined && c.endedAt < NOW);
    expect(handed.length).toBeGreaterThan(0);
    expect(past.slice(-handed.length)).toEqual(handed);
    // Before them, the separate run stops where the live center's list of ended calls begins (keepEndedMs back).
    expect(past.slice(0, -handed.length).every((c) => (c.endedAt as number) <= NOW - 120_000)).toBe(true);
    const pastIDs = new Set(past.map((c) => c.callID));
    expect(listed.some((c) => c.endedAt === undefined && pastIDs.has(c.callID))).toBe(false);
  });

  it('maps simulated time to the clock for a faster simulator: a clock hour holds `speed` simulated hours of calls', () => {
    const fast = callsOf([
      ...simulatePast(run({ since: NOW - DAY, from: NOW - 2 * HOUR, to: NOW - HOUR }, { agents: 40, speed: 4 })),
    ]);
    expect(fast.every((c) => (c.endedAt as number) >= NOW - 2 * HOUR && (c.endedAt as number) < NOW - HOUR)).toBe(true);
    // The same simulated stretch at normal speed: [NOW - 8 h, NOW - 4 h) of simulated time.
    const normal = callsOf([
      ...simulatePast(run({ since: NOW - DAY, from: NOW - 8 * HOUR, to: NOW - 4 * HOUR }, { agents: 40 })),
    ]);
    expect(fast.length / normal.length).toBeGreaterThan(0.85);
    expect(fast.length / normal.length).toBeLessThan(1.15);
  });
});

describe('the simulated past in a worker thread', { timeout: 30_000 }, () => {
  it('streams the same batches as running it in place', async () => {
    const range = { since: NOW - DAY, from: NOW - 4 * HOUR, to: NOW - 3 * HOUR };
    expect(await collect(pastFromWorker(run(range), new AbortController().signal))).toEqual([...simulatePast(run(range))]);
  });

  it('stops when aborted, with the abort as the reason', async () => {
    const abort = new AbortController();
    const batches = pastFromWorker(run({ since: NOW - 7 * DAY, from: NOW - 7 * DAY, to: NOW }, { agents: 2000 }), abort.signal);
    const first = await batches.next();
    expect(first.done).toBe(false);
    abort.abort(new Error('shutting down'));
    await expect(batches.next()).rejects.toThrow('shutting down');
  });

  it('reports a failure inside the thread as an error', async () => {
    const broken = { ...run({ since: 0, from: 0, to: 1 }), range: undefined } as unknown as PastRun;
    await expect(collect(pastFromWorker(broken, new AbortController().signal))).rejects.toThrow();
  });
});

describe('the past of a simulator that outlives the services reading it', { timeout: 60_000 }, () => {
  const MINUTE = 60_000;
  /** Every call the live center listed as ended, polled each minute for `hours`. */
  const runFor = async (recordedCalls: number, hours: number) => {
    const clock = new ManualClock(NOW);
    const sim = createPhoneSystemSimulator({ clock, seed: 5, name: 'pbx', agents: 300, recordedCalls });
    const ended = new Map<string, ProviderCall>();
    for (let elapsed = 0; elapsed <= hours * HOUR; elapsed += MINUTE) {
      for (const call of await sim.listCalls(new AbortController().signal)) if (call.endedAt !== undefined) ended.set(call.callID, call);
      clock.advance(MINUTE);
    }
    return { sim, ended: [...ended.values()], now: clock.now() };
  };
  const livePrefix = callIDPrefix(5, NOW);

  it('tells the calls its live center really had since it started, in bounded batches', async () => {
    const { sim, ended, now } = await runFor(100_000, 2);
    const range = { since: NOW - DAY, from: NOW - 30 * MINUTE, to: now - 10 * MINUTE };
    const batches = await collect(sim.backfill(range, new AbortController().signal));
    const past = callsOf(batches);
    const expected = ended.filter((c) => (c.endedAt as number) >= range.from && (c.endedAt as number) < range.to);
    expect(expected.length).toBeGreaterThan(2 * PAST_BATCH_CALLS);
    // The live center's own calls (those it listed at its start and all it ended since), each as it was listed...
    const own = past.filter((c) => c.callID.startsWith(livePrefix));
    expect(own.sort((a, b) => a.callID.localeCompare(b.callID))).toEqual(expected.sort((a, b) => a.callID.localeCompare(b.callID)));
    // ...and before them a separate run's, up to where its list at the start began.
    expect(past.filter((c) => !c.callID.startsWith(livePrefix)).every((c) => (c.endedAt as number) <= NOW - 120_000)).toBe(true);
    expect(Math.max(...batches.map((b) => b.calls.length))).toBeLessThanOrEqual(PAST_BATCH_CALLS);
    batches.forEach((batch, i) => {
      const later = callsOf(batches.slice(i + 1));
      expect(later.every((c) => (c.endedAt as number) >= batch.through)).toBe(true);
    });
    expect(batches.at(-1)?.through).toBe(range.to);
  });

  it('past the bound of its record, a separate run tells what the record dropped, and the two never overlap', async () => {
    const { sim, ended, now } = await runFor(500, 2);
    const range = { since: NOW - DAY, from: NOW + 30 * MINUTE, to: now };
    const past = callsOf(await collect(sim.backfill(range, new AbortController().signal)));
    const own = past.filter((c) => c.callID.startsWith(livePrefix));
    const separate = past.filter((c) => !c.callID.startsWith(livePrefix));
    // The newest 500 ended calls (less those the range leaves out) are the live center's; the rest of the range a separate run's.
    expect(own.length).toBeGreaterThan(400);
    expect(own.length).toBeLessThanOrEqual(500);
    const byID = new Map(ended.map((c) => [c.callID, c]));
    expect(own.every((c) => JSON.stringify(byID.get(c.callID)) === JSON.stringify(c))).toBe(true);
    const handover = Math.min(...own.map((c) => c.endedAt as number));
    expect(separate.length).toBeGreaterThan(1000);
    expect(separate.every((c) => (c.endedAt as number) <= handover)).toBe(true);
    // The same rate of ended calls on either side of the handover: no gap, no double count.
    const rate = (calls: ProviderCall[], from: number, to: number) =>
      calls.filter((c) => (c.endedAt as number) >= from && (c.endedAt as number) < to).length / (to - from);
    const before = rate(separate, range.from, handover);
    const after = rate(own, handover, now);
    expect(after / before).toBeGreaterThan(0.7);
    expect(after / before).toBeLessThan(1.3);
  });
});
