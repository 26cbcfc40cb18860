/**
 * `npm run bench`: measures the service and the dashboard on this machine and writes
 * bench/RESULTS.md. Every timing stands beside a reference measured in the same run.
 * `--quick` shortens the long windows (a smoke run; its figures are not the ones to commit).
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem } from 'node:os';
import type { MainThreadBreakdown } from './support/chromium-trace.js';
import type { ProfileSummary } from './support/cpu-profile.js';
import {
  CHANGE_RATE,
  dashboardAtSize,
  freshness,
  heapOverTime,
  initialLoad,
  launchBrowser,
  type DashboardAtSize,
  type Freshness,
  type HeapGrowth,
} from './dashboard-benchmarks.js';
import { fanIn, listThroughput, makeCallOverhead, NOT_MODIFIED_PAIRS, type Load, type ThroughputRow } from './http-benchmarks.js';
import { PAST_CAP_LISTS, tenantIsolation, type Latency } from './tenant-benchmarks.js';
import { fanOut, wireBytes, type Delivery, type FanOut, type WireBytes } from './stream-benchmarks.js';
import { serviceLevelSection, serviceLevelTimings } from './service-level-benchmarks.js';
import { agentReportSection, agentReportTimings, REPORT_AGENTS } from './agent-report-benchmarks.js';
import { intervalReportSection, intervalReportTimings } from './interval-report-benchmarks.js';
import { BOARD_AGENTS, boardAtSize, boardSection } from './board-benchmarks.js';
import { QUEUES_PAST_MINUTES, queuesAtSize, queuesSection } from './queues-benchmarks.js';
import { lighthouseRuns, lighthouseSection } from './lighthouse-benchmarks.js';
import { asteriskFreshness, asteriskReconnect, asteriskRequestsPerMinute, asteriskSection, type AsteriskFreshness } from './asterisk-benchmarks.js';
import { twilioFreshness, twilioRequestsPerList, twilioSection, type TwilioFreshness } from './twilio-benchmarks.js';
import { exportRuns, exportSection } from './export-benchmarks.js';
import { sessionRuns, sessionSection } from './sessions-benchmarks.js';
import { browserPhoneRuns, browserPhoneSection } from './browser-phone-benchmarks.js';

const quick = process.argv.includes('--quick');
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ratio = (ours: number, reference: number) => fixed(ours / reference, 2);
const mark = (ok: boolean) => (ok ? 'met' : '**missed**');
const count = (n: number) => n.toLocaleString('en');
const percent = (share: number) => `${fixed(share * 100, 0)} %`;
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

/** How long each windowed measure runs; the quick run is a smoke test of the bench itself. */
const windows = quick
  ? {
      throughputSeconds: 3,
      fanInSeconds: 5,
      makeCalls: 1000,
      dashboardSeconds: 10,
      heapMinutes: 1,
      freshnessSamples: 4,
      wireSeconds: 10,
      fanOutStreams: 100,
      fanOutFresh: 20,
      fanOutSeconds: 10,
      profileMs: 3000,
      queueRequests: 60,
    }
  : {
      throughputSeconds: 8,
      fanInSeconds: 10,
      makeCalls: 3000,
      dashboardSeconds: 60,
      heapMinutes: 5,
      freshnessSamples: 20,
      wireSeconds: 30,
      fanOutStreams: 1000,
      fanOutFresh: 100,
      fanOutSeconds: 30,
      profileMs: 10_000,
      queueRequests: 300,
    };

const chromiumVersion = () => {
  try {
    return execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

const latencyCell = (l: Latency) => `${fixed(l.p50, 2)} / ${fixed(l.p99, 2)} / ${fixed(l.max, 0)} ms${l.failed ? `, ${l.failed} failed` : ''}`;

const loadCell = (load: Load) =>
  `${fixed(load.requestsPerSecond, 0)} req/s, p99 ${load.p99} ms${load.errors ? `, ${load.errors} errors` : ''}`;

const throughputTable = (rows: ThroughputRow[]) =>
  [
    '| live calls | mode | body | service | bare node:http, same bytes | ratio (target ≥ 0.8) |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const value = r.service.requestsPerSecond / r.bare.requestsPerSecond;
      return `| ${count(r.calls)} | ${r.mode} | ${fixed(r.bodyBytes / 1024, 0)} KiB | ${loadCell(r.service)} | ${loadCell(r.bare)} | ${fixed(value, 2)} ${mark(value >= 0.8)} |`;
    }),
  ].join('\n');

/** The targets of a dashboard row; polling keeps the targets it had before the stream. */
const dashboardTargets = (row: DashboardAtSize) => {
  if (row.transport === 'poll')
    return row.calls <= 1000
      ? `commit < 6 ms: ${mark(row.commitP50 < 6)}`
      : `commit < 50 ms: ${mark(row.commitP50 < 50)}; no task > 100 ms: ${mark(row.longestTask <= 100)}`;
  if (row.calls <= 1000) return `p50 ≤ 3 ms: ${mark(row.commitP50 <= 3)}; no long task: ${mark(row.longTasks === 0)}`;
  return [
    `p50 ≤ 10 ms: ${mark(row.commitP50 <= 10)}`,
    `p95 ≤ 20 ms: ${mark(row.commitP95 <= 20)}`,
    `no long task: ${mark(row.longTasks === 0)}`,
    `≥ 55 fps: ${mark(row.scrollFps >= 55)}`,
  ].join('; ');
};

const dashboardTable = (rows: DashboardAtSize[]) =>
  [
    "| live calls | calls arrive by | table commits | arrival → table commit p50 / p95 / max | the app's measure p50 | a poll from its response's first byte, p50 (the page taking in the body alone) | p50 ÷ parse of one poll | p50 ÷ polling p50 | long tasks (> 50 ms) | longest task | scroll fps | targets |",
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const polled = rows.find((other) => other.calls === row.calls && other.transport === 'poll');
      const versusPoll = row.transport === 'stream' && polled ? ratio(row.commitP50, polled.commitP50) : '(reference)';
      return `| ${count(row.calls)} | ${row.transport === 'stream' ? 'stream' : 'polling every 1 s (today)'} | ${row.updates} in ${row.seconds} s | ${fixed(row.commitP50)} / ${fixed(row.commitP95)} / ${fixed(row.commitMax)} ms | ${fixed(row.latestArrivalP50)} ms | ${row.fromResponseP50 === undefined ? '—' : `${fixed(row.fromResponseP50)} ms (${fixed(row.bodyReferenceMs ?? NaN)} ms)`} | ${ratio(row.commitP50, row.parseReferenceMs)} (parse ${fixed(row.parseReferenceMs)} ms) | ${versusPoll} | ${row.longTasks} | ${fixed(row.longestTask, 0)} ms | ${fixed(row.scrollFps, 0)} | ${dashboardTargets(row)} |`;
    }),
  ].join('\n');

const profileLines = (profile: ProfileSummary) =>
  [
    `busy ${fixed(profile.busyMs / 1000)} s of ${fixed(profile.windowMs / 1000)} s. By function (self time):`,
    ...profile.functions.map((entry) => `  - ${percent(entry.share)} ${entry.name}`),
    `  By file: ${profile.files.map((entry) => `${entry.name} ${percent(entry.share)}`).join(', ')}.`,
  ].join('\n');

const traceLines = (trace: MainThreadBreakdown) =>
  `Chromium trace of the page's main thread over ${fixed(trace.windowMs / 1000, 0)} s of updates, after the measured window: busy ${fixed(trace.busyMs, 0)} ms; layout ${fixed(trace.layoutMs, 0)} ms in ${trace.layouts} layouts (${trace.forcedLayouts} of them forced by script reading a size after a change; longest ${fixed(trace.longestLayoutMs, 0)} ms), style ${fixed(trace.styleMs, 0)} ms, paint ${fixed(trace.paintMs, 0)} ms, garbage collection ${fixed(trace.gcMs, 0)} ms. The page holds ${count(trace.domElements)} elements; the commonest: ${trace.commonestElements.map(([name, n]) => `\`<${name}>\` ${count(n)}`).join(', ')}${trace.longestSelect ? `; the drop-down "${trace.longestSelect.label}" alone has ${count(trace.longestSelect.options)} options` : ''}.`;

const heapIsFlat = (heap: HeapGrowth) => {
  const first = heap.samplesMB[1]?.liveMB ?? NaN;
  const last = heap.samplesMB.at(-1)?.liveMB ?? NaN;
  return last <= first * 1.15 + 2;
};

const heapLine = (heap: HeapGrowth) => {
  const samples = heap.samplesMB.map((s) => `${s.atSeconds} s: ${fixed(s.liveMB)} MB (${fixed(s.usedMB)})`).join(', ');
  const line = `- ${count(heap.calls)} live calls, ${heap.transport === 'stream' ? 'on the stream' : 'polling every 1 s (today)'}, ${heap.minutes} min: ${samples}. Flat (live objects at the end within 15 % + 2 MB of 60 s): ${mark(heapIsFlat(heap))}.`;
  if (heap.grew.length === 0) return line;
  const grew = heap.grew.map((g) => `${g.name} ${g.bytes >= 0 ? '+' : ''}${fixed(g.bytes / 1e6, 2)} MB`).join(', ');
  return `${line} Grew most from 60 s to the end: ${grew}.`;
};

/** Why the stream rows of the dashboard miss what they miss, from the figures and the page's profile. */
const dashboardLimits = (rows: DashboardAtSize[]) => {
  const missed = rows.filter((row) => row.transport === 'stream' && dashboardTargets(row).includes('missed'));
  if (missed.length === 0) return 'Every target of the stream rows is met.';
  return missed
    .map((row) => {
      const polled = rows.find((other) => other.calls === row.calls && other.transport === 'poll');
      const lead = `At ${count(row.calls)} calls the stream's update costs ${ratio(row.commitP50, row.parseReferenceMs)} times this page's parse of one whole poll and ${polled ? ratio(row.commitP50, polled.commitP50) : 'n/a'} times a poll's update.`;
      const trace = row.trace ? `\n\n${traceLines(row.trace)}` : '';
      const profile = row.profile
        ? `\n\nCPU profile of the page over ${fixed(row.profile.windowMs / 1000, 0)} s of updates, ${profileLines(row.profile)}`
        : '';
      return `${lead}${trace}${profile}`;
    })
    .join('\n\n');
};

const freshnessName: Record<Freshness['how'], string> = {
  stream: 'stream; the simulator tells the service of each event',
  'polled-provider': 'stream; the service polls the provider every 1 s (as it polls Kamailio)',
  poll: 'dashboard polling the list every 2 s (today), service syncing every 1 s',
};

const freshnessTarget = (row: Freshness) => {
  if (row.how === 'stream') return `p50 ≤ 150 ms: ${mark(row.p50 <= 150)}; p95 ≤ 300 ms: ${mark(row.p95 <= 300)}`;
  if (row.how === 'polled-provider') return `p95 ≤ sync interval + 300 ms: ${mark(row.p95 <= row.syncIntervalMs + 300)}`;
  return '(reference)';
};

const freshnessTable = (rows: Freshness[]) => {
  const polled = rows.find((row) => row.how === 'poll');
  return [
    '| calls reach the screen by | calls | p50 | p95 | max | p50 ÷ polling p50 | target |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${freshnessName[row.how]} | ${row.samples} | ${fixed(row.p50, 0)} ms | ${fixed(row.p95, 0)} ms | ${fixed(row.max, 0)} ms | ${row.how === 'poll' || !polled ? '—' : ratio(row.p50, polled.p50)} | ${freshnessTarget(row)} |`,
    ),
  ].join('\n');
};

const KIB = 1024;

const wireSection = (wire: WireBytes) => {
  const gzipKiB = wire.gzipBytesPerSecond / KIB;
  return `${count(wire.calls)} live calls, ${percent(CHANGE_RATE)} of them changing per second (${fixed(wire.changesPerSecond)} \`changes\` events a second), one stream read for ${wire.seconds} s; bytes counted on the socket (chunk framing and heartbeats included).

| | per second | ratio to the list polled once a second |
|---|---|---|
| stream, gzip (what browsers ask for) | **${fixed(gzipKiB)} KiB/s** (target ≤ 60 KiB/s: ${mark(gzipKiB <= 60)}) | ${ratio(wire.gzipBytesPerSecond, wire.listGzipBytes)} |
| stream, identity | ${fixed(wire.identityBytesPerSecond / KIB)} KiB/s | ${ratio(wire.identityBytesPerSecond, wire.listIdentityBytes)} |
| reference: one poll of the list (changed every poll at this rate), gzip | ${fixed(wire.listGzipBytes / KIB, 0)} KiB a poll: ${fixed(wire.listGzipBytes / KIB, 0)} KiB/s at 1 s, ${fixed(wire.listGzipBytes / KIB / 2, 0)} KiB/s at the default 2 s | 1 |
| reference: one poll of the list, identity | ${fixed(wire.listIdentityBytes / KIB, 0)} KiB a poll | 1 |`;
};

const deliveryRow = (label: string, d: Delivery) =>
  `| ${label} | ${count(d.changes)} | ${count(d.deliveries)} | ${d.missing} | ${d.p50} / ${d.p99} / ${d.max} ms | ${d.lastStreamP50} / ${d.lastStreamP99} ms | ${fixed(d.serializationsPerChange, 2)} | ${fixed(d.compressionsPerChange, 2)} | ${percent(d.serviceLoopBusy)} / ${percent(d.serviceCpuShare)} | ${percent(d.readersCpuShare)} |`;

const fanOutSection = (fan: FanOut, polling: ThroughputRow | undefined, load: number) => {
  const { many, alone, memory, fresh, resumed } = fan;
  const perSnapshotMs = fresh.snapshotCompressionMs / Math.max(1, fresh.snapshots);
  const limits: string[] = [];
  if (many.p99 > 250)
    limits.push(
      `Delivery p99 is over 250 ms. The service's event loop was busy ${percent(many.serviceLoopBusy)} of the window but got ${percent(many.serviceCpuShare)} of a core's time (the readers ${percent(many.readersCpuShare)}), on ${cpus().length} cores shared with other work (load average ${fixed(load, 1)} after the run): where the loop is busy beyond its CPU time, it waited for a core. Profile of the service over ${fixed(fan.profile.windowMs / 1000, 0)} s with the streams open, ${profileLines(fan.profile)}`,
    );
  if (many.serializationsPerChange > 1.001)
    limits.push('A change was serialized more than once: the change log is not shared by the streams.');
  return `${count(fan.calls)} live calls, ${percent(fan.rate)} changing per second (the provider of section 4), on one service process. ${count(many.streams)} streams on 127.0.0.1, read by 2 reader processes as the dashboard reads (gzip): one alone first (the reference), then ${count(fresh.streams)} opened fresh as new tabs are (a snapshot first), then ${count(resumed.streams)} resumed with \`Last-Event-ID\` as reconnecting tabs are (only the changes since). Every reader splits the stream into events and reads each change's cursor; one in 50 also JSON-parses every event (${count(many.parsedEvents)} events with ${count(many.parsedRecords)} call records parsed whole during the window). Latency runs from the moment the sync accepted a change (the change log's clock time) to the moment a reader parsed the event; ${fan.windowSeconds} s windows.

| streams | changes | deliveries | missed | latency p50 / p99 / max | last stream reached p50 / p99 | serializations per change (target 1) | compressions per change | service: event loop busy / CPU (of a core) | readers' CPU |
|---|---|---|---|---|---|---|---|---|---|
${deliveryRow('1 (reference)', alone)}
${deliveryRow(count(many.streams), many)}

- Each change reaches every stream within p99 ${many.p99} ms (target ≤ 250 ms: ${mark(many.p99 <= 250)}); ${ratio(many.p99, alone.p99)} times the p99 of one stream alone. Serialized ${fixed(many.serializationsPerChange, 2)} times per change (target 1: ${mark(Math.abs(many.serializationsPerChange - 1) < 0.001)}), read from the change log's counter; streams dropped: ${fan.dropped}.
- Memory: RSS ${fixed(memory.rssBeforeMB, 0)} MB before the ${count(resumed.streams)} resumed streams, ${fixed(memory.rssAfterMB, 0)} MB after: **${fixed(memory.rssPerStreamKB, 1)} KiB of RSS per stream**, less the change log's growth meanwhile (${fixed(memory.logGrowthMB, 1)} MB, counted from its entries). JavaScript memory (heap and buffers) given back when all the streams closed: ${fixed(memory.jsPerStreamKB, 1)} KiB per stream; RSS then ${fixed(memory.rssAfterClosingMB, 0)} MB.
- Opening: ${count(fresh.streams)} fresh streams, 20 at a time, took ${fixed(fresh.seconds, 0)} s (first event ${count(fresh.firstEventP50Ms)} ms after the request at p50, ${count(fresh.firstEventMaxMs)} ms at worst; ${fresh.failed} failed); the service compressed ${count(fresh.snapshots)} snapshots of ${count(fan.calls)} calls for them, ${fixed(fresh.snapshotCompressionMs / 1000)} s of its event loop, ${fixed(perSnapshotMs, 0)} ms each: a snapshot is compressed once and shared by every stream opened within a second of it, each then sent the changes since (targets: all ${count(fresh.streams)} open within 3 s, ${mark(fresh.seconds <= 3)}; first event p50 ≤ 300 ms, ${mark(fresh.firstEventP50Ms <= 300)}). Reference: the same readers opening as many streams on a bare node:http server that sends each the service's very opening bytes (its snapshot, compressed once before) and nothing else took ${fixed(fan.freshBare.seconds, 1)} s (first event ${count(fan.freshBare.firstEventP50Ms)} ms at p50, ${count(fan.freshBare.firstEventMaxMs)} ms at worst; ${fan.freshBare.failed} failed): the readers' own floor on this machine. The service's first event p50 is ${ratio(fresh.firstEventP50Ms, fan.freshBare.firstEventP50Ms)} times this floor's. ${count(resumed.streams)} resumed streams took ${fixed(resumed.seconds, 0)} s (first event ${count(resumed.firstEventP50Ms)} ms after the request at p50, ${count(resumed.firstEventMaxMs)} ms at worst: the next change; ${resumed.failed} failed, ${resumed.snapshots} sent a snapshot).
- Reference, polling: at ${count(fan.calls)} calls the list serves ${polling ? fixed(polling.service.requestsPerSecond, 0) : 'n/a'} gzip requests a second (section 1), so one process keeps at most that many dashboards polling once a second, each parsing ${polling ? fixed(polling.bodyBytes / 1024 / 1024, 1) : 'n/a'} MB of JSON per poll.
${limits.length > 0 ? `\n${limits.join('\n\n')}\n` : ''}`;
};

const main = async () => {
  const loadAtStart = loadavg();
  log(`building the service and the dashboard${quick ? ' (quick run: short windows)' : ''}`);
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });

  log('1. list throughput');
  const throughput = [
    ...(await listThroughput(1000, windows.throughputSeconds)),
    ...(await listThroughput(10_000, windows.throughputSeconds)),
  ];
  log('2. fan-in');
  const fan = await fanIn(windows.fanInSeconds);
  log('3. make-call overhead');
  const make = await makeCallOverhead(windows.makeCalls);
  log('7. change stream bytes on the wire');
  const wire = await wireBytes(10_000, CHANGE_RATE, windows.wireSeconds);
  log(`8. fan-out to ${count(windows.fanOutStreams)} streams`);
  const spread = await fanOut({
    streams: windows.fanOutStreams,
    fresh: windows.fanOutFresh,
    profileMs: windows.profileMs,
    calls: 10_000,
    rate: CHANGE_RATE,
    windowSeconds: windows.fanOutSeconds,
    processes: 2,
  });
  log("9. one tenant's live list under another tenant's week-long lists");
  const tenants = await tenantIsolation(quick ? 2 : 8);
  const tenantRatio = tenants.fourLists.quiet.roundP99 / tenants.idle.roundP99;
  log('11. service level and missed callers from the journal');
  const serviceLevels = await serviceLevelTimings();
  log(`16. the agents report: 31 days of ${count(REPORT_AGENTS)} agents`);
  const agentReports = await agentReportTimings();
  log('17. the interval report of 31 days in 20 queues');
  const intervalReports = await intervalReportTimings();
  log('18. the whole history out: a call export');
  const exports = await exportRuns(quick ? 100_000 : 1_000_000, quick ? 1 : 4);
  log("19. people's sessions against tokens");
  const sessions = await sessionRuns(quick ? 3 : 8, quick ? 1 : 3);
  const browserPhones = await browserPhoneRuns(quick ? 5 : 20, quick ? 3 : 10);

  const browser = await launchBrowser();
  try {
    log('4. dashboard at 1,000 and 10,000 live calls, polling and on the stream');
    const dashboard: DashboardAtSize[] = [];
    for (const calls of [1000, 10_000])
      for (const transport of ['poll', 'stream'] as const)
        dashboard.push(
          await dashboardAtSize(browser, calls, transport, {
            seconds: windows.dashboardSeconds,
            ...(transport === 'stream' ? { profileMs: windows.profileMs } : {}),
          }),
        );
    log(`   heap over ${windows.heapMinutes} min, polling and on the stream`);
    const heaps = await Promise.all([
      heapOverTime(browser, 1000, 'poll', windows.heapMinutes),
      heapOverTime(browser, 10_000, 'stream', windows.heapMinutes),
    ]);
    log('5. initial load');
    const load = await initialLoad(browser);
    log('6. freshness');
    const fresh: Freshness[] = [];
    for (const how of ['stream', 'polled-provider', 'poll'] as const)
      fresh.push(await freshness(browser, windows.freshnessSamples, how));
    log('10. the Twilio provider against its double');
    const twilioFresh: TwilioFreshness[] = [];
    for (const how of ['callbacks', 'lists'] as const) twilioFresh.push(await twilioFreshness(browser, windows.freshnessSamples, how));
    const twilioRequests = [await twilioRequestsPerList(50), await twilioRequestsPerList(1000)];
    log('13. the Asterisk provider against its double');
    const asteriskFresh: AsteriskFreshness[] = [];
    for (const how of ['events', 'lists'] as const) asteriskFresh.push(await asteriskFreshness(browser, windows.freshnessSamples, how));
    const asteriskReconnects = await asteriskReconnect(10);
    const asteriskRequests = await asteriskRequestsPerMinute(200);
    log('14. Lighthouse: the three pages, desktop and mobile');
    const lighthouseRows = await lighthouseRuns();
    log(`12. the agent board at ${count(BOARD_AGENTS)} agents`);
    const boards = [
      await boardAtSize(browser, 'live view', { seconds: windows.dashboardSeconds }),
      await boardAtSize(browser, 'wallboard', { seconds: windows.dashboardSeconds }),
    ];
    log('15. queues at 10,000 calls, 2,000 agents and 50 queues');
    const queueWindows = { seconds: windows.dashboardSeconds, rounds: windows.queueRequests };
    const queueRows = [
      await queuesAtSize(browser, { ...queueWindows, pastMinutes: 0, profileMs: windows.profileMs }),
      await queuesAtSize(browser, { ...queueWindows, pastMinutes: 0, configQueues: false }),
      await queuesAtSize(browser, { ...queueWindows, pastMinutes: QUEUES_PAST_MINUTES, profileMs: windows.profileMs }),
    ];

    const overhead = make.service.p50 - make.bare.p50 - make.simulatorMs.p50;
    const gzipAt10k = throughput.find((row) => row.calls === 10_000 && row.mode === 'gzip');
    const loadAtEnd = loadavg();

    const report = `# Benchmark results

Written by \`npm run bench${quick ? ' -- --quick' : ''}\` on ${new Date().toISOString()}; every figure below comes from that run.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${fixed(totalmem() / 2 ** 30, 0)} GiB, Linux ${release()}, Node ${process.version}, ${chromiumVersion()}.
These machines are shared and noisy (load average ${fixed(loadAtStart[0] ?? NaN)} when the run started, ${fixed(loadAtEnd[0] ?? NaN)} when it ended): read the ratios, which compare with a reference measured in the same run; absolute figures are context.

## 1. List throughput (50 connections, ${windows.throughputSeconds} s each)
Reference: a bare \`node:http\` server sending the very same bytes, precomputed (the limit of Node here). A \`304\` row is each side's median of ${NOT_MODIFIED_PAIRS} runs, taken in pairs whose order alternates (service first, then the bare server first): one window against one other varied by a third here.

${throughputTable(throughput)}

## 2. Fan-in
${fan.pollers} concurrent pollers for ${fan.seconds} s on one provider (the simulator, polled every ${fan.syncIntervalMs} ms: its change watch is off here, so the count is exact): ${count(fan.requests)} list requests served,
**${fan.upstreamFetches} upstream provider fetches** (one per sync interval would be ${fan.seconds * (1000 / fan.syncIntervalMs)}); ${mark(fan.upstreamFetches <= fan.seconds + 2)}. With the watch on (sections 4, 6 and 8), the sync also runs on each change the simulator tells of, at most every 100 ms, and at least twice its own work on the last list apart.

## 3. Make-call overhead (${count(windows.makeCalls)} calls, 10 connections, against the simulator)
| | p50 | p99 |
|---|---|---|
| our POST (validation, auth, idempotency, simulator) | ${make.service.p50} ms | ${make.service.p99} ms |
| reference: bare Fastify POST parsing JSON, 204 | ${make.bare.p50} ms | ${make.bare.p99} ms |
| the simulator's own placeCall (in process) | ${fixed(make.simulatorMs.p50, 3)} ms | ${fixed(make.simulatorMs.p99, 3)} ms |

Overhead of the service beyond the bare route and the simulator: ${fixed(overhead, 2)} ms at p50 (ratio to the bare route's p50: ${ratio(make.service.p50, make.bare.p50)}); throughput ${fixed(make.service.requestsPerSecond, 0)} vs ${fixed(make.bare.requestsPerSecond, 0)} req/s.

## 4. Dashboard (Debian Chromium, 1440×900, the built dashboard)
The service runs over a provider whose calls change all the time: every 100 ms, ${percent(CHANGE_RATE / 10)} of the live calls change (a third new calls ringing, a third answered, a third ended), so ${percent(CHANGE_RATE)} change per second and the count stays put. It tells the service of each change, as the simulator does, so the service syncs up to 10 times a second (fewer where a sync's own work takes more than 50 ms: syncs start at least twice that apart) and streams each change; a poller sees a changed list on every poll. This provider rather than the simulator: it holds exactly 1,000 or 10,000 live calls at exactly ${percent(CHANGE_RATE)} a second at any hour (the simulator follows a daily curve and changes at a rate of its own), and it costs the service little itself (it keeps its calls in a map and copies the list for each sync). The simulator drives section 6, where the event it times is its own.

"Polling" is the same dashboard against the same service with the stream answered \`404\`, as a service implementing only the spec answers: the dashboard falls back to polling by itself, here every 1 s (\`?poll=1000\`).
Each row: the first list on screen and 3 s to settle (the first snapshot excepted), then ${windows.dashboardSeconds} s of steady updates, then 5 s of scrolling while updates arrive.

${dashboardTable(dashboard)}

"Arrival → commit" runs from the moment an update's bytes are in the page (a poll's whole body, or a read of the stream holding events), through parsing, checking against the contract, writing into the query cache and rendering, to the table's layout effect. The app marks each arrival (\`callboard:calls-received\`) and measures to the commit from the latest mark (\`callboard:poll-to-commit\`, "the app's measure"); where stream events arrive faster than the page commits them, one commit shows several, so the figures here run from the earliest arrival each commit shows, read from the same marks: the wait of the oldest change on screen. A poll's time from the first byte of its response (its resource timing) adds the body's transfer; beside it, the same page taking in one answer of the list alone, from its first byte to its text (the browser's delivery of the bytes, where no code of the page runs). The reference "parse of one poll" is this page's \`JSON.parse\` of the whole list.

${dashboardLimits(dashboard)}

The page's heap while updates arrive: what live objects (JS and DOM) hold in a V8 heap snapshot, and in brackets the heap's used size right after a forced collection, which also counts what the collector has not reclaimed yet and swings with it:
${heaps.map(heapLine).join('\n')}

## 5. Initial load
JavaScript and CSS needed before live data is on screen: **${fixed(load.firstScreenGzipBytes / 1024)} KiB gzip** (target < 200 KiB: ${mark(load.firstScreenGzipBytes < 200 * 1024)}); on the wire, as the service sent them: **${fixed(load.firstScreenWireBytes / 1024)} KiB**.
${load.files.map((f) => `- ${f.file}: ${fixed(f.gzipBytes / 1024)} KiB gzip; sent ${f.encoding === 'none' ? 'uncompressed' : f.encoding}, ${fixed(f.wireBytes / 1024)} KiB`).join('\n')}

First live data on screen ${fixed(load.firstLiveDataMs, 0)} ms after navigation (localhost; reference: loading the 1-request OpenAPI document took ${load.referenceMs} ms, ratio ${ratio(load.firstLiveDataMs, load.referenceMs)}).

## 6. Freshness: the phone system's event → the pixel
The simulator (60 agents, its default traffic) answers calls placed through the API at a random moment 1 to 3.5 s after they were placed; the delay runs from the answer's time in the simulator (the call's \`answeredAt\`) to the frame in Chromium that paints the row's "Talking" (a \`MutationObserver\` sees the row change; a callback queued from that frame's \`requestAnimationFrame\` stamps it once painted). Calls placed 4 at a time, newest first in the table.

${freshnessTable(fresh)}

## 7. Change stream: bytes on the wire
${wireSection(wire)}

## 8. Change stream fan-out
${fanOutSection(spread, gzipAt10k, loadAtEnd[0] ?? NaN)}

## 9. Tenants: one tenant's live list while another runs week-long lists
Two tenants on one service (embedded store). The heavy tenant lists the last 7 days (${tenants.weekCalls.toLocaleString('en')} calls, ${fixed(tenants.fourLists.heavy.bodyBytes / 2 ** 20)} MiB) on several connections at once, each asking again as soon as it has its answer, from a process of its own at a low priority (it stands in for clients on other machines). The quiet tenant polls its live list (100 calls) ${tenants.quietRate} times a second at a steady pace: ${tenants.rounds} rounds of ${tenants.roundSeconds} s alone alternate with ${tenants.rounds} rounds under 4 heavy lists, then one round under ${PAST_CAP_LISTS}. Load average of the machine (1 min, this benchmark included) at the start and end: ${tenants.loadAverage.map((l) => fixed(l, 1)).join(' → ')}.
Reference: the quiet tenant's latency with nobody else on the service. The ratio compares the median of each round's p99, so a burst of the machine's other work spoils one round rather than the figure.

| the heavy tenant | its lists answered / refused 429 (p50 of an answered one) | quiet tenant's list p50 / p99 / max, all polls | p99, median of rounds | ratio to idle (target ≤ 2) |
|---|---|---|---|---|
| idle (reference) | — | ${latencyCell(tenants.idle)} | ${fixed(tenants.idle.roundP99, 2)} ms | 1 |
| 4 lists at once | ${tenants.fourLists.heavy.answered} / ${tenants.fourLists.heavy.refused} (${fixed(tenants.fourLists.heavy.p50, 0)} ms) | ${latencyCell(tenants.fourLists.quiet)} | ${fixed(tenants.fourLists.quiet.roundP99, 2)} ms | ${fixed(tenantRatio, 2)} ${mark(tenantRatio <= 2)} |
| ${PAST_CAP_LISTS} lists at once (past its cap of 16; one round) | ${tenants.pastCap.heavy.answered} / ${tenants.pastCap.heavy.refused} (${fixed(tenants.pastCap.heavy.p50, 0)} ms) | ${latencyCell(tenants.pastCap.quiet)} | ${fixed(tenants.pastCap.quiet.roundP99, 2)} ms | ${ratio(tenants.pastCap.quiet.roundP99, tenants.idle.roundP99)} |

The heavy tenant's lists are read and serialized in a reader thread (below the event loop's priority) and wait their turn there, taking turns with other tenants' reads; past 16 at once it is answered \`429 too_many_heavy_queries\`.

## 10. The Twilio provider: Twilio's event → the pixel, and requests per list
${twilioSection(twilioFresh, twilioRequests)}

## 11. Service level and missed callers from the journal
${serviceLevelSection(serviceLevels)}

## 12. The agent board at ${count(BOARD_AGENTS)} agents
${boardSection(boards)}

## 13. The Asterisk provider: ARI's event → the pixel, reconnects, and requests per minute
${asteriskSection(asteriskFresh, asteriskReconnects, asteriskRequests)}

## 14. Lighthouse: what a browser downloads, and how soon it shows data
${lighthouseSection(lighthouseRows)}

## 15. Queues at 10,000 calls, 2,000 agents, 50 queues
${queuesSection(queueRows)}

## 16. The agents report: 31 days of ${count(REPORT_AGENTS)} agents
${agentReportSection(agentReports)}

## 17. The interval report: 31 days in quarter hours, 20 queues
${intervalReportSection(intervalReports)}

## 18. The whole history out: a call export
${exportSection(exports)}

## 19. People's sessions against machines' tokens
${sessionSection(sessions)}
## 20. Browsers as phones: ringing, first audio, and the relay's CPU
${browserPhoneSection(browserPhones)}`;
    await writeFile(new URL('./RESULTS.md', import.meta.url), report);
    process.stdout.write(report);
  } finally {
    await browser.close();
  }
};

await main();
