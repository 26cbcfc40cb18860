/**
 * Service level from the journal, on the embedded store and on PostgreSQL: a 7-day window at the
 * demo's traffic (the simulator's week at its default size), and a 31-day window at 10,000 calls a
 * day, after the planner's statistics are refreshed as a backfill leaves them; beside the
 * concurrency query of the same window, the reference measured in the same run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';
import { postgresBinDir } from '../scripts/system-packages.mjs';
import { ManualClock } from '../src/server/clock.js';
import { HistoryStore } from '../src/server/history/history-store.js';
import type { HistoryLocation } from '../src/server/history/open-history-database.js';
import { createPhoneSystemSimulator } from '../src/server/providers/simulator/phone-system-simulator.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-19T11:00:00Z');
const RUNS = 7;

export interface ServiceLevelTiming {
  store: string;
  days: number;
  calls: number;
  bucketMinutes: number;
  serviceLevelsMs: number;
  missedCallsMs: number;
  concurrencyMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** The simulator's past, `days` long, for a center of `agents`; answers how many calls it wrote. */
const importPast = async (store: HistoryStore, scope: { accountID: string; applicationID: string; providerID: string }, days: number, agents: number) => {
  const sim = createPhoneSystemSimulator({ clock: new ManualClock(NOW), seed: 1, name: scope.providerID, agents });
  let calls = 0;
  for await (const batch of sim.backfill({ since: NOW - days * DAY, from: NOW - days * DAY, to: NOW }, new AbortController().signal)) {
    await store.importCalls(scope, batch.calls);
    calls += batch.calls.length;
  }
  return calls;
};

const timed = async (run: () => Promise<unknown>) => {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return Math.round(median(times) * 10) / 10;
};

const measureWindow = async (store: HistoryStore, name: string, days: number, agents: number): Promise<ServiceLevelTiming> => {
  const scope = { accountID: 'bench', applicationID: 'app', providerID: `sl-${days}` };
  const calls = await importPast(store, scope, days, agents);
  // As the service does after a backfill (and PostgreSQL's autovacuum does on its own a little later).
  await store.refreshStatistics();
  const from = NOW - days * DAY;
  const bucketMs = days > 7 ? 6 * 3_600_000 : 1_800_000;
  return {
    store: name,
    days,
    calls,
    bucketMinutes: bucketMs / 60_000,
    serviceLevelsMs: await timed(() => store.serviceLevels(scope, { from, to: NOW, bucketMs, answerWithinMs: 20_000, shortAbandonMs: 5000 })),
    missedCallsMs: await timed(() => store.missedCalls(scope, { from, to: NOW, shortAbandonMs: 5000, limit: 1000 })),
    concurrencyMs: await timed(() => store.concurrency(scope, { from, to: NOW, bucketMs, now: NOW })),
  };
};

/** At the demo's size (24 agents) for 7 days; and a center of about 10,000 calls a day (74 agents) for 31 days. */
const measureStore = async (name: string, location: HistoryLocation): Promise<ServiceLevelTiming[]> => {
  const store = await HistoryStore.open(location);
  try {
    return [await measureWindow(store, name, 7, 24), await measureWindow(store, name, 31, 74)];
  } finally {
    await store.close();
  }
};

export const serviceLevelTimings = async (): Promise<ServiceLevelTiming[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'callboard-bench-sl-'));
  const rows: ServiceLevelTiming[] = [];
  try {
    rows.push(...(await measureStore('embedded (SQLite)', { kind: 'embedded', file: join(dir, 'callboard.db') })));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (postgresBinDir()) {
    const postgres = await startThrowawayPostgres({ database: 'callboard_bench_sl' });
    try {
      rows.push(...(await measureStore('PostgreSQL', { kind: 'postgres', url: postgres.url })));
    } finally {
      postgres.stop();
    }
  }
  return rows;
};

export const serviceLevelSection = (rows: readonly ServiceLevelTiming[]): string => `Service level and missed callers computed in the database from the journal, in the reader threads, as the API runs them (median of ${RUNS}). The 7-day window is the simulator's week at the demo's size (24 agents); the 31-day one a center of about 10,000 calls a day. Reference: the concurrency query of the same window, in the same run.

| store | window | calls | buckets | service levels | missed callers | reference: concurrency | target |
|---|---|---|---|---|---|---|---|
${rows
  .map(
    (r) =>
      `| ${r.store} | ${r.days} days | ${r.calls.toLocaleString('en')} | ${r.bucketMinutes >= 60 ? `${r.bucketMinutes / 60} h` : `${r.bucketMinutes} min`} | ${r.serviceLevelsMs} ms | ${r.missedCallsMs} ms | ${r.concurrencyMs} ms (ratio ${(r.serviceLevelsMs / r.concurrencyMs).toFixed(2)}) | ${r.days === 7 ? `≤ 300 ms: ${r.serviceLevelsMs <= 300 ? 'met' : '**missed**'}` : '(measured)'} |`,
  )
  .join('\n')}`;
