/**
 * Change-stream figures over HTTP: bytes on the wire against the bytes of a poll, and fan-out to
 * many streams on one service process (delivery latency, serializations per change, memory per
 * stream), beside one stream alone on the same process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TOKEN } from './support/bench-token.js';
import { startChild, type Child } from './support/child.js';
import type { ProfileSummary } from './support/cpu-profile.js';

const LIST_PATH = '/v1/accounts/bench/applications/app/provider/pbx/calls';
const STREAM_PATH = '/v1/accounts/bench/applications/app/calls/stream?providers=pbx';
const auth = { authorization: `Bearer ${BENCH_TOKEN}` };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ServiceStats {
  rss: number;
  /** JavaScript's heap and the buffers outside it. */
  jsBytes: number;
  /** What the change log holds (changes' data and their compressed form). */
  logBytes: number;
  cpu: { user: number; system: number };
  /** Event-loop time, busy and idle, in ms since the process started. */
  loop: { active: number; idle: number };
  serializations: number;
  compressions: { changes: number; snapshots: number; snapshotMs: number };
  lastSeq: number;
}

interface Opened {
  opened: number;
  failed: number;
  ms: number;
  firstEventP50Ms: number;
  firstEventMaxMs: number;
}

interface Collected {
  histogram: [number, number][];
  slowest: [number, number][];
  deliveries: number;
  missing: number;
  dropped: number;
  wireBytes: number;
  cpuMs: number;
  windowMs: number;
  parsed: { events: number; records: number };
}

const changingService = (calls: number, rate: number, nodeArgs: string[] = []) =>
  startChild(
    'bench/servers/service-server.ts',
    ['--provider', 'changing', '--calls', String(calls), '--rate', String(rate)],
    { nodeArgs },
  );

const startReaders = () => startChild('bench/clients/stream-readers.ts', []);

const openStreams = (
  readers: Child,
  port: number,
  count: number,
  options: { gzip?: boolean; parallel?: number; fullParseEvery?: number; resume?: boolean } = {},
) =>
  readers.ask<Opened>({
    type: 'open',
    url: `http://127.0.0.1:${port}${STREAM_PATH}`,
    token: BENCH_TOKEN,
    count,
    gzip: options.gzip ?? true,
    parallel: options.parallel ?? 1,
    fullParseEvery: options.fullParseEvery ?? 1,
    resume: options.resume ?? false,
  });

/** What a fresh stream is sent up to the end of its snapshot event, uncompressed. */
const openingOfStream = (port: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const request = get(`http://127.0.0.1:${port}${STREAM_PATH}`, { headers: { ...auth, 'accept-encoding': 'identity' } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`the stream answered ${response.statusCode}`));
      // Bytes as latin1 text (one character a byte, and back to the same bytes); the end is looked for in what is new.
      let text = '';
      response.on('data', (chunk: Buffer) => {
        const searchFrom = Math.max(0, text.length - 16);
        text += chunk.toString('latin1');
        const snapshotAt = text.indexOf('event: snapshot\n');
        const end = snapshotAt < 0 ? -1 : text.indexOf('\n\n', Math.max(snapshotAt, searchFrom));
        if (end < 0) return;
        request.destroy();
        resolve(Buffer.from(text.slice(0, end + 2), 'latin1'));
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });

/**
 * The readers' own floor for opening fresh streams: the same readers open the same number of
 * streams, as many at a time, on a bare node:http server that sends each one the service's very
 * opening bytes (its snapshot, compressed once before) and nothing else. What the service's
 * openings take beyond this is its own.
 */
const bareOpenings = async (servicePort: number, count: number, open: (port: number, count: number) => Promise<Opened[]>) => {
  const dir = await mkdtemp(join(tmpdir(), 'callboard-bench-'));
  try {
    const file = join(dir, 'opening.txt');
    await writeFile(file, await openingOfStream(servicePort));
    const bare = await startChild('bench/servers/bare-server.ts', ['stream', file]);
    try {
      return await open(bare.port, count);
    } finally {
      await bare.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** Records on every reader process for `ms`, then matches arrivals with the changes the service accepted meanwhile. */
const recordWindow = async (service: Child, readers: Child[], ms: number) => {
  const before = await service.ask<ServiceStats>({ type: 'stats' });
  await Promise.all(readers.map((r) => r.ask({ type: 'record' })));
  const startedAt = Date.now();
  await pause(ms);
  const after = await service.ask<ServiceStats>({ type: 'stats' });
  const elapsedMs = Date.now() - startedAt;
  const accepted = (await service.ask<[number, number][]>({ type: 'acceptedAt', fromSeq: before.lastSeq + 1 })).filter(
    ([seq]) => seq <= after.lastSeq,
  );
  // Room for the changes accepted last to reach every reader before the count is made.
  await pause(2000);
  const collected = await Promise.all(readers.map((r) => r.ask<Collected>({ type: 'collect', acceptedAt: accepted })));
  return { before, after, elapsedMs, changes: accepted.length, collected };
};

const quantileOfHistogram = (histogram: Map<number, number>, q: number): number => {
  const total = [...histogram.values()].reduce((sum, n) => sum + n, 0);
  let seen = 0;
  for (const [ms, n] of [...histogram].sort((a, b) => a[0] - b[0])) {
    seen += n;
    if (seen > q * total) return ms;
  }
  return NaN;
};

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

export interface Delivery {
  streams: number;
  changes: number;
  deliveries: number;
  /** Deliveries that never came (a change some stream did not receive). */
  missing: number;
  /** Latency from the sync accepting a change to a reader parsing it, over every change and stream. */
  p50: number;
  p99: number;
  max: number;
  /** Per change, the latency to the last stream it reached. */
  lastStreamP50: number;
  lastStreamP99: number;
  serializationsPerChange: number;
  compressionsPerChange: number;
  /** Events the fully parsing readers JSON-parsed, and the call records in them. */
  parsedEvents: number;
  parsedRecords: number;
  serviceCpuShare: number;
  /** Share of the window the service's event loop was busy: above its CPU share, it was waiting for a core. */
  serviceLoopBusy: number;
  readersCpuShare: number;
}

const delivery = (streams: number, window: Awaited<ReturnType<typeof recordWindow>>): Delivery => {
  const histogram = new Map<number, number>();
  const slowest = new Map<number, number>();
  for (const part of window.collected) {
    for (const [ms, n] of part.histogram) histogram.set(ms, (histogram.get(ms) ?? 0) + n);
    for (const [seq, ms] of part.slowest) slowest.set(seq, Math.max(slowest.get(seq) ?? 0, ms));
  }
  const serviceCpuMs =
    (window.after.cpu.user + window.after.cpu.system - window.before.cpu.user - window.before.cpu.system) / 1000;
  const perChange = (n: number) => n / Math.max(1, window.changes);
  return {
    streams,
    changes: window.changes,
    deliveries: window.collected.reduce((sum, part) => sum + part.deliveries, 0),
    missing: window.collected.reduce((sum, part) => sum + part.missing, 0),
    p50: quantileOfHistogram(histogram, 0.5),
    p99: quantileOfHistogram(histogram, 0.99),
    max: Math.max(...histogram.keys()),
    lastStreamP50: quantile([...slowest.values()], 0.5),
    lastStreamP99: quantile([...slowest.values()], 0.99),
    serializationsPerChange: perChange(window.after.serializations - window.before.serializations),
    compressionsPerChange: perChange(window.after.compressions.changes - window.before.compressions.changes),
    parsedEvents: window.collected.reduce((sum, part) => sum + part.parsed.events, 0),
    parsedRecords: window.collected.reduce((sum, part) => sum + part.parsed.records, 0),
    serviceCpuShare: serviceCpuMs / window.elapsedMs,
    serviceLoopBusy:
      (window.after.loop.active - window.before.loop.active) /
      (window.after.loop.active + window.after.loop.idle - window.before.loop.active - window.before.loop.idle),
    readersCpuShare: window.collected.reduce((sum, part) => sum + part.cpuMs / part.windowMs, 0),
  };
};

export interface WireBytes {
  calls: number;
  seconds: number;
  changesPerSecond: number;
  gzipBytesPerSecond: number;
  identityBytesPerSecond: number;
  listGzipBytes: number;
  listIdentityBytes: number;
}

/** Bytes of a list body as sent (fetch would hand them over decompressed). */
const bodyBytes = (url: string, encoding: string) =>
  new Promise<number>((resolve, reject) => {
    get(url, { headers: { ...auth, 'accept-encoding': encoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
    }).on('error', reject);
  });

/** Bytes per second a stream takes on the wire (gzip, as browsers ask, and identity), against the bytes of one poll of the list. */
export const wireBytes = async (calls: number, rate: number, seconds: number): Promise<WireBytes> => {
  const service = await changingService(calls, rate);
  const [gzipped, plain] = await Promise.all([startReaders(), startReaders()]);
  try {
    await openStreams(gzipped, service.port, 1);
    await openStreams(plain, service.port, 1, { gzip: false });
    const window = await recordWindow(service, [gzipped, plain], seconds * 1000);
    const [zipped, identity] = window.collected as [Collected, Collected];
    const url = `http://127.0.0.1:${service.port}${LIST_PATH}`;
    return {
      calls,
      seconds,
      changesPerSecond: (window.changes * 1000) / window.elapsedMs,
      gzipBytesPerSecond: (zipped.wireBytes * 1000) / zipped.windowMs,
      identityBytesPerSecond: (identity.wireBytes * 1000) / identity.windowMs,
      listGzipBytes: await bodyBytes(url, 'gzip'),
      listIdentityBytes: await bodyBytes(url, 'identity'),
    };
  } finally {
    await Promise.all([gzipped.stop(), plain.stop(), service.stop()]);
  }
};

export interface FanOut {
  calls: number;
  rate: number;
  windowSeconds: number;
  alone: Delivery;
  many: Delivery;
  /** Streams opened fresh, each sent a snapshot first. */
  fresh: Openings & { snapshotCompressionMs: number };
  /** The same openings on a bare server sending the same bytes: the readers' and the machine's floor. */
  freshBare: Omit<Openings, 'snapshots'>;
  /** Streams opened with Last-Event-ID, as tabs that reconnect: only the changes since. */
  resumed: Openings;
  memory: {
    rssBeforeMB: number;
    rssAfterMB: number;
    /** RSS grown per resumed stream, less the change log's growth meanwhile. */
    rssPerStreamKB: number;
    logGrowthMB: number;
    /** JavaScript memory given back per stream closed, less the change log's growth meanwhile. */
    jsPerStreamKB: number;
    rssAfterClosingMB: number;
  };
  dropped: number;
  profile: ProfileSummary;
}

/** A round of streams opened over the reader processes, and the snapshots the service sent them. */
export interface Openings {
  streams: number;
  failed: number;
  seconds: number;
  firstEventP50Ms: number;
  firstEventMaxMs: number;
  snapshots: number;
}

const MB = 1024 * 1024;
const outsideLog = (stats: ServiceStats, field: 'rss' | 'jsBytes') => stats[field] - stats.logBytes;
const sum = (opened: Opened[], field: 'opened' | 'failed') => opened.reduce((total, o) => total + o[field], 0);

/** A round of openings over the reader processes, whatever server answered them. */
const opening = (opened: Opened[]): Omit<Openings, 'snapshots'> => ({
  streams: sum(opened, 'opened'),
  failed: sum(opened, 'failed'),
  seconds: Math.max(...opened.map((o) => o.ms)) / 1000,
  firstEventP50Ms: quantile(
    opened.map((o) => o.firstEventP50Ms),
    0.5,
  ),
  firstEventMaxMs: Math.max(...opened.map((o) => o.firstEventMaxMs)),
});

const openings = (opened: Opened[], before: ServiceStats, after: ServiceStats): Openings => ({
  ...opening(opened),
  snapshots: after.compressions.snapshots - before.compressions.snapshots,
});

/** Splits `count` streams over the reader processes. */
const shares = (count: number, processes: number) =>
  Array.from({ length: processes }, (_, index) => Math.floor(count / processes) + (index < count % processes ? 1 : 0));

/**
 * `streams` streams on one service process at `calls` live calls changing at `rate` per second,
 * read by `processes` reader processes. One stream alone first (the reference); then `fresh`
 * streams opened as new tabs do (a snapshot each: what opening costs the service), the rest
 * resumed as reconnecting tabs do (RSS per stream, without the snapshots' passing allocations);
 * all of them for the window; then closed again (what JavaScript gives back per stream).
 */
export const fanOut = async (options: {
  streams: number;
  fresh: number;
  calls: number;
  rate: number;
  windowSeconds: number;
  processes: number;
  profileMs: number;
}): Promise<FanOut> => {
  const { streams, calls, rate, windowSeconds, processes } = options;
  const service = await changingService(calls, rate, ['--expose-gc']);
  const readers = await Promise.all(Array.from({ length: processes }, startReaders));
  const settled = () => service.ask<ServiceStats>({ type: 'stats', gc: true });
  const openOnAll = (count: number, resume: boolean, port = service.port) =>
    Promise.all(
      shares(count, processes).map((share, index) =>
        openStreams(readers[index] as Child, port, share, { parallel: 10, fullParseEvery: 50, resume }),
      ),
    );
  try {
    // The reference first, while the service syncs with no stream open; its streams are closed after.
    const bare = await bareOpenings(service.port, Math.min(options.fresh, streams - 1), (port, count) => openOnAll(count, false, port));
    await Promise.all(readers.map((r) => r.ask({ type: 'close' })));
    await openStreams(readers[0] as Child, service.port, 1);
    await pause(2000);
    const alone = delivery(1, await recordWindow(service, [readers[0] as Child], windowSeconds * 1000));

    const beforeFresh = await settled();
    const fresh = await openOnAll(Math.min(options.fresh, streams - 1), false);
    const afterFresh = await settled();
    await pause(3000);
    const beforeResume = await settled();
    const resumed = await openOnAll(streams - 1 - sum(fresh, 'opened') - sum(fresh, 'failed'), true);
    await pause(3000);
    const afterResume = await settled();
    const added = sum(resumed, 'opened');
    const total = 1 + sum(fresh, 'opened') + added;
    const many = delivery(total, await recordWindow(service, readers, windowSeconds * 1000));
    const profile = await service.ask<ProfileSummary>({ type: 'profile', ms: options.profileMs });

    const open = await settled();
    const dropped = (await Promise.all(readers.map((r) => r.ask<Collected>({ type: 'collect', acceptedAt: [] })))).reduce(
      (n, part) => n + part.dropped,
      0,
    );
    await Promise.all(readers.map((r) => r.ask({ type: 'close' })));
    await pause(3000);
    const closed = await settled();
    return {
      calls,
      rate,
      windowSeconds,
      alone,
      many,
      fresh: {
        ...openings(fresh, beforeFresh, afterFresh),
        snapshotCompressionMs: afterFresh.compressions.snapshotMs - beforeFresh.compressions.snapshotMs,
      },
      freshBare: opening(bare),
      resumed: openings(resumed, beforeResume, afterResume),
      memory: {
        rssBeforeMB: beforeResume.rss / MB,
        rssAfterMB: afterResume.rss / MB,
        rssPerStreamKB: (outsideLog(afterResume, 'rss') - outsideLog(beforeResume, 'rss')) / 1024 / added,
        logGrowthMB: (afterResume.logBytes - beforeResume.logBytes) / MB,
        jsPerStreamKB: (outsideLog(open, 'jsBytes') - outsideLog(closed, 'jsBytes')) / 1024 / total,
        rssAfterClosingMB: closed.rss / MB,
      },
      dropped,
      profile,
    };
  } finally {
    await Promise.all([...readers.map((r) => r.stop()), service.stop()]);
  }
};
