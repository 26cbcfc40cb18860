/**
 * The interval report at a large center's size, on the embedded store and on PostgreSQL: 31 days
 * at 10,000 calls a day in 20 queues of 10 agents each, every answered call journaled as three
 * changes of its agent's state, and one change of every queue's parameters halfway; the whole range
 * in quarter hours, as the API asks it of a reader thread (its answer's bytes included).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';
import { postgresBinDir } from '../scripts/system-packages.mjs';
import { HistoryStore } from '../src/server/history/history-store.js';
import type { ConfiguredQueue, IntervalReportRequest } from '../src/server/history/interval-report.js';
import type { HistoryLocation } from '../src/server/history/open-history-database.js';
import type { AgentStateChange } from '../src/server/history/report-journal.js';
import type { ProviderCall } from '../src/server/providers/phone-system.js';
import { createRandom } from '../src/server/providers/simulator/random.js';

const DAY = 86_400_000;
const MIN = 60_000;
const FROM = Date.parse('2026-10-01T22:00:00Z');
export const INTERVAL_DAYS = 31;
export const INTERVAL_CALLS_PER_DAY = 10_000;
export const INTERVAL_QUEUES = 20;
const MEMBERS = 10;
const TO = FROM + INTERVAL_DAYS * DAY;
const RUNS = 5;
const TIME_ZONE = 'Europe/Berlin';

export interface IntervalReportTiming {
  store: string;
  calls: number;
  agentStates: number;
  queues: number;
  intervals: number;
  rows: number;
  bodyBytes: number;
  /** Median and slowest of the runs, after one to warm up. */
  medianMs: number;
  maxMs: number;
  targetMs: number;
  /** The service-level query of the same range in quarter-hour buckets, in the same run: the machine's reference. */
  referenceMs: number;
}

const queueID = (q: number) => `q${String(q).padStart(2, '0')}`;
const memberOf = (q: number, m: number) => `agt-${q * MEMBERS + m}`;

const queuesNow: ConfiguredQueue[] = Array.from({ length: INTERVAL_QUEUES }, (_, q) => ({
  queueID: queueID(q),
  name: `Queue ${q}`,
  answerWithinMs: 20_000,
  shortAbandonMs: 5000,
  serviceLevelTarget: 0.8,
  members: Array.from({ length: MEMBERS }, (_, m) => memberOf(q, m)),
}));

/** The whole range in quarter hours, every queue: what the benchmark asks. */
const intervalBenchRequest: IntervalReportRequest = {
  from: FROM,
  to: TO,
  now: TO + DAY,
  intervalMinutes: 15,
  timeZone: TIME_ZONE,
  configured: queuesNow,
  answerWithinMs: 20_000,
  shortAbandonMs: 5000,
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** A day's calls, busier by day than by night: 85 % inbound (one in 17 of them in no queue), waits of seconds to minutes, talks of minutes, one in 12 given up. */
const dayOfCalls = (day: number, random: () => number): { calls: ProviderCall[]; states: AgentStateChange[] } => {
  const calls: ProviderCall[] = [];
  const states: AgentStateChange[] = [];
  for (let i = 0; i < INTERVAL_CALLS_PER_DAY; i += 1) {
    const hour = 6 + Math.floor(random() * random() * 16 + random() * 2);
    const startedAt = FROM + day * DAY + hour * 3_600_000 + Math.floor(random() * 3_600_000);
    const kind = random();
    const isOutbound = kind > 0.85;
    const q = Math.floor(random() * INTERVAL_QUEUES);
    const queue = isOutbound || kind < 0.05 ? {} : { queueID: queueID(q), queueName: `Queue ${q}` };
    const wait = Math.floor(random() * random() * 120_000);
    const callID = `d${day}-${i}`;
    const base = { callID, providerCallID: `${callID}@bench`, isOutbound, remoteNumber: `1555${String(i).padStart(7, '0')}`, startedAt, ...queue };
    if (random() < 0.08) {
      calls.push({ ...base, isMissedCall: !isOutbound, endedAt: startedAt + wait });
      continue;
    }
    const answeredAt = startedAt + wait;
    const endedAt = answeredAt + 60_000 + Math.floor(random() * 8 * MIN);
    const subscriberID = memberOf(q, Math.floor(random() * MEMBERS));
    calls.push({ ...base, isMissedCall: false, answeredAt, endedAt, subscriberID });
    states.push(
      { subscriberID, at: startedAt, state: 'ringing' },
      { subscriberID, at: answeredAt, state: 'on-call' },
      { subscriberID, at: endedAt, state: 'available' },
    );
  }
  // Each agent logs in in the morning and out at night.
  for (let a = 0; a < INTERVAL_QUEUES * MEMBERS; a += 1) {
    states.push({ subscriberID: `agt-${a}`, at: FROM + day * DAY + 5 * 3_600_000 + a * 1000, state: 'available' });
    states.push({ subscriberID: `agt-${a}`, at: FROM + day * DAY + 23 * 3_600_000 + a * 1000, state: 'offline' });
  }
  return { calls, states };
};

/** Fills the journal with the benchmark's calls, agent states and queue parameters; answers how many of each. */
const fillIntervalBench = async (store: HistoryStore, scope: { accountID: string; applicationID: string; providerID: string }) => {
  const random = createRandom(3).next;
  let calls = 0;
  let agentStates = 0;
  for (let day = 0; day < INTERVAL_DAYS; day += 1) {
    const made = dayOfCalls(day, random);
    await store.importCalls(scope, made.calls);
    await store.recordAgentStates(scope, made.states);
    calls += made.calls.length;
    agentStates += made.states.length;
  }
  await store.recordQueueParameters(scope, queuesNow.map((q) => ({ ...q, members: [...q.members] })), FROM - DAY);
  await store.recordQueueParameters(
    scope,
    queuesNow.map((q) => ({ ...q, members: [...q.members], answerWithinMs: 30_000, serviceLevelTarget: 0.9 })),
    FROM + 15 * DAY + 7 * MIN,
  );
  await store.refreshStatistics();
  return { calls, agentStates };
};

const measureStore = async (name: string, location: HistoryLocation, targetMs: number): Promise<IntervalReportTiming> => {
  const store = await HistoryStore.open(location);
  try {
    const scope = { accountID: 'bench', applicationID: 'app', providerID: 'intervals' };
    const { calls, agentStates } = await fillIntervalBench(store, scope);
    const ask = () => store.intervalReport(scope, intervalBenchRequest);
    const warm = await ask();
    const times: number[] = [];
    const reference: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      let started = performance.now();
      await ask();
      times.push(performance.now() - started);
      started = performance.now();
      await store.serviceLevels(scope, { from: FROM, to: TO, bucketMs: 15 * MIN, answerWithinMs: 20_000, shortAbandonMs: 5000, subscribers: false });
      reference.push(performance.now() - started);
    }
    const report = JSON.parse(Buffer.from(warm).toString('utf8')) as { rows: unknown[]; queues: unknown[] };
    return {
      store: name,
      calls,
      agentStates,
      queues: INTERVAL_QUEUES,
      intervals: report.rows.length / report.queues.length,
      rows: report.rows.length,
      bodyBytes: warm.byteLength,
      medianMs: Math.round(median(times)),
      maxMs: Math.round(Math.max(...times)),
      targetMs,
      referenceMs: Math.round(median(reference)),
    };
  } finally {
    await store.close();
  }
};

export const intervalReportTimings = async (): Promise<IntervalReportTiming[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'callboard-bench-intervals-'));
  const rows: IntervalReportTiming[] = [];
  try {
    rows.push(await measureStore('embedded (SQLite)', { kind: 'embedded', file: join(dir, 'callboard.db') }, 1000));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (postgresBinDir()) {
    const postgres = await startThrowawayPostgres({ database: 'callboard_bench_intervals' });
    try {
      rows.push(await measureStore('PostgreSQL', { kind: 'postgres', url: postgres.url }, 500));
    } finally {
      postgres.stop();
    }
  }
  return rows;
};

export const intervalReportSection = (rows: readonly IntervalReportTiming[]): string => `The interval report of ${INTERVAL_DAYS} days in quarter hours, ${INTERVAL_CALLS_PER_DAY.toLocaleString('en')} calls a day in ${INTERVAL_QUEUES} queues of ${MEMBERS} agents, every answered call three changes of its agent's state, and every queue's parameters changed once halfway; asked of a reader thread as the API asks it, answer bytes included (median and slowest of ${RUNS}, after one run to warm up). Reference: the service-level query of the same range in quarter-hour buckets, alternating with it.

| store | calls | agent states | rows (intervals × queues and no queue) | answer | median | slowest | reference: service levels | target |
|---|---|---|---|---|---|---|---|---|
${rows
  .map(
    (r) =>
      `| ${r.store} | ${r.calls.toLocaleString('en')} | ${r.agentStates.toLocaleString('en')} | ${r.rows.toLocaleString('en')} (${r.intervals.toLocaleString('en')} × ${r.queues + 1}) | ${(r.bodyBytes / 1024 / 1024).toFixed(1)} MB | ${r.medianMs} ms | ${r.maxMs} ms | ${r.referenceMs} ms (ratio ${(r.medianMs / r.referenceMs).toFixed(1)}) | ≤ ${r.targetMs} ms: ${r.medianMs <= r.targetMs ? 'met' : '**missed**'} |`,
  )
  .join('\n')}`;
