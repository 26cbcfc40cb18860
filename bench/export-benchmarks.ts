/**
 * The whole history out: a million calls exported as CSV and as NDJSON (rows a second, and how far
 * the service's resident memory grows while it streams), and the quiet tenant's live-list p99
 * while another tenant downloads an export, against its idle p99 in alternating rounds.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { HistoryStore } from '../src/server/history/history-store.js';
import type { HistoryLocation } from '../src/server/history/open-history-database.js';
import type { ProviderCall } from '../src/server/providers/phone-system.js';
import { WORKER_BUNDLES_ENV } from '../src/server/worker-thread.js';
import { benchCalls } from './support/bench-calls.js';
import { HEAVY_TENANT_TOKEN, QUIET_TENANT_TOKEN } from './support/bench-token.js';
import { startChild, type Child } from './support/child.js';
import { quantile, quietPolls, QUIET_RATE, sleep, type Answer } from './support/timed-get.js';

const DAY = 86_400_000;
const SPAN = 30 * DAY;
const HEAVY = { accountID: 'heavy', applicationID: 'app', providerID: 'pbx' };
const EXPORT_PATH = '/v1/accounts/heavy/applications/app/provider/pbx/calls/export';
const ROUND_SECONDS = 5;
/** Calls written to the journal per transaction while filling it. */
const FILL_BATCH = 50_000;

/** `count` ended calls spread evenly over the 30 days before `now`, with the fields a real center's calls have. */
const fillJournal = async (location: HistoryLocation, count: number, now: number): Promise<void> => {
  const templates = await benchCalls(500, now);
  const store = await HistoryStore.open(location);
  try {
    for (let first = 0; first < count; first += FILL_BATCH) {
      const calls = Array.from({ length: Math.min(FILL_BATCH, count - first) }, (_, offset): ProviderCall => {
        const i = first + offset;
        const template = templates[i % templates.length] as ProviderCall;
        const startedAt = now - SPAN + Math.floor((i * SPAN) / count);
        return {
          ...template,
          callID: `call-${i}`,
          providerCallID: `call-${i}@pbx.bench`,
          startedAt,
          ...(template.answeredAt === undefined ? {} : { answeredAt: startedAt + 8_000 }),
          endedAt: startedAt + 240_000,
        };
      });
      await store.importCalls(HEAVY, calls);
    }
    await store.refreshStatistics();
  } finally {
    await store.close();
  }
};

/** Each worker thread's entry bundled into one file, as the service's build loads them, so a thread starts as it would in production. */
const bundleWorkers = async (): Promise<{ dir: string; dispose: () => void }> => {
  const dir = mkdtempSync(join('test-results', 'bench-worker-bundles-'));
  const entries = readdirSync('src/server', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('-worker.ts'));
  await build({
    entryPoints: Object.fromEntries(entries.map((file) => [basename(file, '.ts'), join('src/server', file)])),
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['better-sqlite3', 'pg-native'],
    logLevel: 'warning',
  });
  return { dir: join(process.cwd(), dir), dispose: () => rmSync(dir, { recursive: true, force: true }) };
};

/** A process's resident memory now, in MB. */
const rssMB = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

export interface ExportRun {
  format: 'csv' | 'ndjson';
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  firstByteMs: number;
  rssBeforeMB: number;
  rssPeakMB: number;
  rssGrowthMB: number;
}

/** Downloads one export to its end, counting its lines, with the service's RSS sampled every 50 ms. */
const timedExport = (service: Child, query: string, format: 'csv' | 'ndjson'): Promise<ExportRun> =>
  new Promise((resolve, reject) => {
    const rssBeforeMB = rssMB(service.pid);
    let rssPeakMB = rssBeforeMB;
    const sampler = setInterval(() => (rssPeakMB = Math.max(rssPeakMB, rssMB(service.pid))), 50);
    const start = performance.now();
    let firstByteMs = NaN;
    let bytes = 0;
    let lines = 0;
    const req = request(
      {
        host: '127.0.0.1',
        port: service.port,
        path: `${EXPORT_PATH}?${query}&format=${format}`,
        headers: { authorization: `Bearer ${HEAVY_TENANT_TOKEN}` },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`the export answered ${res.statusCode}`));
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - start;
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines += 1;
        });
        res.on('end', () => {
          const seconds = (performance.now() - start) / 1000;
          clearInterval(sampler);
          rssPeakMB = Math.max(rssPeakMB, rssMB(service.pid));
          const rows = format === 'csv' ? lines - 1 : lines;
          resolve({
            format,
            rows,
            bytes,
            seconds,
            rowsPerSecond: rows / seconds,
            firstByteMs,
            rssBeforeMB,
            rssPeakMB,
            rssGrowthMB: rssPeakMB - rssBeforeMB,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });

const p99 = (answers: Answer[]) =>
  quantile(
    answers.map((a) => a.ms).sort((a, b) => a - b),
    0.99,
  );

export interface ListUnderExport {
  rounds: number;
  /** The median over rounds of each round's p99, as the tenants bench gives it. */
  idleP99: number;
  underExportP99: number;
  failed: number;
  /** Bytes of export the heavy tenant received during the loaded rounds, and at what rate. */
  exportMBps: number;
  loadAverage: [number, number];
}

/** The quiet tenant's polls while the heavy tenant, in a process of its own, downloads an export. */
const underExport = async (port: number, query: string) => {
  const client = await startChild('bench/support/export-client.ts', [String(port), `${EXPORT_PATH}?${query}`], { nice: 10 });
  await sleep(1000);
  const start = performance.now();
  const quiet = await quietPolls(port, ROUND_SECONDS, QUIET_TENANT_TOKEN);
  await client.stop();
  const seconds = (performance.now() - start + 1000) / 1000;
  const result = /result (.*)/.exec(client.output())?.[1];
  if (!result) throw new Error('the export client printed no result');
  const { bytes } = JSON.parse(result) as { bytes: number };
  return { quiet, mbps: bytes / 1e6 / seconds };
};

export interface ExportBench {
  store: string;
  calls: number;
  fillSeconds: number;
  headCountMs: number;
  csv: ExportRun;
  ndjson: ExportRun;
  list: ListUnderExport;
}

/** Fills a journal with `calls` calls at `location`, starts the service over it, and measures. */
const exportBench = async (
  store: string,
  location: HistoryLocation,
  calls: number,
  rounds: number,
): Promise<ExportBench> => {
  const now = Date.now();
  const fillStart = performance.now();
  await fillJournal(location, calls, now);
  const fillSeconds = (performance.now() - fillStart) / 1000;
  const bundles = await bundleWorkers();
  process.env[WORKER_BUNDLES_ENV] = bundles.dir;
  const service = await startChild('bench/servers/tenants-server.ts', ['--location', JSON.stringify(location)]);
  try {
    const query = `fromDate=${new Date(now - SPAN - DAY).toISOString()}&toDate=${new Date(now + DAY).toISOString()}`;
    await quietPolls(service.port, 2, QUIET_TENANT_TOKEN);
    const headStart = performance.now();
    const head = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          method: 'HEAD',
          host: '127.0.0.1',
          port: service.port,
          path: `${EXPORT_PATH}?${query}`,
          headers: { authorization: `Bearer ${HEAVY_TENANT_TOKEN}` },
        },
        (res) => {
          res.resume();
          resolve(String(res.headers['callboard-export-calls']));
        },
      );
      req.on('error', reject);
      req.end();
    });
    const headCountMs = performance.now() - headStart;
    if (Number(head) !== calls) throw new Error(`HEAD counted ${head} calls, not ${calls}`);
    const csv = await timedExport(service, query, 'csv');
    const ndjson = await timedExport(service, query, 'ndjson');
    const loadBefore = loadavg()[0] ?? NaN;
    const idle: number[] = [];
    const loaded: number[] = [];
    let failed = 0;
    let mbps = 0;
    for (let round = 0; round < rounds; round += 1) {
      const alone = await quietPolls(service.port, ROUND_SECONDS, QUIET_TENANT_TOKEN);
      idle.push(p99(alone));
      const during = await underExport(service.port, query);
      loaded.push(p99(during.quiet));
      failed += [...alone, ...during.quiet].filter((a) => a.status !== 200).length;
      mbps += during.mbps / rounds;
    }
    const median = (values: number[]) =>
      quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      );
    return {
      store,
      calls,
      fillSeconds,
      headCountMs,
      csv,
      ndjson,
      list: {
        rounds,
        idleP99: median(idle),
        underExportP99: median(loaded),
        failed,
        exportMBps: mbps,
        loadAverage: [loadBefore, loadavg()[0] ?? NaN],
      },
    };
  } finally {
    await service.stop();
    bundles.dispose();
    delete process.env[WORKER_BUNDLES_ENV];
  }
};

/** The measure on the embedded store, then on PostgreSQL when DATABASE_URL is set (a schema of its own, dropped after). */
export const exportRuns = async (calls: number, rounds: number): Promise<ExportBench[]> => {
  const results: ExportBench[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'callboard-export-bench-'));
  try {
    results.push(await exportBench('embedded (SQLite)', { kind: 'embedded', file: join(dir, 'callboard.db') }, calls, rounds));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const url = process.env.DATABASE_URL;
  if (!url) return results;
  const schema = `export_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    results.push(await exportBench('PostgreSQL', { kind: 'postgres', url, schema }, calls, rounds));
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
  return results;
};

const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const count = (n: number) => Math.round(n).toLocaleString('en');
const mark = (ok: boolean) => (ok ? 'met' : '**missed**');

const runRow = (r: ExportBench, e: ExportRun) =>
  `| ${r.store} | ${e.format} | ${count(e.rows)} | ${fixed(e.bytes / 1e6, 0)} MB | ${fixed(e.seconds)} s | ${count(e.rowsPerSecond)} ${mark(e.rowsPerSecond >= 100_000)} | ${fixed(e.firstByteMs, 0)} ms | ${fixed(e.rssBeforeMB, 0)} → ${fixed(e.rssPeakMB, 0)} MB: +${fixed(e.rssGrowthMB)} MB ${mark(e.rssGrowthMB <= 50)} |`;

/** The section of bench/RESULTS.md. */
export const exportSection = (results: readonly ExportBench[]): string =>
  [
    `Every call of a range out as a file, from a journal of ${count(results[0]?.calls ?? 0)} calls over 30 days, downloaded on 127.0.0.1 as fast as the client reads. ` +
      "The service's resident memory (RSS, /proc) is sampled every 50 ms from before the request to the last byte; the export's thread, its connection and the chunks in flight all count in it. " +
      'Targets: ≥ 100,000 rows/s and ≤ 50 MB of growth.',
    '',
    '| store | format | rows | file | time | rows/s | first byte | service RSS |',
    '|---|---|---|---|---|---|---|---|',
    ...results.flatMap((r) => [runRow(r, r.csv), runRow(r, r.ndjson)]),
    '',
    ...results.map(
      (r) =>
        `- ${r.store}: HEAD's count of the range in ${fixed(r.headCountMs, 0)} ms (filled in ${fixed(r.fillSeconds, 0)} s). The quiet tenant's live list (${QUIET_RATE} polls/s, as in section 9), ` +
        `p99 alone ${fixed(r.list.idleP99, 2)} ms, while the heavy tenant downloads a CSV export ${fixed(r.list.underExportP99, 2)} ms: ratio ${fixed(r.list.underExportP99 / r.list.idleP99, 2)} ` +
        `(median of ${r.list.rounds} alternating rounds' p99, ${ROUND_SECONDS} s each; the export ran at ${fixed(r.list.exportMBps)} MB/s; ${r.list.failed} polls failed; load average ${r.list.loadAverage.map((l) => fixed(l)).join(' → ')}).`,
    ),
  ].join('\n');
