/** HTTP figures: list throughput against the bare limit, fan-in to the provider, make-call overhead. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { ManualClock } from '../src/server/clock.js';
import { createPhoneSystemSimulator } from '../src/server/providers/simulator/phone-system-simulator.js';
import { BENCH_METRICS_TOKEN, BENCH_TOKEN } from './support/bench-token.js';
import { startChild } from './support/child.js';

const LIST_PATH = '/v1/accounts/bench/applications/app/provider/pbx/calls';
const MAKE_PATH = '/v1/accounts/bench/applications/app/providers/pbx/calls';
const auth = { authorization: `Bearer ${BENCH_TOKEN}` };

export interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export const load = async (options: autocannon.Options): Promise<Load> => {
  const result = await autocannon({ connections: 50, ...(options.amount ? {} : { duration: 8 }), ...options });
  const failed = result.errors + result.timeouts + result.non2xx - (options.expectStatus === 304 ? result.non2xx : 0);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: failed };
};

/** Pairs of runs (the service's, the bare server's) behind each 304 row. */
export const NOT_MODIFIED_PAIRS = 3;

/** The run of median throughput, with the errors of every run. */
export const medianLoad = (runs: Load[]): Load => {
  const median = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(runs.length / 2)] as Load;
  return { ...median, errors: runs.reduce((sum, run) => sum + run.errors, 0) };
};

export interface ThroughputRow {
  calls: number;
  mode: 'identity' | 'gzip' | '304';
  bodyBytes: number;
  service: Load;
  bare: Load;
}

declare module 'autocannon' {
  interface Options {
    expectStatus?: number;
  }
}

export type ThroughputMode = ThroughputRow['mode'];

const ALL_MODES: readonly ThroughputMode[] = ['identity', 'gzip', '304'];

/** Our service and a bare node:http server sending the very same bytes, mode by mode (all three unless `only` names some). */
export const listThroughput = async (
  calls: number,
  seconds = 8,
  only: readonly ThroughputMode[] = ALL_MODES,
): Promise<ThroughputRow[]> => {
  const service = await startChild('bench/servers/service-server.ts', ['--provider', 'static', '--calls', String(calls)]);
  const base = `http://127.0.0.1:${service.port}`;
  const first = await fetch(`${base}${LIST_PATH}`, { headers: auth });
  const body = Buffer.from(await first.arrayBuffer());
  const etag = first.headers.get('etag') ?? '';
  const notModified = await fetch(`${base}${LIST_PATH}`, { headers: { ...auth, 'if-none-match': etag } });
  if (notModified.status !== 304) throw new Error(`the service answered a current copy with ${notModified.status}, not 304`);
  // What Node adds to every answer itself (date, connection) is left for the bare server to add.
  const notModifiedHeaders = [...notModified.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)).flat();
  const dir = await mkdtemp(join(tmpdir(), 'callboard-bench-'));
  await writeFile(join(dir, 'body.json'), body);
  await writeFile(join(dir, 'body.json.gz'), gzipSync(body));
  const bare = await startChild('bench/servers/bare-server.ts', [
    'list',
    join(dir, 'body.json'),
    join(dir, 'body.json.gz'),
    etag,
    JSON.stringify(notModifiedHeaders),
  ]);
  const modes = [
    { mode: 'identity' as const, headers: {} },
    { mode: 'gzip' as const, headers: { 'accept-encoding': 'gzip' } },
    { mode: '304' as const, headers: { 'if-none-match': etag }, expectStatus: 304 },
  ].filter(({ mode }) => only.includes(mode));
  const rows: ThroughputRow[] = [];
  try {
    for (const { mode, headers, expectStatus } of modes) {
      const run = (url: string) => load({ url: `${url}${LIST_PATH}`, headers: { ...auth, ...headers }, expectStatus, duration: seconds });
      // A 304 costs a few microseconds: at 60,000-100,000 answers a second, one 8 s window against another on
      // these 2 cores read 0.64-1.11 of each other in repeated runs. Three pairs, their order alternating, and
      // each side's median run, hold the ratio to a few hundredths.
      const pairs = mode === '304' ? NOT_MODIFIED_PAIRS : 1;
      const ours: Load[] = [];
      const limit: Load[] = [];
      for (let pair = 0; pair < pairs; pair += 1) {
        if (pair % 2 === 0) {
          ours.push(await run(base));
          limit.push(await run(`http://127.0.0.1:${bare.port}`));
        } else {
          limit.push(await run(`http://127.0.0.1:${bare.port}`));
          ours.push(await run(base));
        }
      }
      rows.push({ calls, mode, bodyBytes: body.length, service: medianLoad(ours), bare: medianLoad(limit) });
    }
  } finally {
    await Promise.all([service.stop(), bare.stop()]);
  }
  return rows;
};

const providerFetches = async (base: string): Promise<number> => {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
  return Number(/callboard_provider_fetches_total\{[^}]*provider="pbx"\} (\d+)/.exec(text)?.[1] ?? NaN);
};

export interface FanIn {
  pollers: number;
  seconds: number;
  requests: number;
  upstreamFetches: number;
  syncIntervalMs: number;
}

/**
 * 200 pollers on one provider: the provider must still be asked once per sync interval. The
 * simulator's change watch is off, so the sync runs on its interval alone and the count is exact.
 */
export const fanIn = async (seconds = 10): Promise<FanIn> => {
  const service = await startChild('bench/servers/service-server.ts', ['--provider', 'simulator', '--watch', 'off']);
  const base = `http://127.0.0.1:${service.port}`;
  try {
    const before = await providerFetches(base);
    const result = await autocannon({ url: `${base}${LIST_PATH}`, headers: auth, connections: 200, duration: seconds });
    const after = await providerFetches(base);
    return { pollers: 200, seconds, requests: result.requests.total, upstreamFetches: after - before, syncIntervalMs: 1000 };
  } finally {
    await service.stop();
  }
};

export interface MakeCall {
  service: Load;
  bare: Load;
  simulatorMs: { p50: number; p99: number };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** The simulator's own cost of accepting a call, measured in this process. */
const simulatorPlaceCallMs = async (): Promise<{ p50: number; p99: number }> => {
  const clock = new ManualClock(Date.now());
  const simulator = createPhoneSystemSimulator({ clock, seed: 3, name: 'bench', agents: 200 });
  const agent = (await simulator.listSubscribers(AbortSignal.timeout(5000))).find((s) => s.registered && s.active);
  const times: number[] = [];
  for (let i = 0; i < 2000; i += 1) {
    const start = performance.now();
    await simulator.placeCall(
      { providerSubscriberID: agent?.providerSubscriberID ?? '', remoteNumber: '15555550100' },
      AbortSignal.timeout(5000),
    );
    times.push(performance.now() - start);
    clock.advance(50);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
};

/** POST latency of our make-call route against a bare Fastify POST, and the simulator's share. */
export const makeCallOverhead = async (calls = 3000): Promise<MakeCall> => {
  const service = await startChild('bench/servers/service-server.ts', ['--provider', 'simulator', '--agents', '400']);
  const bare = await startChild('bench/servers/bare-server.ts', ['noop']);
  const base = `http://127.0.0.1:${service.port}`;
  try {
    const subscribers = (await (
      await fetch(`${base}/v1/accounts/bench/applications/app/providers/pbx/subscribers`, { headers: auth })
    ).json()) as {
      subscribers: { providerSubscriberID: string; registered: boolean; active: boolean }[];
    };
    const agent = subscribers.subscribers.find((s) => s.registered && s.active);
    const body = JSON.stringify({ providerSubscriberID: agent?.providerSubscriberID, remoteNumber: '15555550100' });
    const post = {
      method: 'POST' as const,
      body,
      headers: { ...auth, 'content-type': 'application/json' },
      connections: 10,
      amount: calls,
    };
    const ours = await load({ url: `${base}${MAKE_PATH}`, ...post });
    const limit = await load({ url: `http://127.0.0.1:${bare.port}/noop`, ...post });
    return { service: ours, bare: limit, simulatorMs: await simulatorPlaceCallMs() };
  } finally {
    await Promise.all([service.stop(), bare.stop()]);
  }
};
