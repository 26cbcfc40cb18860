/**
 * Benchmark child process: the real service on a port, over a chosen provider. It answers the
 * benchmark's questions over IPC: when the sync accepted each change, how many times changes
 * were serialized and compressed, its memory and CPU, and a CPU profile of a window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/server/app.js';
import type { SyncEvent } from '../../src/server/calls/provider-sync.js';
import { ChangeLog, DEFAULT_CHANGE_LOG_LIMITS } from '../../src/server/calls/change-log.js';
import { LiveCalls } from '../../src/server/calls/live-calls.js';
import { serviceConfigSchema } from '../../src/server/config/config-schema.js';
import { HistoryStore } from '../../src/server/history/history-store.js';
import { SharedText } from '../../src/server/http/event-stream.js';
import { webRootIfBuilt } from '../../src/server/http/web-app-plugin.js';
import type { PhoneSystem } from '../../src/server/providers/phone-system.js';
import { QueueBoard } from '../../src/server/queues/queue-board.js';
import { phoneSystemFactory } from '../../src/server/runtime/phone-system-factory.js';
import { systemClock } from '../../src/server/clock.js';
import { BENCH_METRICS_TOKEN, BENCH_TOKEN } from '../support/bench-token.js';
import { benchCalls, changingPhoneSystem, floorPhoneSystem, staticPhoneSystem } from '../support/bench-calls.js';
import { benchQueues, pastQueueCalls, queuesPhoneSystem } from '../support/bench-queues.js';
import { answerQuestions } from '../support/child.js';
import { profileWindow } from '../support/cpu-profile.js';

const arg = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};

/**
 * `static`: the same calls on every poll; `changing`: `--rate` of them change per second; `floor`:
 * `--agents` agents, `--rate` of them changing state per second; `queues`: `--calls` live calls in
 * `--queues` queues over `--agents` agents, `--rate` of the calls changing per second; `simulator`:
 * the real one.
 */
const provider = arg('provider', 'static');
const count = Number(arg('calls', '1000'));
const agents = Number(arg('agents', '200'));
const rate = Number(arg('rate', '0.05'));
const queueCount = Number(arg('queues', '50'));
const queues = provider === 'queues' ? benchQueues(queueCount, agents) : [];
/** `off`: the provider routes its callers by these queues, but the service's config names none (the dashboard shows no Queues panel). */
const configQueues = arg('config-queues', 'on') === 'on';
/** `queues`: the journal holds the calls that ended in this many minutes before the start, as after a while at this pace. */
const pastMinutes = Number(arg('past-minutes', '0'));
/** `off` answers the stream as a service implementing only the spec would: 404, so dashboards poll (today's behaviour). */
const streamOn = arg('stream', 'on') === 'on';
/** `off` hides the simulator's change watch: the service polls it on its interval, as it polls Kamailio. */
const watchOn = arg('watch', 'on') === 'on';

const config = serviceConfigSchema.parse({
  rateLimitPerMinute: 1_000_000,
  metrics: { token: BENCH_METRICS_TOKEN },
  // One token and one address stand for the many dashboards of a center here: the caps that keep
  // one tenant from holding the service are lifted, so what is measured is the service's work.
  limits: {
    connections: 1_000_000,
    connectionsPerAddress: 0,
    requestsPerToken: 100_000,
    streams: 1_000_000,
    streamsPerToken: 100_000,
  },
  accounts: [
    {
      id: 'bench',
      name: 'Bench',
      applications: [
        {
          id: 'app',
          name: 'Bench app',
          providers: [
            {
              id: 'pbx',
              name: 'Bench PBX',
              type: 'simulator',
              // The changing calls leave without an end, as a polled phone system's do: the benchmarks
              // measure lists of `--calls` live calls, so no ended call is kept beside them.
              ...(provider === 'changing' || provider === 'floor' ? { keepEndedMs: 0 } : {}),
              // The floor's registrations are read each second, as its calls are pushed.
              ...(provider === 'floor' ? { presenceIntervalMs: 1000 } : {}),
              // The queues' calls leave the list as they end; the service lists each ended one for a
              // second, so what keeps the queues' figures sees it end.
              ...(provider === 'queues' ? { keepEndedMs: 1000, queues: configQueues ? queues : [] } : {}),
              settings: { seed: 3, agents, control: true },
            },
          ],
        },
      ],
      tokens: [{ name: 'bench', token: BENCH_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
    },
  ],
});

const withoutWatch = (phoneSystem: PhoneSystem): PhoneSystem => {
  const { watchChanges: _hidden, ...polled } = phoneSystem;
  return polled;
};

/**
 * Event-loop time of the work each change brings, by what does it: the queues' figures (each
 * publication of the queue board: taking in the calls, the figures, comparing and, when a queue
 * changed, its `queue-changes` data), the calls' change as the sync makes it (the snapshot's diff and
 * its `changes` data), and the serialization of each log's entry alone.
 */
const work = {
  queuePublishes: 0,
  queuePublishMs: 0,
  queueFigures: 0,
  queueFiguresMs: 0,
  queueSerializeMs: 0,
  callsNextMs: 0,
  callsSerializeMs: 0,
};
const timed = <T>(run: () => T, add: (ms: number) => void): T => {
  const started = performance.now();
  try {
    return run();
  } finally {
    add(performance.now() - started);
  }
};

/** Methods wrapped to be timed, each with its own and its wrapper, so a profile can be taken of the service's own code. */
const wrapped: { on: object; name: string; own: unknown; wrapper: unknown }[] = [];
const wrap = <O extends object, K extends keyof O>(on: O, name: K, wrapper: (own: O[K]) => O[K]) => {
  const own = on[name];
  const entry = { on, name: String(name), own, wrapper: wrapper(own) };
  wrapped.push(entry);
  on[name] = entry.wrapper as O[K];
};
const setWrapped = (timing: boolean) => {
  for (const { on, name, own, wrapper } of wrapped) (on as Record<string, unknown>)[name] = timing ? wrapper : own;
};

interface BoardInside {
  publish: (this: QueueBoard) => void;
  figures: (this: QueueBoard, now: number) => unknown;
  load: (this: QueueBoard) => Promise<void>;
}
const board = QueueBoard.prototype as unknown as BoardInside;
wrap(
  board,
  'publish',
  (publish) =>
    function timedPublish(this: QueueBoard) {
      work.queuePublishes += 1;
      timed(
        () => publish.call(this),
        (ms) => (work.queuePublishMs += ms),
      );
    },
);
// The figures computed anew (a publication or a read finds them computed already at the same second and version of the calls).
wrap(
  board,
  'figures',
  (figures) =>
    function timedFigures(this: QueueBoard, now: number) {
      work.queueFigures += 1;
      return timed(
        () => figures.call(this, now),
        (ms) => (work.queueFiguresMs += ms),
      );
    },
);
/** The queue board's reads of the day from the journal: how long each took, and why one failed. */
const loads: { ms: number; failure?: string }[] = [];
wrap(
  board,
  'load',
  (load) =>
    async function timedLoad(this: QueueBoard) {
      const started = performance.now();
      try {
        await load.call(this);
        loads.push({ ms: performance.now() - started });
      } catch (error) {
        loads.push({ ms: performance.now() - started, failure: (error as Error).message });
        throw error;
      }
    },
);
wrap(
  LiveCalls.prototype,
  'next',
  (next) =>
    function timedNext(this: LiveCalls, ...args: Parameters<LiveCalls['next']>) {
      return timed(
        () => next.apply(this, args),
        (ms) => (work.callsNextMs += ms),
      );
    },
);
/** The calls' change log and the queue board's, known once the service is built. */
const logs: { calls?: ChangeLog | undefined; queues?: ChangeLog | undefined } = {};
wrap(
  ChangeLog.prototype,
  'numbered',
  (numbered) =>
    function timedNumbered(this: ChangeLog, serialize, counts) {
      const add =
        this === logs.calls
          ? (ms: number) => (work.callsSerializeMs += ms)
          : this === logs.queues
            ? (ms: number) => (work.queueSerializeMs += ms)
            : undefined;
      return numbered.call(this, add ? (position) => timed(() => serialize(position), add) : serialize, counts);
    },
);

const calls = provider === 'simulator' || provider === 'floor' ? [] : await benchCalls(count);
// A fresh embedded journal per run, so every benchmark starts from the same empty history.
const dataDir = mkdtempSync(join(tmpdir(), 'callboard-bench-'));
const history = await HistoryStore.open({ kind: 'embedded', file: join(dataDir, 'callboard.db') });
let pastCalls = 0;
if (provider === 'queues' && pastMinutes > 0) {
  // At the provider's pace: a third of its changes are new callers; an agent's call lasts as long as `agents` ÷ the ends a second.
  const perSecond = (count * rate) / 3;
  const past = pastQueueCalls({
    queues,
    agents,
    perSecond,
    minutes: pastMinutes,
    now: Date.now(),
    talkSeconds: (agents * 0.9) / perSecond,
  });
  await history.importCalls({ accountID: 'bench', applicationID: 'app', providerID: 'pbx' }, past);
  pastCalls = past.length;
}
const app = await buildApp({
  config,
  history,
  webRoot: webRootIfBuilt(fileURLToPath(new URL('../../dist/web/', import.meta.url))),
  createPhoneSystem: (providerConfig, scope) => {
    if (provider === 'static') return staticPhoneSystem(calls);
    if (provider === 'changing') return changingPhoneSystem(calls, rate);
    if (provider === 'floor') return floorPhoneSystem(agents, rate);
    if (provider === 'queues') return queuesPhoneSystem({ calls: count, agents, queues, ratePerSecond: rate });
    const simulator = phoneSystemFactory(systemClock)(providerConfig, scope);
    return watchOn ? simulator : withoutWatch(simulator);
  },
});

if (!streamOn) {
  const [handle] = app.server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  app.server.removeAllListeners('request');
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!request.url?.includes('/calls/stream')) return handle?.(request, response);
    response.writeHead(404, { 'content-type': 'application/problem+json' });
    response.end(
      JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'This service does not stream.' }),
    );
  });
}

await app.listen({ port: 0, host: '127.0.0.1' });
await app.providers.syncAll();
const [runtime] = app.providers.all();
logs.calls = (runtime?.sync.live as unknown as { changes?: ChangeLog } | undefined)?.changes;
logs.queues = (runtime?.queues as unknown as { changes?: ChangeLog } | undefined)?.changes;

/**
 * Each change by sequence number: when the sync accepted it (the change log's clock time), and the
 * sizes the change log holds of it, its data and, once a gzip stream sent it, its compressed form.
 * Under the log's own limits this mirrors what the log holds, which memory per stream subtracts.
 */
const logged = new Map<number, { at: number; dataBytes: number; deflatedBytes: number }>();
const retainedLogBytes = () => {
  const { maxAgeMs, maxEntries, maxBytes } = DEFAULT_CHANGE_LOG_LIMITS;
  let entries = 0;
  let dataBytes = 0;
  let retained = 0;
  for (const entry of [...logged.values()].reverse()) {
    entries += 1;
    dataBytes += entry.dataBytes;
    if (entries > maxEntries || dataBytes > maxBytes || entry.at < Date.now() - maxAgeMs) break;
    retained += entry.dataBytes + entry.deflatedBytes;
  }
  return retained;
};

// Subscribed before any stream, so this listener hears each change before a stream writes it.
runtime?.sync.live.subscribe((event: SyncEvent) => {
  if (event.type !== 'changes') return;
  logged.set(event.entry.seq, { at: event.entry.at, dataBytes: Buffer.byteLength(event.entry.data), deflatedBytes: 0 });
});

/**
 * Compressions of stream data, counted by what was compressed: a change (its data is an object)
 * or a snapshot's calls (an array), with the time they took.
 */
const compressions = { changes: 0, snapshots: 0, snapshotMs: 0 };
const deflate = SharedText.prototype.deflate;
SharedText.prototype.deflate = function counted(this: SharedText) {
  const fresh = (this as unknown as { deflated?: Buffer }).deflated === undefined;
  const started = performance.now();
  const out = deflate.call(this);
  if (!fresh) return out;
  if (this.text.startsWith('[')) {
    compressions.snapshots += 1;
    compressions.snapshotMs += performance.now() - started;
  } else {
    compressions.changes += 1;
    const seq = Number(/"cursor":"[^".]+\.(\d+)"/.exec(this.text.slice(0, 160))?.[1]);
    const entry = logged.get(seq);
    if (entry) entry.deflatedBytes = out.length;
  }
  return out;
};

answerQuestions({
  stats: (question) => {
    // Memory read for a per-stream figure is read after a full collection (the process runs with --expose-gc then).
    if (question.gc) (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    return {
      rss: memory.rss,
      /** What JavaScript holds: its heap, and buffers outside it. */
      jsBytes: memory.heapUsed + memory.external,
      logBytes: retainedLogBytes(),
      cpu: process.cpuUsage(),
      loop: performance.eventLoopUtilization(),
      serializations: runtime?.sync.live.serializations ?? 0,
      compressions: { ...compressions },
      lastSeq: [...logged.keys()].at(-1) ?? 0,
      work: { ...work },
      queueLoads: [...loads],
      pastCalls,
      queueChanges: runtime?.queues.position.seq ?? 0,
      agentChanges: runtime?.agents.position.seq ?? 0,
    };
  },
  acceptedAt: (question) => {
    const from = Number(question.fromSeq);
    return [...logged].filter(([seq]) => seq >= from).map(([seq, entry]) => [seq, entry.at]);
  },
  // Without the timing wrappers, whose frames would stand in the profile for the code they time.
  profile: async (question) => {
    setWrapped(false);
    try {
      return await profileWindow(Number(question.ms));
    } finally {
      setWrapped(true);
    }
  },
});

const address = app.server.address();
process.stdout.write(`ready ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on(
  'SIGTERM',
  () =>
    void app.close().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }),
);
