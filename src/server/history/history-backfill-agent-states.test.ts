import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import type { PastCalls, PastRange, PhoneSystem, ProviderCall } from '../providers/phone-system.js';
import { createPhoneSystemSimulator } from '../providers/simulator/phone-system-simulator.js';
import { createTestHistory, historyKind, type TestHistory } from '../test-support/test-history.js';
import { HistoryBackfill } from './history-backfill.js';
import type { HistoryStore } from './history-store.js';
import { openHistoryDatabase } from './open-history-database.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const AGENTS = 12;
const scope = { accountID: 'a', applicationID: 'app', providerID: 'pbx' };
const log = { info: () => {}, warn: () => {}, error: () => {} } as unknown as FastifyInstance['log'];

const simulator = () => createPhoneSystemSimulator({ clock: new ManualClock(NOW), seed: 5, name: 'pbx', agents: AGENTS });

/** The simulator, but its past breaks off after `batches` batches (a crash in the middle of a chunk), and counts the ranges asked for. */
const breaking = (batches: number): PhoneSystem & { ranges: PastRange[] } => {
  const inner = simulator();
  const past = inner.backfill;
  const ranges: PastRange[] = [];
  let told = 0;
  return Object.assign(inner, {
    ranges,
    backfill: async function* (range: PastRange, signal: AbortSignal): AsyncGenerator<PastCalls> {
      ranges.push(range);
      for await (const batch of past(range, signal)) {
        if (told === batches) throw new Error('the simulator went away');
        told += 1;
        yield batch;
      }
    },
  });
};

/** When the subscriber's part of a connected call began, as the board counts it. */
const connectedAt = (call: ProviderCall): number | undefined =>
  call.isOutbound ? Math.min(call.subscriberAnsweredAt ?? Infinity, call.answeredAt ?? Infinity) : call.answeredAt;

describe(`the backfill of past agent states (${historyKind})`, { timeout: 60_000 }, () => {
  let history: TestHistory;
  const stores: HistoryStore[] = [];
  beforeEach(async () => {
    history = await createTestHistory();
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await history.dispose();
  });

  const fill = async (phoneSystem: PhoneSystem) => {
    const store = await history.open();
    stores.push(store);
    const backfill = new HistoryBackfill({ store, sources: [{ scope, phoneSystem }], spanMs: DAY, maxCalls: 1_000_000, clock: new ManualClock(NOW), log, parallel: 1 });
    await backfill.plan();
    backfill.start();
    await backfill.settled();
    return { store, report: backfill.report(scope) };
  };

  const journaledStates = async () => {
    const db = await openHistoryDatabase(history.location);
    try {
      const rows = await db.selectFrom('agent_states').select(['subscriber_id', 'at', 'state']).orderBy('subscriber_id').orderBy('at').execute();
      return rows.map((row) => ({ subscriberID: row.subscriber_id, at: Number(row.at), state: row.state }));
    } finally {
      await db.destroy();
    }
  };

  it('are written only by the instance that fills the past: another leaves them to it', async () => {
    const store = await history.open();
    stores.push(store);
    const phoneSystem = breaking(Infinity);
    const backfill = new HistoryBackfill({
      store,
      sources: [{ scope, phoneSystem, writesJournal: () => false }],
      spanMs: DAY,
      maxCalls: 1_000_000,
      clock: new ManualClock(NOW),
      log,
    });
    await backfill.plan();
    backfill.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await backfill.stop();
    expect(phoneSystem.ranges).toEqual([]);
    expect(await journaledStates()).toEqual([]);
  });

  it('journals the states once, resumes where a broken fill stopped, and the agents report counts real time from them', async () => {
    const first = breaking(8);
    expect((await fill(first)).report?.status).toBe('failed');
    const resumed = breaking(Infinity);
    const { store, report } = await fill(resumed);
    expect(report?.status).toBe('complete');
    // The newest hour, then the rest of the day; the broken chunk resumes after the batches it wrote.
    expect(first.ranges.map((r) => r.to)).toEqual([NOW, NOW - HOUR]);
    expect(resumed.ranges[0]?.from).toBeGreaterThan(NOW - DAY);
    const resumedAt = resumed.ranges[0]?.from as number;

    const rows = await journaledStates();
    const agents = new Set(rows.map((row) => row.subscriberID));
    expect(agents.size).toBe(AGENTS);
    // Every agent's state is known from the start of the history; the last past row comes before the live journal's start.
    for (const agent of agents) expect(rows.find((row) => row.subscriberID === agent)?.at).toBe(NOW - DAY);
    expect(rows.every((row) => row.at >= NOW - DAY && row.at < NOW)).toBe(true);

    const calls = await store.callsLiveDuring(scope, NOW - DAY, NOW, 100_000);
    const connectedMs = new Map<string, number>();
    let longest = 0;
    for (const call of calls) {
      const start = connectedAt(call);
      if (call.subscriberID === undefined || start === undefined || start === Infinity) continue;
      const from = Math.max(start, NOW - DAY);
      const to = Math.min(call.endedAt as number, NOW);
      longest = Math.max(longest, to - from);
      connectedMs.set(call.subscriberID, (connectedMs.get(call.subscriberID) ?? 0) + Math.max(0, to - from));
    }
    const report1 = await store.agentTime(scope, { from: NOW - DAY, to: NOW, now: NOW });
    expect(report1).toHaveLength(AGENTS);
    let onCallTotal = 0;
    for (const row of report1) {
      const ms = (state: string) => row.stateMs[state] ?? 0;
      expect(ms('unknown')).toBe(0);
      onCallTotal += ms('on-call');
      // Each stretch of the past is a run of its own: where two meet (the newest hour's start, the resumed batch), and
      // where the live center's own calls take over (its last two minutes), a call of the one run may be on the other
      // run's states. At most one call per agent at each of those three seams.
      expect(Math.abs(ms('on-call') - (connectedMs.get(row.subscriberID) ?? 0))).toBeLessThanOrEqual(3 * longest);
    }
    const connectedTotal = [...connectedMs.values()].reduce((sum, ms) => sum + ms, 0);
    expect(onCallTotal).toBeGreaterThan(4 * HOUR);
    expect(Math.abs(onCallTotal - connectedTotal) / connectedTotal).toBeLessThan(0.01);
    // Those who work: a shift off and breaks, the rest of the day on calls or waiting for one. The one on leave and
    // the disabled one keep their state all day.
    const working = report1.filter((row) => connectedMs.has(row.subscriberID));
    expect(working).toHaveLength(AGENTS - 2);
    for (const row of working) {
      expect(row.stateMs.available).toBeGreaterThan(6 * HOUR);
      expect(row.stateMs.offline ?? 0).toBeLessThan(5 * HOUR);
    }
    expect(report1.filter((row) => !connectedMs.has(row.subscriberID)).map((row) => row.stateMs)).toEqual([{ offline: DAY }, { inactive: DAY }]);
    expect(resumedAt).toBeLessThan(NOW - HOUR);

    // A later start finds the fill complete: it asks the simulator for nothing and writes nothing again.
    const again = breaking(Infinity);
    await fill(again);
    expect(again.ranges).toEqual([]);
    expect(await journaledStates()).toEqual(rows);
  });
});
