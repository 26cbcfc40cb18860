/**
 * Tenant isolation: one tenant's live-list latency while another tenant runs week-long window
 * lists back to back, against the same tenant's latency with nobody else on the service.
 */
import { loadavg } from 'node:os';
import { QUIET_TENANT_TOKEN } from './support/bench-token.js';
import { startChild } from './support/child.js';
import { quantile, quietPolls, QUIET_RATE, sleep, type Answer } from './support/timed-get.js';

/** Seconds of each round of the quiet tenant's polls. */
const ROUND_SECONDS = 5;

export interface Latency {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
}

const summarize = (answers: Answer[]): Latency => {
  const times = answers.map((a) => a.ms).sort((a, b) => a - b);
  return {
    requests: answers.length,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    max: times.at(-1) ?? NaN,
    failed: answers.filter((a) => a.status !== 200).length,
  };
};

export interface HeavyLoad {
  /** Week-long window lists asked at once, each connection asking again as soon as it has its answer. */
  concurrent: number;
  answered: number;
  /** Answered 429 too_many_heavy_queries. */
  refused: number;
  /** Any other answer than 200 or 429. */
  other: number;
  /** Of the answered lists, from asking to the last byte (waiting for the reader included). */
  p50: number;
  bodyBytes: number;
}

/** The quiet tenant's polls while the heavy tenant, in a process of its own, keeps `concurrent` week-long lists going. */
const underHeavyLists = async (port: number, concurrent: number) => {
  const client = await startChild('bench/support/heavy-tenant-client.ts', [String(port), String(concurrent)], { nice: 10 });
  // The heavy lists are under way before the quiet tenant's polls are counted.
  await sleep(1000);
  const quiet = await quietPolls(port, ROUND_SECONDS, QUIET_TENANT_TOKEN);
  await client.stop();
  const result = /result (.*)/.exec(client.output())?.[1];
  if (!result) throw new Error('the heavy tenant client printed no result');
  return { heavy: { concurrent, ...(JSON.parse(result) as Omit<HeavyLoad, 'concurrent'>) }, quiet };
};

const merge = (parts: HeavyLoad[]): HeavyLoad => {
  const sum = (key: 'answered' | 'refused' | 'other') => parts.reduce((total, part) => total + part[key], 0);
  return {
    concurrent: parts[0]?.concurrent ?? 0,
    answered: sum('answered'),
    refused: sum('refused'),
    other: sum('other'),
    p50: quantile(parts.map((p) => p.p50).sort((a, b) => a - b), 0.5),
    bodyBytes: parts[0]?.bodyBytes ?? 0,
  };
};

/** The quiet tenant's latency in one condition: over all its polls, and the median of each round's p99. */
export interface QuietLatency extends Latency {
  /** Each round's p99, then their median: a burst of the machine's other work spoils one round, not the figure. */
  roundP99: number;
}

const acrossRounds = (rounds: Answer[][]): QuietLatency => ({
  ...summarize(rounds.flat()),
  roundP99: quantile(rounds.map((round) => summarize(round).p99).sort((a, b) => a - b), 0.5),
});

export interface TenantIsolation {
  weekCalls: number;
  quietRate: number;
  rounds: number;
  roundSeconds: number;
  /** The machine's 1-minute load average when the measurement began and ended: how much else was running. */
  loadAverage: [number, number];
  idle: QuietLatency;
  /** The heavy tenant with four week-long lists at once. */
  fourLists: { heavy: HeavyLoad; quiet: QuietLatency };
  /** The heavy tenant asking more at once than its cap of heavy queries: the excess is refused. */
  pastCap: { heavy: HeavyLoad; quiet: QuietLatency };
}

/** More lists at once than a token's cap of heavy queries (16 by default). */
export const PAST_CAP_LISTS = 24;

/**
 * The quiet tenant's list latency alone and while the heavy tenant keeps four week-long window
 * lists going, in alternating rounds so the machine's other work weighs on both alike; then one
 * round with more at a time than its cap.
 */
export const tenantIsolation = async (rounds: number, weekCalls = 9_500): Promise<TenantIsolation> => {
  const service = await startChild('bench/servers/tenants-server.ts', ['--week-calls', String(weekCalls)]);
  try {
    await quietPolls(service.port, 2, QUIET_TENANT_TOKEN);
    const loadBefore = loadavg()[0] ?? NaN;
    const idle: Answer[][] = [];
    const loaded: Answer[][] = [];
    const heavy: HeavyLoad[] = [];
    for (let round = 0; round < rounds; round += 1) {
      idle.push(await quietPolls(service.port, ROUND_SECONDS, QUIET_TENANT_TOKEN));
      const four = await underHeavyLists(service.port, 4);
      loaded.push(four.quiet);
      heavy.push(four.heavy);
    }
    const pastCap = await underHeavyLists(service.port, PAST_CAP_LISTS);
    return {
      weekCalls,
      quietRate: QUIET_RATE,
      rounds,
      roundSeconds: ROUND_SECONDS,
      loadAverage: [loadBefore, loadavg()[0] ?? NaN],
      idle: acrossRounds(idle),
      fourLists: { heavy: merge(heavy), quiet: acrossRounds(loaded) },
      pastCap: { heavy: pastCap.heavy, quiet: acrossRounds([pastCap.quiet]) },
    };
  } finally {
    await service.stop();
  }
};
