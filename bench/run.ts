/**
 * `npm run bench`: measures the service and the dashboard on this machine and writes
 * bench/RESULTS.md. Every timing stands beside a reference measured in the same run.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { cpus, release, totalmem } from 'node:os';
import { dashboardAtSize, freshness, heapOverTime, initialLoad, launchBrowser } from './dashboard-benchmarks.js';
import { fanIn, listThroughput, makeCallOverhead, type Load, type ThroughputRow } from './http-benchmarks.js';
import { PAST_CAP_LISTS, tenantIsolation, type Latency } from './tenant-benchmarks.js';

const quick = process.argv.includes('--quick');
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ratio = (ours: number, reference: number) => fixed(ours / reference, 2);
const mark = (ok: boolean) => (ok ? 'met' : '**missed**');
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

const chromiumVersion = () => {
  try {
    return execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

const latencyCell = (l: Latency) => `${fixed(l.p50, 2)} / ${fixed(l.p99, 2)} / ${fixed(l.max, 0)} ms${l.failed ? `, ${l.failed} failed` : ''}`;

const loadCell = (load: Load) => `${fixed(load.requestsPerSecond, 0)} req/s, p99 ${load.p99} ms${load.errors ? `, ${load.errors} errors` : ''}`;

const throughputTable = (rows: ThroughputRow[]) =>
  [
    '| live calls | mode | body | service | bare node:http, same bytes | ratio (target ≥ 0.8) |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const value = r.service.requestsPerSecond / r.bare.requestsPerSecond;
      return `| ${r.calls.toLocaleString('en')} | ${r.mode} | ${fixed(r.bodyBytes / 1024, 0)} KiB | ${loadCell(r.service)} | ${loadCell(r.bare)} | ${fixed(value, 2)} ${mark(value >= 0.8)} |`;
    }),
  ].join('\n');

const main = async () => {
  log('building the service and the dashboard');
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });

  log('1. list throughput');
  const throughput = [...(await listThroughput(1000)), ...(await listThroughput(10_000))];
  log('2. fan-in');
  const fan = await fanIn();
  log('3. make-call overhead');
  const make = await makeCallOverhead();
  log("7. one tenant's live list under another tenant's week-long lists");
  const tenants = await tenantIsolation(quick ? 2 : 8);
  const tenantRatio = tenants.fourLists.quiet.roundP99 / tenants.idle.roundP99;

  const browser = await launchBrowser();
  try {
    log('4. dashboard at 1,000 and 10,000 live calls');
    const small = await dashboardAtSize(browser, 1000);
    const large = await dashboardAtSize(browser, 10_000);
    const heapMinutes = quick ? 1 : 5;
    log(`   heap over ${heapMinutes} min of polling`);
    const heap = await heapOverTime(browser, 1000, heapMinutes);
    log('5. initial load');
    const load = await initialLoad(browser);
    log('6. freshness');
    const fresh = await freshness(browser, quick ? 4 : 12);

    const heapFirst = heap.samplesMB[1]?.usedMB ?? NaN;
    const heapLast = heap.samplesMB.at(-1)?.usedMB ?? NaN;
    const heapFlat = heapLast <= heapFirst * 1.15 + 2;
    const overhead = make.service.p50 - make.bare.p50 - make.simulatorMs.p50;

    const report = `# Benchmark results

Written by \`npm run bench\` on ${new Date().toISOString()}; every figure below comes from that run.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${fixed(totalmem() / 2 ** 30, 0)} GiB, Linux ${release()}, Node ${process.version}, ${chromiumVersion()}.
These machines are shared and noisy: read the ratios, which compare with a reference measured in the same run; absolute figures are context.

## 1. List throughput (50 connections, 8 s each)
Reference: a bare \`node:http\` server sending the very same bytes, precomputed (the limit of Node here).

${throughputTable(throughput)}

## 2. Fan-in
${fan.pollers} concurrent pollers for ${fan.seconds} s on one provider (sync every ${fan.syncIntervalMs} ms): ${fan.requests.toLocaleString('en')} list requests served,
**${fan.upstreamFetches} upstream provider fetches** (one per sync interval would be ${fan.seconds * (1000 / fan.syncIntervalMs)}); ${mark(fan.upstreamFetches <= fan.seconds + 2)}.

## 3. Make-call overhead (3,000 calls, 10 connections, against the simulator)
| | p50 | p99 |
|---|---|---|
| our POST (validation, auth, idempotency, simulator) | ${make.service.p50} ms | ${make.service.p99} ms |
| reference: bare Fastify POST parsing JSON, 204 | ${make.bare.p50} ms | ${make.bare.p99} ms |
| the simulator's own placeCall (in process) | ${fixed(make.simulatorMs.p50, 3)} ms | ${fixed(make.simulatorMs.p99, 3)} ms |

Overhead of the service beyond the bare route and the simulator: ${fixed(overhead, 2)} ms at p50 (ratio to the bare route's p50: ${ratio(make.service.p50, make.bare.p50)}); throughput ${fixed(make.service.requestsPerSecond, 0)} vs ${fixed(make.bare.requestsPerSecond, 0)} req/s.

## 4. Dashboard (Debian Chromium, 1440×900, polling every 1 s, 5 % of the calls change per poll)
Reference: the time this page takes to \`JSON.parse\` one poll's body.

| live calls | polls in 30 s | poll arrival → table commit p50 / p95 / max | ratio p50 / parse | long tasks (> 50 ms) | longest task | scroll fps | target |
|---|---|---|---|---|---|---|---|
| 1,000 | ${small.polls} | ${fixed(small.commitP50)} / ${fixed(small.commitP95)} / ${fixed(small.commitMax)} ms | ${ratio(small.commitP50, small.parseReferenceMs)} (parse ${fixed(small.parseReferenceMs)} ms) | ${small.longTasks} | ${fixed(small.longestTask, 0)} ms | ${fixed(small.scrollFps, 0)} | commit < 6 ms: ${mark(small.commitP50 < 6)} |
| 10,000 | ${large.polls} | ${fixed(large.commitP50)} / ${fixed(large.commitP95)} / ${fixed(large.commitMax)} ms | ${ratio(large.commitP50, large.parseReferenceMs)} (parse ${fixed(large.parseReferenceMs)} ms) | ${large.longTasks} | ${fixed(large.longestTask, 0)} ms | ${fixed(large.scrollFps, 0)} | commit < 50 ms: ${mark(large.commitP50 < 50)}; no task > 100 ms: ${mark(large.longestTask <= 100)} |

"Arrival → commit" runs from the moment a changed poll response arrives, through JSON parsing, checking the changed records against the contract, sharing unchanged rows and rendering, to the table's layout effect (Performance API measure \`callboard:poll-to-commit\`).

JS heap after garbage collection, ${heap.calls.toLocaleString('en')} live calls, polling every 1 s for ${heap.minutes} min: ${heap.samplesMB.map((s) => `${s.atSeconds} s: ${fixed(s.usedMB)} MB`).join(', ')}. Flat: ${mark(heapFlat)}.

## 5. Initial load
JavaScript and CSS needed before live data is on screen: **${fixed(load.firstScreenGzipBytes / 1024)} KiB gzip** (target < 200 KiB: ${mark(load.firstScreenGzipBytes < 200 * 1024)}).
${load.files.map((f) => `- ${f.file}: ${fixed(f.gzipBytes / 1024)} KiB`).join('\n')}

First live data on screen ${fixed(load.firstLiveDataMs, 0)} ms after navigation (localhost; reference: loading the 1-request OpenAPI document took ${load.referenceMs} ms, ratio ${ratio(load.firstLiveDataMs, load.referenceMs)}).

## 6. Freshness
From a call's answer in the simulator to "Talking" in the table, default poll interval (${fresh.pollIntervalMs} ms) and sync interval (1,000 ms), ${fresh.samples} calls:
p50 ${fixed(fresh.p50, 0)} ms, p95 ${fixed(fresh.p95, 0)} ms (ratio to the poll interval: ${ratio(fresh.p50, fresh.pollIntervalMs)} / ${ratio(fresh.p95, fresh.pollIntervalMs)}).

## 7. Tenants: one tenant's live list while another runs week-long lists
Two tenants on one service (embedded store). The heavy tenant lists the last 7 days (${tenants.weekCalls.toLocaleString('en')} calls, ${fixed(tenants.fourLists.heavy.bodyBytes / 2 ** 20)} MiB) on several connections at once, each asking again as soon as it has its answer, from a process of its own at a low priority (it stands in for clients on other machines). The quiet tenant polls its live list (100 calls) ${tenants.quietRate} times a second at a steady pace: ${tenants.rounds} rounds of ${tenants.roundSeconds} s alone alternate with ${tenants.rounds} rounds under 4 heavy lists, then one round under ${PAST_CAP_LISTS}. Load average of the machine (1 min, this benchmark included) at the start and end: ${tenants.loadAverage.map((l) => fixed(l, 1)).join(' → ')}.
Reference: the quiet tenant's latency with nobody else on the service. The ratio compares the median of each round's p99, so a burst of the machine's other work spoils one round rather than the figure.

| the heavy tenant | its lists answered / refused 429 (p50 of an answered one) | quiet tenant's list p50 / p99 / max, all polls | p99, median of rounds | ratio to idle (target ≤ 2) |
|---|---|---|---|---|
| idle (reference) | — | ${latencyCell(tenants.idle)} | ${fixed(tenants.idle.roundP99, 2)} ms | 1 |
| 4 lists at once | ${tenants.fourLists.heavy.answered} / ${tenants.fourLists.heavy.refused} (${fixed(tenants.fourLists.heavy.p50, 0)} ms) | ${latencyCell(tenants.fourLists.quiet)} | ${fixed(tenants.fourLists.quiet.roundP99, 2)} ms | ${fixed(tenantRatio, 2)} ${mark(tenantRatio <= 2)} |
| ${PAST_CAP_LISTS} lists at once (past its cap of 16; one round) | ${tenants.pastCap.heavy.answered} / ${tenants.pastCap.heavy.refused} (${fixed(tenants.pastCap.heavy.p50, 0)} ms) | ${latencyCell(tenants.pastCap.quiet)} | ${fixed(tenants.pastCap.quiet.roundP99, 2)} ms | ${ratio(tenants.pastCap.quiet.roundP99, tenants.idle.roundP99)} |

The heavy tenant's lists are read and serialized in a reader thread (below the event loop's priority) and wait their turn there, taking turns with other tenants' reads; past 16 at once it is answered \`429 too_many_heavy_queries\`.
`;
    await writeFile(new URL('./RESULTS.md', import.meta.url), report);
    process.stdout.write(report);
  } finally {
    await browser.close();
  }
};

await main();
