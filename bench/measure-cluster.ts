/**
 * Measures a cluster of three instances on one PostgreSQL behind HAProxy (the test bed of the
 * fault tests and `npm run demo:cluster`). At the simulators' default size: provider fetches per
 * sync interval by the whole cluster, leader failover time over 10 kill -9s, and list throughput
 * through the balancer with three instances against one. Then at a large center's size
 * (bench/cluster-benchmarks.ts; 10,000 live calls changing 5 % a second): the checkpoint's size,
 * write time and serialization, the followers' lag behind the leader, the checkpoint bytes read,
 * a restarted instance's catch-up and failover, as a markdown table with each target met or missed.
 * Needs PostgreSQL's and HAProxy's Debian packages and a build (`npm run build`).
 *
 * Run: npx tsx bench/measure-cluster.ts [--quick] [--calls N] [--large-only] [--root DIR]
 *   --quick       shorter windows and fewer kills (a minute or two in all)
 *   --calls N     the large center's live calls (10,000 by default)
 *   --large-only  only the large center's figures
 *   --root DIR    the large center's instances run another checkout's build (a before, to compare)
 */
import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';
import { Cluster, type ClusterInstance } from '../src/testbed/cluster.js';
import { clusterSizeTable, measureClusterAtSize, percentile } from './cluster-benchmarks.js';

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const LARGE_ONLY = args.includes('--large-only');
const CALLS = args.includes('--calls') ? Number(args[args.indexOf('--calls') + 1]) : 10_000;
if (!Number.isInteger(CALLS) || CALLS < 100) throw new Error('--calls: a whole number of at least 100');
const ROOT = args.includes('--root') ? args[args.indexOf('--root') + 1] : undefined;

const KILLS = QUICK ? 3 : 10;
const FETCH_WINDOW_S = QUICK ? 10 : 30;
const LOAD_SECONDS = QUICK ? 5 : 10;
const STALE_AFTER_MS = 8000;
const LARGE = {
  lagSeconds: QUICK ? 10 : 30,
  kills: QUICK ? 2 : 5,
  restarts: QUICK ? 1 : 3,
  depth: QUICK ? 60 : 150,
  checkpointRounds: QUICK ? 3 : 7,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const postgres = await startThrowawayPostgres({ database: 'callboard_bench' });
const load = loadavg()[0]?.toFixed(1);

const large = async () => {
  // pg_stat_statements counts the statements that read the checkpoint: loaded at a restart of the server.
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query("alter system set shared_preload_libraries = 'pg_stat_statements'");
  await admin.end();
  postgres.restart();
  // A database of its own, beside the first: the large center's feed and journal start empty.
  const creator = new pg.Client({ connectionString: postgres.url });
  await creator.connect();
  await creator.query('create database callboard_bench_large');
  await creator.end();
  const figures = await measureClusterAtSize({
    databaseURL: postgres.url.replace(/\/callboard_bench$/, '/callboard_bench_large'),
    calls: CALLS,
    staleAfterMs: STALE_AFTER_MS,
    ...(ROOT === undefined ? {} : { root: ROOT }),
    ...LARGE,
  });
  console.log(
    `\nCluster of 3 instances + HAProxy + PostgreSQL + a center of ${CALLS.toLocaleString('en')} live calls changing 5 % a second, on ${availableParallelism()} cores (load average ${load} at start); staleAfterMs ${STALE_AFTER_MS}${ROOT === undefined ? '' : "; instances from another checkout's build"}\n`,
  );
  console.log(clusterSizeTable(figures, STALE_AFTER_MS));
};

if (LARGE_ONLY) {
  try {
    await large();
  } finally {
    postgres.stop();
  }
  process.exit(0);
}

const db = new pg.Client({ connectionString: postgres.url });
const cluster = await Cluster.start({
  databaseURL: postgres.url,
  staleAfterMs: STALE_AFTER_MS,
  entry: 'built',
  rateLimitPerMinute: 1_000_000,
});

const feed = async () => {
  const { rows } = await db.query<{ leader: string; term: number; taken_at: number }>(
    "select leader, term::int as term, taken_at::float8 as taken_at from sync_feeds where provider_id = 'pbx-main'",
  );
  return rows[0];
};

const fetchesOf = async (instance: ClusterInstance) => {
  const text = await cluster.metrics(instance);
  return text
    .split('\n')
    .filter((line) => line.startsWith('callboard_provider_fetches_total{'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
};

const throughput = async () => {
  const result = await autocannon({
    url: `${cluster.balancerURL}${cluster.callsPath()}`,
    headers: { ...cluster.authorization, 'accept-encoding': 'gzip' },
    connections: 50,
    duration: LOAD_SECONDS,
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
};

const waitUntil = async (check: () => Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(20);
  }
};

try {
  await db.connect();
  await sleep(3000);

  // 1. Fetches: the whole cluster, per sync interval (1 s), and which instances made them.
  const before = await Promise.all(cluster.instances.map(fetchesOf));
  await sleep(FETCH_WINDOW_S * 1000);
  const after = await Promise.all(cluster.instances.map(fetchesOf));
  const perInstance = after.map((count, i) => count - (before[i] ?? 0));
  const total = perInstance.reduce((a, b) => a + b, 0);

  // 2. Failover: kill -9 of the leader to the first sync the new leader committed.
  const failovers: number[] = [];
  for (let i = 0; i < KILLS; i += 1) {
    const start = await feed();
    const victim = cluster.instances.find((instance) => instance.name === start?.leader);
    if (!start || !victim) throw new Error('no leader');
    const killedAt = Date.now();
    cluster.kill(victim);
    let took = 0;
    await waitUntil(async () => {
      const now = await feed();
      if (!now || now.term <= start.term || now.taken_at <= killedAt) return false;
      took = now.taken_at - killedAt;
      return true;
    }, STALE_AFTER_MS * 2);
    failovers.push(took);
    await cluster.startInstance(victim);
    await sleep(1500);
  }

  // 3. Throughput through the balancer: three instances, then one (two stopped, the balancer told by their readiness).
  const three = await throughput();
  const [first, ...others] = cluster.instances;
  for (const instance of others) await cluster.stopInstance(instance);
  await sleep(1500);
  const one = await throughput();
  for (const instance of others) await cluster.startInstance(instance);

  console.log(
    `\nCluster of 3 instances + HAProxy + PostgreSQL + 2 simulator processes on ${availableParallelism()} cores (load average ${load} at start)`,
  );
  console.log(
    `provider fetches in ${FETCH_WINDOW_S} s: ${total} by the whole cluster (${perInstance.join(' / ')} per instance; 2 providers, 1 s interval plus syncs on the simulator's change notices), ${(total / FETCH_WINDOW_S / 2).toFixed(2)} per provider per second`,
  );
  console.log(
    `leader failover over ${KILLS} kill -9s (kill to the new leader's first committed sync): p50 ${percentile(failovers, 0.5)} ms, max ${Math.max(...failovers)} ms (staleAfterMs ${STALE_AFTER_MS}; all: ${failovers.join(', ')})`,
  );
  console.log(
    `list throughput through the balancer, gzip, 50 connections, ${LOAD_SECONDS} s: 3 instances ${three.rps.toFixed(0)} req/s (p99 ${three.p99} ms, ${three.non2xx} non-2xx), 1 instance (${first?.name}) ${one.rps.toFixed(0)} req/s (p99 ${one.p99} ms, ${one.non2xx} non-2xx); ratio ${(three.rps / one.rps).toFixed(2)}`,
  );
} finally {
  await db.end().catch(() => undefined);
  await cluster.stop();
}
try {
  await large();
} finally {
  postgres.stop();
}
