/**
 * A cluster at a large center's size: three instances on one PostgreSQL behind HAProxy, following
 * one phone system that holds `--calls` live calls (10,000 by default) of which `CHANGE_RATE` change
 * each second, served over the simulator's wire by a process of its own (this file, run as
 * `center`: bench section 4's changing provider, which tells of each change as the simulator does).
 *
 * Measured: the checkpoint (its size in the feed, the time a commit with it takes against one
 * without, and what serializing it costs the leader's event loop, in this process, on the same
 * calls); how far behind the leader the followers' streams run (the same change, leader's event to
 * follower's event, p50/p95); how often the whole checkpoint is read out of PostgreSQL, in the
 * steady state and over the restarts (pg_stat_statements, when the server loads it); a restarted
 * instance's catch-up (start to ready, and to a list equal to the leader's: same ETag), once after
 * each failover and once a follower's kill at `depth` changes past the checkpoint; and failover at
 * that size (kill -9 of the leader to the new term, to its first commit, and to every survivor
 * serving it). `bench/measure-cluster.ts` runs it and prints the table.
 *
 * As the center's process: npx tsx bench/cluster-benchmarks.ts center --port P --calls N --rate R
 */
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { ProviderCall } from '../src/server/providers/phone-system.js';
import { startSimulatorServer } from '../src/server/providers/simulator/remote/simulator-server.js';
import { journalBatch } from '../src/server/calls/journal-batch.js';
import { HistoryStore } from '../src/server/history/history-store.js';
import { Cluster, type ClusterInstance } from '../src/testbed/cluster.js';
import { benchCalls, changingPhoneSystem } from './support/bench-calls.js';
import { CHANGE_RATE } from './dashboard-benchmarks.js';

export interface ClusterSizeOptions {
  databaseURL: string;
  /** The checkout whose build runs the instances (this one by default): another one's, for a before and after. */
  root?: string;
  calls: number;
  staleAfterMs: number;
  /** Seconds the followers' lag and the checkpoint reads are watched. */
  lagSeconds: number;
  /** Kills of the leader, each followed by the victim's restart. */
  kills: number;
  /** Kills and restarts of a follower, each once the feed stands `depth` changes past its checkpoint. */
  restarts: number;
  depth: number;
  /** Commits timed with and without a checkpoint. */
  checkpointRounds: number;
}

/** One restart of an instance: start to ready and to a list equal to the leader's, and the changes it had to replay past the checkpoint. */
export interface CatchUp {
  ready: number;
  equal: number;
  behind: number;
  after: 'failover' | 'kill';
}

export interface ClusterSizeFigures {
  calls: number;
  liveCalls: number;
  checkpointBytes: number;
  checkpointStoredBytes: number;
  /** Commit with a checkpoint, and the same commit without: medians, ms. */
  commitWithCheckpointMs: number;
  commitWithoutCheckpointMs: number;
  /** JSON.stringify of the listed calls, median ms: the checkpoint's synchronous part on the leader. */
  serializeMs: number;
  lag: { p50: number; p95: number; max: number; samples: number };
  /** The leader's stream: changes a second, for reference. */
  changesPerSecond: number;
  /** Whole checkpoints read out of PostgreSQL: a second in the steady state, and in all over the restarts (undefined without pg_stat_statements). */
  checkpointReadsPerSecond: number | undefined;
  checkpointReadsOverRestarts: number | undefined;
  catchUps: CatchUp[];
  /** kill -9 to the new term (a survivor took the lock), to its first commit, and to every survivor serving it, ms each. */
  newTerm: number[];
  newLeader: number[];
  whole: number[];
}

const CENTER_ID = 'pbx-main';
const STREAM_PATH = `/v1/accounts/demo/applications/support/calls/stream?providers=${CENTER_ID}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;
const median = (values: number[]) => percentile(values, 0.5);

/** The seq of a stream event's cursor (`c1.` + base64url JSON of `{ provider: "epoch.seq" }`). */
const seqOf = (id: string): number | undefined => {
  if (!id.startsWith('c1.')) return undefined;
  const positions = JSON.parse(Buffer.from(id.slice(3), 'base64url').toString('utf8')) as Record<string, string>;
  const position = positions[CENTER_ID];
  return position === undefined ? undefined : Number(position.split('.').at(-1));
};

const now = () => performance.timeOrigin + performance.now();

/** One instance's change stream, read straight (not through the balancer): when each seq arrived. */
class StreamWatch {
  readonly arrivals = new Map<number, number>();
  latest = -1;
  private readonly abort = new AbortController();

  constructor(url: string, headers: Record<string, string>) {
    this.run(url, headers).catch(() => undefined);
  }

  private async run(url: string, headers: Record<string, string>): Promise<void> {
    const response = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal: this.abort.signal });
    if (!response.body) return;
    const decoder = new TextDecoder();
    let partial = '';
    for await (const chunk of response.body) {
      const at = now();
      const lines = (partial + decoder.decode(chunk as Uint8Array, { stream: true })).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('id: ')) continue;
        const seq = seqOf(line.slice(4));
        if (seq === undefined) continue;
        if (!this.arrivals.has(seq)) this.arrivals.set(seq, at);
        this.latest = Math.max(this.latest, seq);
      }
    }
  }

  stop(): void {
    this.abort.abort();
  }
}

const waitUntil = async (check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await Promise.resolve(check()).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(10);
  }
};

export const measureClusterAtSize = async (options: ClusterSizeOptions): Promise<ClusterSizeFigures> => {
  const cluster = await Cluster.start({
    databaseURL: options.databaseURL,
    staleAfterMs: options.staleAfterMs,
    entry: 'built',
    ...(options.root === undefined ? {} : { root: options.root }),
    rateLimitPerMinute: 1_000_000,
    centers: [
      {
        id: CENTER_ID,
        name: 'Large center',
        control: false,
        // The changing calls leave without an end, as in bench section 4: the lists hold `calls` live calls.
        config: { keepEndedMs: 0 },
        command: (port) => ({
          program: process.execPath,
          args: [
            '--import',
            'tsx',
            fileURLToPath(import.meta.url),
            'center',
            '--port',
            String(port),
            '--calls',
            String(options.calls),
            '--rate',
            String(CHANGE_RATE),
          ],
        }),
      },
    ],
  });
  const db = new pg.Client({ connectionString: options.databaseURL });
  const streams = new Map<ClusterInstance, StreamWatch>();
  const watch = (instance: ClusterInstance) => {
    streams.get(instance)?.stop();
    streams.set(instance, new StreamWatch(`${instance.url}${STREAM_PATH}`, cluster.authorization));
  };
  const listPath = cluster.callsPath(CENTER_ID);
  /** Whether an instance's list is the leader's: the leader answers 304 to the instance's ETag. */
  const sameList = async (instance: ClusterInstance, leader: ClusterInstance) => {
    const tag = (await fetch(`${instance.url}${listPath}`, { method: 'HEAD', headers: cluster.authorization })).headers.get(
      'etag',
    );
    if (!tag) return false;
    const answer = await fetch(`${leader.url}${listPath}`, {
      method: 'HEAD',
      headers: { ...cluster.authorization, 'if-none-match': tag },
    });
    return answer.status === 304;
  };
  try {
    await db.connect();
    const feed = async () =>
      (
        await db.query<{ term: number; seq: number; checkpoint_seq: number; leader: string; bytes: number; stored: number }>(
          `select term::int as term, seq::int as seq, checkpoint_seq::int as checkpoint_seq, leader,
                  octet_length(checkpoint_calls) as bytes, pg_column_size(checkpoint_calls) as stored
             from sync_feeds where provider_id = $1`,
          [CENTER_ID],
        )
      ).rows[0];
    // Statements that carry the checkpoint's calls out of the database, counted by pg_stat_statements
    // (when PostgreSQL was started with it): the read that rebuilds from it, and any that selects every
    // column of the feed. Undefined without the extension.
    const counting = await db.query('create extension if not exists pg_stat_statements').then(
      () => true,
      () => false,
    );
    const resetReads = async () => {
      if (counting) await db.query('select pg_stat_statements_reset()');
    };
    const checkpointReads = async (): Promise<number | undefined> => {
      if (!counting) return undefined;
      const { rows } = await db.query<{ reads: number }>(
        `select coalesce(sum(calls), 0)::int as reads from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database())
            and (query like 'select "checkpoint_calls" from "sync_feeds"%'
              or query like 'select * from "sync_feeds"%'
              or query like 'insert into "sync_feeds"%returning *')`,
      );
      return rows[0]?.reads ?? 0;
    };
    for (const instance of cluster.instances) watch(instance);
    await waitUntil(async () => ((await feed())?.bytes ?? 0) > options.calls * 100, 60_000, 'a first checkpoint');
    await sleep(3000);

    // 1. Followers' lag and the checkpoint reads, in the steady state.
    const leader = await cluster.leaderOf(CENTER_ID);
    await resetReads();
    const lagStart = now();
    const firstSeq = streams.get(leader)?.latest ?? 0;
    await sleep(options.lagSeconds * 1000);
    const lagEnd = now();
    const steadyReads = await checkpointReads();
    const leaderArrivals = streams.get(leader)?.arrivals ?? new Map<number, number>();
    const lags: number[] = [];
    for (const instance of cluster.instances) {
      if (instance === leader) continue;
      for (const [seq, at] of streams.get(instance)?.arrivals ?? []) {
        const leaderAt = leaderArrivals.get(seq);
        if (seq > firstSeq && leaderAt !== undefined && leaderAt >= lagStart && leaderAt < lagEnd) lags.push(at - leaderAt);
      }
    }
    const changes = [...leaderArrivals].filter(([seq, at]) => seq > firstSeq && at < lagEnd).length;
    const seconds = (lagEnd - lagStart) / 1000;

    // 2. The checkpoint: its size, a commit with it against one without (same calls, same change, a feed of its own), its serialization.
    const stored = await feed();
    const center = cluster.simulators.find((simulator) => simulator.id === CENTER_ID);
    const calls = ((await (await fetch(`${center?.url}/v1/calls`)).json()) as { calls: ProviderCall[] }).calls;
    const history = await HistoryStore.open({ kind: 'postgres', url: options.databaseURL });
    const scratch = { accountID: 'bench', applicationID: 'checkpoint', providerID: 'scratch' };
    const feeds = history.syncFeeds('callboard_bench_checkpoint');
    const withCheckpoint: number[] = [];
    const withoutCheckpoint: number[] = [];
    const serialize: number[] = [];
    try {
      const { term } = await feeds.claim(scratch, 'bench', Date.now());
      let seq = 0;
      const commit = async (checkpoint: boolean) => {
        const takenAt = Date.now();
        const upserts = calls.slice(seq % 100, (seq % 100) + 50);
        const started = now();
        await feeds.commit(scratch, term, {
          after: seq,
          takenAt,
          batch: journalBatch(undefined, [], takenAt),
          health: {},
          change: { seq: seq + 1, at: takenAt, data: JSON.stringify({ upserts }), upserts, removed: [] },
          ...(checkpoint ? { checkpoint: calls } : {}),
        });
        seq += 1;
        return now() - started;
      };
      await commit(true);
      for (let round = 0; round < options.checkpointRounds; round += 1) {
        withoutCheckpoint.push(await commit(false));
        withCheckpoint.push(await commit(true));
        const started = now();
        JSON.stringify(calls);
        serialize.push(now() - started);
      }
    } finally {
      await history.close();
    }

    // 3. Failover, and restarts: kill -9 of the leader (the victim restarted), then of a follower once
    // the feed stands `depth` changes past its checkpoint, the most a restarted instance replays.
    const newTerm: number[] = [];
    const newLeader: number[] = [];
    const whole: number[] = [];
    const catchUps: CatchUp[] = [];
    await resetReads();
    const restart = async (victim: ClusterInstance, after: CatchUp['after']) => {
      const row = await feed();
      const startedAt = now();
      await cluster.startInstance(victim);
      const ready = now() - startedAt;
      const leaderNow = await cluster.leaderOf(CENTER_ID);
      await waitUntil(
        () => sameList(victim, leaderNow),
        options.staleAfterMs * 4,
        "the restarted instance's list equal to the leader's",
      );
      catchUps.push({ ready, equal: now() - startedAt, behind: (row?.seq ?? 0) - (row?.checkpoint_seq ?? 0), after });
      watch(victim);
      await sleep(2000);
    };
    for (let kill = 0; kill < options.kills; kill += 1) {
      const before = await feed();
      const victim = cluster.instances.find((instance) => instance.name === before?.leader);
      if (!before || !victim) throw new Error('no leader');
      const killedAt = now();
      cluster.kill(victim);
      streams.get(victim)?.stop();
      let committed: { seq: number } | undefined;
      await waitUntil(
        async () => {
          const row = await feed();
          if (!row || row.term <= before.term) return false;
          if (newTerm.length === newLeader.length) newTerm.push(now() - killedAt);
          if (row.seq <= before.seq) return false;
          committed = row;
          return true;
        },
        options.staleAfterMs * 2,
        'a new leader',
      );
      newLeader.push(now() - killedAt);
      const survivors = cluster.instances.filter((instance) => instance !== victim);
      await waitUntil(
        () => survivors.every((instance) => (streams.get(instance)?.latest ?? -1) >= (committed?.seq ?? 0)),
        options.staleAfterMs * 2,
        'survivors serving the new term',
      );
      whole.push(now() - killedAt);
      await restart(victim, 'failover');
    }
    for (let round = 0; round < options.restarts; round += 1) {
      await waitUntil(
        async () => {
          const row = await feed();
          return row !== undefined && row.seq - row.checkpoint_seq >= options.depth;
        },
        120_000,
        `the feed ${options.depth} changes past its checkpoint`,
      ).catch(() => undefined);
      const leaderNow = await cluster.leaderOf(CENTER_ID);
      const victim = cluster.instances.find((instance) => instance !== leaderNow);
      if (!victim) throw new Error('no follower');
      cluster.kill(victim);
      streams.get(victim)?.stop();
      await restart(victim, 'kill');
    }
    const restartReads = await checkpointReads();

    return {
      calls: options.calls,
      liveCalls: calls.length,
      checkpointBytes: stored?.bytes ?? 0,
      checkpointStoredBytes: stored?.stored ?? 0,
      commitWithCheckpointMs: median(withCheckpoint),
      commitWithoutCheckpointMs: median(withoutCheckpoint),
      serializeMs: median(serialize),
      lag: { p50: percentile(lags, 0.5), p95: percentile(lags, 0.95), max: Math.max(...lags), samples: lags.length },
      changesPerSecond: changes / seconds,
      checkpointReadsPerSecond: steadyReads === undefined ? undefined : steadyReads / seconds,
      checkpointReadsOverRestarts: restartReads,
      catchUps,
      newTerm,
      newLeader,
      whole,
    };
  } finally {
    for (const stream of streams.values()) stream.stop();
    await db.end().catch(() => undefined);
    await cluster.stop();
  }
};

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;
const mark = (met: boolean) => (met ? 'met' : '**missed**');

/** The figures as a markdown table, each beside its target, met or missed. */
export const clusterSizeTable = (f: ClusterSizeFigures, staleAfterMs: number): string => {
  const half = staleAfterMs / 2;
  const checkpointCost = f.commitWithCheckpointMs - f.commitWithoutCheckpointMs;
  const restarts = f.catchUps.length;
  const catchUp = f.catchUps.map(
    (c) =>
      `${ms(c.ready)} / ${ms(c.equal)} (${c.behind} changes past the checkpoint, after ${c.after === 'failover' ? 'a failover' : 'a kill'})`,
  );
  const rows: [string, string, string, boolean | undefined][] = [
    [
      'checkpoint in the feed',
      `${mib(f.checkpointBytes)} of JSON (${mib(f.checkpointStoredBytes)} stored), ${f.liveCalls.toLocaleString('en')} calls`,
      '≤ 4 MiB at 10,000 calls',
      f.checkpointBytes <= 4 * 1024 * 1024 * (f.liveCalls / 10_000),
    ],
    [
      'commit with a checkpoint, median',
      `${ms(f.commitWithCheckpointMs)} (the same commit without: ${ms(f.commitWithoutCheckpointMs)})`,
      '≤ 1 s more, the sync interval',
      checkpointCost <= 1000,
    ],
    ["checkpoint serialized on the leader's event loop, median", ms(f.serializeMs), '≤ 50 ms (a long task)', f.serializeMs <= 50],
    [
      'followers behind the leader, the same change on their streams',
      `p50 ${ms(f.lag.p50)}, p95 ${ms(f.lag.p95)}, max ${ms(f.lag.max)} (${f.lag.samples} changes seen by 2 followers; the leader made ${f.changesPerSecond.toFixed(1)} a second)`,
      'p95 ≤ 500 ms',
      f.lag.p95 <= 500,
    ],
    [
      'whole checkpoints read from PostgreSQL, steady state',
      f.checkpointReadsPerSecond === undefined
        ? 'not counted (no pg_stat_statements)'
        : `${f.checkpointReadsPerSecond.toFixed(2)} a second`,
      '0 (read only to rebuild)',
      f.checkpointReadsPerSecond === undefined ? undefined : f.checkpointReadsPerSecond === 0,
    ],
    [
      'whole checkpoints read over the failovers and restarts',
      f.checkpointReadsOverRestarts === undefined
        ? 'not counted (no pg_stat_statements)'
        : `${f.checkpointReadsOverRestarts} for ${restarts} restarts`,
      '≤ 1 per restart',
      f.checkpointReadsOverRestarts === undefined ? undefined : f.checkpointReadsOverRestarts <= restarts,
    ],
    [
      "restarted instance: start to ready / to a list equal to the leader's",
      catchUp.join('; '),
      `≤ ${ms(half)} from ready to equal`,
      f.catchUps.every((c) => c.equal - c.ready <= half),
    ],
    [
      'failover: kill -9 to the new term (a survivor took the lock)',
      `max ${ms(Math.max(...f.newTerm))} (${f.newTerm.map(ms).join(', ')})`,
      'reference',
      undefined,
    ],
    [
      "failover: kill -9 to the new term's first commit",
      `max ${ms(Math.max(...f.newLeader))} (${f.newLeader.map(ms).join(', ')})`,
      `≤ ${ms(half)} (staleAfterMs / 2)`,
      Math.max(...f.newLeader) <= half,
    ],
    [
      'failover: kill -9 to every survivor serving it',
      `max ${ms(Math.max(...f.whole))} (${f.whole.map(ms).join(', ')})`,
      `≤ ${ms(half)} (staleAfterMs / 2)`,
      Math.max(...f.whole) <= half,
    ],
  ];
  return [
    '| figure | result | target | |',
    '|---|---|---|---|',
    ...rows.map(
      ([figure, result, target, met]) => `| ${figure} | ${result} | ${target} | ${met === undefined ? '' : mark(met)} |`,
    ),
  ].join('\n');
};

/** The center's process: `--calls` live calls changing at `--rate` a second, on the simulator's wire. */
const serveCenter = async (args: string[]) => {
  const flag = (name: string, fallback: number) => {
    const index = args.indexOf(name);
    return index >= 0 ? Number(args[index + 1]) : fallback;
  };
  const count = flag('--calls', 10_000);
  const phoneSystem = changingPhoneSystem(await benchCalls(count), flag('--rate', CHANGE_RATE));
  const server = await startSimulatorServer({
    phoneSystem,
    center: {
      name: 'Large center',
      seed: 0,
      dialMode: 'direct',
      agents: count,
      traffic: 1,
      speed: 1,
      keepEndedMs: 0,
      emailDomain: 'bench.example',
      recordedCalls: 0,
      control: false,
    },
    host: '127.0.0.1',
    port: flag('--port', 0),
    onInternalError: (error) => process.stderr.write(`center: ${(error as Error).stack ?? String(error)}\n`),
  });
  process.stdout.write(`center of ${count} live calls on ${server.url}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
};

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'center') await serveCenter(process.argv.slice(3));
