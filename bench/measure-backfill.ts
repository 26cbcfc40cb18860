/**
 * Measures a simulated center's first start as a user runs it: the built service as a process with
 * an empty data directory, one simulator provider at about 1,000 or 10,000 live calls. Times to
 * /healthz, to the first list, to the backfill's end; latency while it fills; peak RSS; the
 * journal's size; then a restart on the same data. Run `npm run build` first, then
 * `npx tsx bench/measure-backfill.ts [1k] [10k] [1k-week]` (all three by default), or
 * `npx tsx bench/measure-backfill.ts sizing` for the calls a day at several settings.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/server/clock.js';
import { createPhoneSystemSimulator } from '../src/server/providers/simulator/phone-system-simulator.js';
import { startBuiltService, type BuiltService } from '../src/testbed/built-service.js';
import { BENCH_TOKEN } from './support/bench-token.js';

interface Scenario {
  /** Agents and traffic: the simulator keeps at least agents × traffic / 4 calls live, more in busy hours. */
  agents: number;
  traffic: number;
  /** The budget of backfilled calls (the service's default when left out). */
  maxCalls?: number;
}

const SCENARIOS: Record<string, Scenario> = {
  '1k': { agents: 1000, traffic: 4 },
  '10k': { agents: 10_000, traffic: 4 },
  '1k-week': { agents: 1000, traffic: 4, maxCalls: 5_000_000 },
};

const SCOPE_PATH = '/v1/accounts/bench/applications/center/provider/pbx';
/** A large journal may take a while to close. */
const STOP_GRACE_MS = 300_000;
const FILLED = /"msg":"the past of the provider is filled/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => Math.round(ms / 100) / 10;
const mb = (bytes: number) => Math.round(bytes / 1_048_576);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

const configFor = (scenario: Scenario) => ({
  accounts: [
    {
      id: 'bench',
      name: 'Bench',
      applications: [
        {
          id: 'center',
          name: 'Center',
          providers: [
            {
              id: 'pbx',
              name: 'PBX',
              type: 'simulator',
              settings: { seed: 7, agents: scenario.agents, traffic: scenario.traffic },
            },
          ],
        },
      ],
      tokens: [{ name: 'bench', token: BENCH_TOKEN, applications: '*', permissions: ['calls:read'] }],
    },
  ],
  ...(scenario.maxCalls ? { history: { backfill: { maxCalls: scenario.maxCalls } } } : {}),
});

/** Kilobytes from a /proc/PID/status line: VmRSS now, VmHWM the peak so far. */
const procStatusKb = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, '') ?? 0);
};

interface Service extends BuiltService {
  started: number;
  /** From the start of the process until /healthz answered. */
  healthyMs: number;
}

/** The built service as a user runs it, without source maps, resolved once /healthz answers. */
const startService = async (scenario: Scenario, dataDir: string): Promise<Service> => {
  const started = performance.now();
  const service = await startBuiltService({ name: 'backfill', config: configFor(scenario), dataDir, logLevel: 'info', sourceMaps: false, until: 'live' });
  return { ...service, started, healthyMs: performance.now() - started };
};

const get = (service: Service, path: string, token = true) =>
  fetch(`${service.url}${path}`, token ? { headers: { authorization: `Bearer ${BENCH_TOKEN}` } } : {});

/** Milliseconds from the process's start until `path` first answers 200. */
const untilOk = async (service: Service, path: string): Promise<number> => {
  for (;;) {
    const res = await get(service, path).catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.status === 200) return performance.now() - service.started;
    await sleep(20);
  }
};

/** Times one request, body included. */
const timed = async (service: Service, path: string, token = true): Promise<number> => {
  const at = performance.now();
  const res = await get(service, path, token);
  await res.arrayBuffer();
  return performance.now() - at;
};

const latency = (samples: number[]) => ({
  p50: Math.round(percentile(samples, 0.5)),
  p99: Math.round(percentile(samples, 0.99)),
  max: Math.round(Math.max(...samples)),
});

const liveCalls = async (service: Service) => {
  const body = (await (await get(service, `${SCOPE_PATH}/calls`)).json()) as { calls: { endedAt?: string }[] };
  return body.calls.filter((call) => call.endedAt === undefined).length;
};

const historyFill = async (service: Service) => {
  const from = new Date(Date.now() - 60_000).toISOString();
  const body = (await (await get(service, `${SCOPE_PATH}/concurrency?fromDate=${from}`)).json()) as { historyFill?: unknown };
  return body.historyFill;
};

const journalBytes = (dataDir: string) =>
  ['callboard.db', 'callboard.db-wal'].reduce((sum, file) => {
    try {
      return sum + statSync(join(dataDir, file)).size;
    } catch {
      return sum;
    }
  }, 0);

const measure = async (name: string, scenario: Scenario) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'callboard-backfill-'));
  try {
    const first = await startService(scenario, dataDir);
    const pid = first.program.pid;
    const { healthyMs } = first;
    const listMs = await untilOk(first, `${SCOPE_PATH}/calls`);
    const rss: number[] = [];
    const during = { health: [] as number[], list: [] as number[] };
    while (!FILLED.test(first.program.output())) {
      rss.push(procStatusKb(pid, 'VmRSS'));
      during.health.push(await timed(first, '/healthz', false));
      during.list.push(await timed(first, `${SCOPE_PATH}/calls`));
      await sleep(200);
    }
    const filledMs = performance.now() - first.started;
    const after = { health: [] as number[], list: [] as number[] };
    for (let i = 0; i < 50; i += 1) {
      after.health.push(await timed(first, '/healthz', false));
      after.list.push(await timed(first, `${SCOPE_PATH}/calls`));
      await sleep(200);
    }
    const fill = await historyFill(first);
    // What an analyst's 7-day view costs on the journal the backfill left.
    const weekFrom = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const weekConcurrencyMs = await timed(first, `${SCOPE_PATH}/concurrency?fromDate=${weekFrom}`);
    const live = await liveCalls(first);
    const peakKb = procStatusKb(pid, 'VmHWM');
    await first.stop(STOP_GRACE_MS);
    const bytes = journalBytes(dataDir);
    const calls = (fill as { calls: number } | undefined)?.calls ?? 0;

    const second = await startService(scenario, dataDir);
    const restartHealthyMs = second.healthyMs;
    const restartListMs = await untilOk(second, `${SCOPE_PATH}/calls`);
    await sleep(5000);
    const restartPeakKb = procStatusKb(second.program.pid, 'VmHWM');
    await second.stop(STOP_GRACE_MS);

    console.log(
      JSON.stringify({
        scenario: name,
        ...scenario,
        liveCalls: live,
        firstStart: {
          healthyS: seconds(healthyMs),
          listS: seconds(listMs),
          backfillDoneS: seconds(filledMs),
          peakRssMB: Math.round(peakKb / 1024),
          medianRssWhileFillingMB: Math.round(percentile(rss, 0.5) / 1024),
          whileFilling: { samples: during.list.length, healthzMs: latency(during.health), listMs: latency(during.list) },
          afterwards: { healthzMs: latency(after.health), listMs: latency(after.list) },
        },
        historyFill: fill,
        journal: {
          MB: mb(bytes),
          bytesPerCall: calls > 0 ? Math.round(bytes / calls) : undefined,
          weekConcurrencyS: seconds(weekConcurrencyMs),
        },
        restart: {
          healthyS: seconds(restartHealthyMs),
          listS: seconds(restartListMs),
          peakRssMB: Math.round(restartPeakKb / 1024),
        },
      }),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

const DAY = 86_400_000;
const SIZING: [agents: number, traffic: number][] = [
  [24, 1],
  [200, 1],
  [1000, 1],
  [1000, 4],
  [10_000, 4],
];

/** Calls that end in one simulated day, and the mean live calls in its quietest and busiest hour (calls counted in the hour they end). */
const dayOf = async (agents: number, traffic: number, day: number) => {
  const sim = createPhoneSystemSimulator({ clock: new ManualClock(day + DAY), seed: 7, name: 'sizing', agents, traffic });
  const liveHours = new Array<number>(24).fill(0);
  let calls = 0;
  for await (const batch of sim.backfill({ since: day - DAY, from: day, to: day + DAY }, new AbortController().signal)) {
    calls += batch.calls.length;
    for (const { startedAt, endedAt = startedAt } of batch.calls) {
      const hour = Math.floor((endedAt - day) / 3_600_000);
      liveHours[hour] = (liveHours[hour] ?? 0) + (endedAt - startedAt) / 3_600_000;
    }
  }
  return { calls, quietLive: Math.round(Math.min(...liveHours)), busyLive: Math.round(Math.max(...liveHours)) };
};

/** A Tuesday and a Sunday per setting; a week counts five weekdays and two Sundays (Saturdays are a little busier). */
const sizing = async () => {
  for (const [agents, traffic] of SIZING) {
    const weekday = await dayOf(agents, traffic, Date.parse('2026-11-17T00:00:00Z'));
    const sunday = await dayOf(agents, traffic, Date.parse('2026-11-22T00:00:00Z'));
    const week = 5 * weekday.calls + 2 * sunday.calls;
    console.log(
      JSON.stringify({
        agents,
        traffic,
        liveWeekday: [weekday.quietLive, weekday.busyLive],
        callsWeekday: weekday.calls,
        callsSunday: sunday.calls,
        callsWeek: week,
      }),
    );
  }
};

const chosen = process.argv.slice(2);
if (chosen[0] === 'sizing') await sizing();
else
  for (const name of chosen.length > 0 ? chosen : Object.keys(SCENARIOS)) {
    const scenario = SCENARIOS[name];
    if (!scenario) throw new Error(`no scenario "${name}": pick from ${Object.keys(SCENARIOS).join(', ')}`);
    await measure(name, scenario);
  }
