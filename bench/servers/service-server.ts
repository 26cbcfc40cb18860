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
import { DEFAULT_CHANGE_LOG_LIMITS } from '../../src/server/calls/change-log.js';
import { serviceConfigSchema } from '../../src/server/config/config-schema.js';
import { HistoryStore } from '../../src/server/history/history-store.js';
import { SharedText } from '../../src/server/http/event-stream.js';
import { webRootIfBuilt } from '../../src/server/http/web-app-plugin.js';
import type { PhoneSystem } from '../../src/server/providers/phone-system.js';
import { phoneSystemFactory } from '../../src/server/runtime/phone-system-factory.js';
import { systemClock } from '../../src/server/clock.js';
import { BENCH_METRICS_TOKEN, BENCH_TOKEN } from '../support/bench-token.js';
import { benchCalls, changingPhoneSystem, floorPhoneSystem, staticPhoneSystem } from '../support/bench-calls.js';
import { answerQuestions } from '../support/child.js';
import { profileWindow } from '../support/cpu-profile.js';

const arg = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};

/**
 * `static`: the same calls on every poll; `changing`: `--rate` of them change per second; `floor`:
 * `--agents` agents, `--rate` of them changing state per second; `simulator`: the real one.
 */
const provider = arg('provider', 'static');
const count = Number(arg('calls', '1000'));
const agents = Number(arg('agents', '200'));
const rate = Number(arg('rate', '0.05'));
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

const calls = provider === 'simulator' || provider === 'floor' ? [] : await benchCalls(count);
// A fresh embedded journal per run, so every benchmark starts from the same empty history.
const dataDir = mkdtempSync(join(tmpdir(), 'callboard-bench-'));
const app = await buildApp({
  config,
  history: await HistoryStore.open({ kind: 'embedded', file: join(dataDir, 'callboard.db') }),
  webRoot: webRootIfBuilt(fileURLToPath(new URL('../../dist/web/', import.meta.url))),
  createPhoneSystem: (providerConfig, scope) => {
    if (provider === 'static') return staticPhoneSystem(calls);
    if (provider === 'changing') return changingPhoneSystem(calls, rate);
    if (provider === 'floor') return floorPhoneSystem(agents, rate);
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
    };
  },
  acceptedAt: (question) => {
    const from = Number(question.fromSeq);
    return [...logged].filter(([seq]) => seq >= from).map(([seq, entry]) => [seq, entry.at]);
  },
  profile: (question) => profileWindow(Number(question.ms)),
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
