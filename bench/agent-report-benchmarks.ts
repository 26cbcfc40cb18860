/**
 * The agents report from the journal, on the embedded store and on PostgreSQL: 31 days of a center
 * of 2,000 agents, each working 5 days in 7, an 8-hour shift a day, taking a call every 10 minutes
 * or so (a ring, the talk, then free again: three changes of state per call, and a log-in and a
 * log-out per shift), with those calls in the journal too. Timed as the API runs it, in a reader
 * thread: read through the agents' rollups (what a report costs), and from the raw rows alone as
 * the reference; and what rolling up one day of the center costs in the background.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';
import { postgresBinDir } from '../scripts/system-packages.mjs';
import { ManualClock } from '../src/server/clock.js';
import { AgentRollupRoller } from '../src/server/history/agent-rollup-roller.js';
import type { AgentTimeRow } from '../src/server/history/agent-time-query.js';
import { HistoryStore } from '../src/server/history/history-store.js';
import { openHistoryDatabase, type HistoryLocation } from '../src/server/history/open-history-database.js';
import { writeAgentStates, type AgentStateChange } from '../src/server/history/report-journal.js';
import type { ProviderCall } from '../src/server/providers/phone-system.js';
import { createRandom } from '../src/server/providers/simulator/random.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-19T00:00:00Z');
const RUNS = 5;
export const REPORT_AGENTS = 2000;
export const REPORT_DAYS = 31;

export interface AgentReportTiming {
  store: string;
  agents: number;
  days: number;
  stateRows: number;
  calls: number;
  /** The report read through the rollups, with raw rows at its ragged edges. */
  reportMs: number;
  /** The same report from the raw rows alone. */
  rawMs: number;
  /** Rolling one day of the center: its 24 hours from the raw rows, then the day from its hours. */
  rollDayMs: number;
  listed: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** One agent's month: their changes of state and their calls. */
const agentMonth = (index: number, from: number, days: number): { changes: AgentStateChange[]; calls: ProviderCall[] } => {
  const random = createRandom(index + 1);
  const subscriberID = `agt-${String(index).padStart(4, '0')}`;
  const names = { firstName: `First${index}`, lastName: `Last${index}`, extension: String(1000 + index) };
  const changes: AgentStateChange[] = [{ subscriberID, at: from - HOUR, state: 'offline', ...names }];
  const calls: ProviderCall[] = [];
  const state = (at: number, name: string) => changes.push({ subscriberID, at, state: name, ...names });
  for (let day = 0; day < days; day += 1) {
    if ((day + index) % 7 >= 5) continue;
    let at = from + day * DAY + 6 * HOUR + random.int(0, 4 * HOUR);
    const shiftEnd = at + 8 * HOUR;
    state(at, 'available');
    while (true) {
      at += Math.round(random.exponential(4 * 60_000)) + 1000;
      const talk = Math.round(random.exponential(5 * 60_000)) + 5000;
      const ring = random.int(2000, 20_000);
      if (at + ring + talk >= shiftEnd) break;
      const started = at;
      state(at, 'ringing');
      at += ring;
      state(at, 'on-call');
      at += talk;
      state(at, 'available');
      calls.push({
        callID: `${subscriberID}-${calls.length}`,
        providerCallID: `${subscriberID}-${calls.length}@bench`,
        isOutbound: false,
        isMissedCall: false,
        remoteNumber: '15555550100',
        startedAt: started,
        answeredAt: started + ring,
        endedAt: at,
        subscriberID,
      });
    }
    state(shiftEnd, 'offline');
  }
  return { changes, calls };
};

/** Agents whose month is written in one transaction: a few hundred thousand rows. */
const AGENTS_PER_TRANSACTION = 100;

const fill = async (location: HistoryLocation, store: HistoryStore, scope: { accountID: string; applicationID: string; providerID: string }, agents: number, days: number) => {
  const from = NOW - days * DAY;
  const db = await openHistoryDatabase(location);
  let stateRows = 0;
  let calls = 0;
  try {
    for (let first = 0; first < agents; first += AGENTS_PER_TRANSACTION) {
      const months = Array.from({ length: Math.min(AGENTS_PER_TRANSACTION, agents - first) }, (_, i) => agentMonth(first + i, from, days));
      await db.transaction().execute(async (trx) => {
        for (const month of months) await writeAgentStates(trx, scope, month.changes);
      });
      await store.importCalls(scope, months.flatMap((month) => month.calls));
      stateRows += months.reduce((sum, month) => sum + month.changes.length, 0);
      calls += months.reduce((sum, month) => sum + month.calls.length, 0);
    }
  } finally {
    await db.destroy();
  }
  return { stateRows, calls };
};

const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as never;

const medianTime = async (read: () => Promise<AgentTimeRow[]>): Promise<{ ms: number; rows: AgentTimeRow[] }> => {
  let rows: AgentTimeRow[] = [];
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    rows = await read();
    times.push(performance.now() - started);
  }
  return { ms: Math.round(median(times)), rows };
};

const byID = (rows: AgentTimeRow[]) => [...rows].sort((a, b) => (a.subscriberID < b.subscriberID ? -1 : 1));

const measureStore = async (name: string, location: HistoryLocation, agents: number, days: number): Promise<AgentReportTiming> => {
  const store = await HistoryStore.open(location);
  try {
    const scope = { accountID: 'bench', applicationID: 'app', providerID: 'agents' };
    const { stateRows, calls } = await fill(location, store, scope, agents, days);
    await store.refreshStatistics();
    // One day of the center rolled up, as the roller does it in the background.
    const lastDay = NOW - DAY;
    const rollStarted = performance.now();
    for (let start = lastDay; start < NOW; start += HOUR) await store.rollAgentPeriod(scope, { span: 'hour', start, end: start + HOUR }, NOW);
    await store.rollAgentPeriod(scope, { span: 'day', start: lastDay, end: NOW }, NOW);
    const rollDayMs = Math.round(performance.now() - rollStarted);
    const roller = new AgentRollupRoller({ history: store, scope, timeZone: 'UTC', clock: new ManualClock(NOW), retentionDays: 3650, writes: () => true, log: silent });
    while ((await roller.rollOnce()) > 0);
    // A range with ragged edges, mid-shift at both ends.
    const request = { from: NOW - days * DAY + 10.5 * HOUR, to: NOW - 7.25 * HOUR, now: NOW };
    const raw = await medianTime(() => store.agentTime(scope, request));
    const rolled = await medianTime(() => store.agentTimeRolled(scope, request));
    if (!isDeepStrictEqual(byID(rolled.rows), byID(raw.rows))) throw new Error(`${name}: the report read through the rollups differs from the raw read`);
    return { store: name, agents, days, stateRows, calls, reportMs: rolled.ms, rawMs: raw.ms, rollDayMs, listed: rolled.rows.length };
  } finally {
    await store.close();
  }
};

export const agentReportTimings = async (agents = REPORT_AGENTS, days = REPORT_DAYS): Promise<AgentReportTiming[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'callboard-bench-agents-'));
  const rows: AgentReportTiming[] = [];
  try {
    rows.push(await measureStore('embedded (SQLite)', { kind: 'embedded', file: join(dir, 'callboard.db') }, agents, days));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (postgresBinDir()) {
    const postgres = await startThrowawayPostgres({ database: 'callboard_bench_agents' });
    try {
      rows.push(await measureStore('PostgreSQL', { kind: 'postgres', url: postgres.url }, agents, days));
    } finally {
      postgres.stop();
    }
  }
  return rows;
};

export const agentReportSection = (rows: readonly AgentReportTiming[]): string => `The agents report (time per state, calls, occupancy) computed from the journal of agent states and the calls, in a reader thread, as the API runs it (median of ${RUNS}), over 31 days less 10.5 hours at the start and 7.25 at the end. Each agent works 5 days in 7, an 8-hour shift, a call every 10 minutes or so: three changes of state per call. The report reads each agent's sums per rolled day and hour, and the raw rows only at the ragged edges; the raw read (every row of the range) is the reference, and the answers are checked equal. Rolling one day up (24 hours from the raw rows, then the day from its hours) is the background work per day.

| store | agents | window | state changes | calls | report (rolled) | report (raw) | rolling one day | target |
|---|---|---|---|---|---|---|---|---|
${rows
  .map(
    (r) =>
      `| ${r.store} | ${r.listed.toLocaleString('en')} of ${r.agents.toLocaleString('en')} | ${r.days} days | ${r.stateRows.toLocaleString('en')} | ${r.calls.toLocaleString('en')} | ${r.reportMs} ms | ${r.rawMs} ms | ${r.rollDayMs} ms | ≤ 1,000 ms: ${r.reportMs <= 1000 ? 'met' : '**missed**'} |`,
  )
  .join('\n')}`;
