/**
 * Queues at a large center's size: 10,000 live calls in 50 queues over 2,000 agents, 5 % of the
 * calls changing each second. What each update of the queues' figures costs the live view from its
 * arrival to the Queues panel's commit (the app's `callboard:queues-to-commit`), with the long
 * tasks meanwhile; what keeping the figures costs the service per change, beside the calls' own
 * change; and how long `GET .../queues` takes, beside a reference request.
 */
import { request, Agent, type OutgoingHttpHeaders } from 'node:http';
import type { Browser } from '@playwright/test';
import { AGENTS_NEEDED_MINUTES } from '../src/contract/queues.js';
import { parseReferenceMs, profilePage } from './dashboard-benchmarks.js';
import { BENCH_TOKEN } from './support/bench-token.js';
import { traceMainThread, type MainThreadBreakdown } from './support/chromium-trace.js';
import { startChild } from './support/child.js';
import type { ProfileSummary } from './support/cpu-profile.js';
import { quantile as sortedQuantile, sleep } from './support/timed-get.js';

export const QUEUES_CALLS = 10_000;
export const QUEUES_AGENTS = 2000;
export const QUEUES_COUNT = 50;
export const QUEUES_CHANGE_RATE = 0.05;
/**
 * The queue board keeps each ended call this long (the window of `agentsNeeded`, and a minute):
 * a service that has run that long at this pace holds them all. The journal of the second run is
 * filled with that many minutes of calls before the service starts, as after a restart.
 */
export const QUEUES_PAST_MINUTES = AGENTS_NEEDED_MINUTES + 1;

const PROVIDER_PATH = '/v1/accounts/bench/applications/app/provider/pbx';
const QUEUES_PATH = `${PROVIDER_PATH}/queues`;
const CALLS_PATH = `${PROVIDER_PATH}/calls`;
const HEALTH_PATH = '/healthz';

interface Work {
  queuePublishes: number;
  /** Event-loop ms in the window. */
  queuePublishMs: number;
  /** The figures computed anew (in publications and reads), and their time. */
  queueFigures: number;
  queueFiguresMs: number;
  queueSerializeMs: number;
  callsNextMs: number;
  callsSerializeMs: number;
}

interface ServiceStats {
  cpu: { user: number; system: number };
  loop: { active: number; idle: number };
  lastSeq: number;
  work: Work;
  queueChanges: number;
  agentChanges: number;
  queueLoads: { ms: number; failure?: string }[];
  pastCalls: number;
}

export interface Latency {
  requests: number;
  p50: number;
  p95: number;
  max: number;
  bytes: number;
}

export interface QueuesAtSize {
  /** Whether the service's config names the queues; without, the same calls and no Queues panel (the page's reference). */
  configQueues: boolean;
  /** Minutes of ended calls in the journal at the start (0: a fresh journal). */
  pastMinutes: number;
  /** Ended calls the journal held at the start, and how long the queue board took to read its day from it. */
  pastCalls: number;
  loadMs: number;
  calls: number;
  agents: number;
  queues: number;
  seconds: number;
  /** Panel commits after queue events arrived. */
  updates: number;
  /** From the earliest queue event a commit shows (the wait of the oldest figures on screen). */
  commitP50: number;
  commitP95: number;
  commitMax: number;
  /** The app's own measure, from the latest queue event before the commit. */
  latestP50: number;
  longTasks: number;
  longestTask: number;
  /** The calls table and the agent board on the same page, the same window: the app's measures, p50. */
  callsCommitP50: number;
  boardCommitP50: number;
  /** This page's JSON.parse of the whole figures (GET .../queues): the per-machine reference. */
  parseReferenceMs: number;
  /** The service's work in the window (`Work`: publications, figures and serializing, in event-loop ms). */
  service: Work & {
    windowMs: number;
    /** `changes` events of the calls, `queue-changes` and `agent-changes` numbered in the window. */
    callChanges: number;
    queueChanges: number;
    agentChanges: number;
    /** The service's CPU time (user and system, all its threads) and event-loop busy time in the window. */
    cpuMs: number;
    loopMs: number;
  };
  /** Sequential requests on one keep-alive connection, after a warm-up, in turns. */
  latency: { queues: Latency; health: Latency; notModified: Latency & { changed: number } };
  /** What one answer of GET .../queues held at the end. */
  figures: { waiting: number; talking: number; offeredToday: number; belowTarget: number };
  /** Where the time went after the measured window: the service's CPU profile, the page's trace and profile. */
  serviceProfile?: ProfileSummary;
  pageTrace?: MainThreadBreakdown;
  pageProfile?: ProfileSummary;
}

const quantile = (values: number[], q: number) =>
  sortedQuantile(
    [...values].sort((a, b) => a - b),
    q,
  );

/** One GET timed from sending to the body's last byte, with its status, ETag and size. */
const timedGet = (agent: Agent, port: number, path: string, headers: OutgoingHttpHeaders = {}) =>
  new Promise<{ status: number; ms: number; bytes: number; etag: string | undefined }>((resolve, reject) => {
    const started = performance.now();
    const req = request(
      { host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${BENCH_TOKEN}`, ...headers } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes, etag: res.headers.etag }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });

const latencyOf = (times: number[], bytes: number): Latency => ({
  requests: times.length,
  p50: quantile(times, 0.5),
  p95: quantile(times, 0.95),
  max: Math.max(0, ...times),
  bytes,
});

/**
 * `GET .../queues` and two references in turns, one request at a time on one connection: `/healthz`
 * (the service's least request) and the live list asked with the ETag of its last answer (a `304`
 * while the list stands; where it changed, the new list is taken and not counted).
 */
const requestLatency = async (port: number, rounds: number): Promise<QueuesAtSize['latency']> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    let etag = (await timedGet(agent, port, CALLS_PATH)).etag ?? '';
    const queues: number[] = [];
    const health: number[] = [];
    const notModified: number[] = [];
    let queuesBytes = 0;
    let changed = 0;
    const warmUp = Math.ceil(rounds / 10);
    for (let round = 0; round < warmUp + rounds; round += 1) {
      const counted = round >= warmUp;
      const figures = await timedGet(agent, port, QUEUES_PATH);
      if (figures.status !== 200) throw new Error(`GET .../queues answered ${figures.status}`);
      queuesBytes = figures.bytes;
      if (counted) queues.push(figures.ms);
      const alive = await timedGet(agent, port, HEALTH_PATH);
      if (counted) health.push(alive.ms);
      const list = await timedGet(agent, port, CALLS_PATH, { 'if-none-match': etag });
      if (list.status === 304) {
        if (counted) notModified.push(list.ms);
      } else {
        etag = list.etag ?? etag;
        if (counted) changed += 1;
      }
      // A pause between rounds, as a dashboard's requests come: each request finds the service between syncs at a moment of its own.
      await sleep(10 + (round % 7) * 3);
    }
    return {
      queues: latencyOf(queues, queuesBytes),
      health: latencyOf(health, 0),
      notModified: { ...latencyOf(notModified, 0), changed },
    };
  } finally {
    agent.destroy();
  }
};

interface QueuesAnswer {
  queues: {
    now: { waiting: number; talking: number };
    today: { offered: number; serviceLevel: number | null };
    serviceLevelTarget: number;
  }[];
}

export const queuesAtSize = async (
  browser: Browser,
  options: { seconds: number; rounds: number; pastMinutes: number; configQueues?: boolean; profileMs?: number },
): Promise<QueuesAtSize> => {
  const configQueues = options.configQueues ?? true;
  const service = await startChild(
    'bench/servers/service-server.ts',
    [
      '--provider',
      'queues',
      '--calls',
      String(QUEUES_CALLS),
      '--agents',
      String(QUEUES_AGENTS),
      '--queues',
      String(QUEUES_COUNT),
      '--rate',
      String(QUEUES_CHANGE_RATE),
      '--past-minutes',
      String(options.pastMinutes),
      '--config-queues',
      configQueues ? 'on' : 'off',
    ],
    // Half an hour of calls written to the journal before the service starts takes a while.
    { readyTimeoutMs: 300_000 },
  );
  try {
    // The figures wait for the board's day to be read from the journal: the page opens on them.
    const first = await fetch(`http://127.0.0.1:${service.port}${QUEUES_PATH}`, {
      headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    });
    if (first.status !== 200) throw new Error(`GET .../queues answered ${first.status}`);
    await first.text();
    const loaded = await service.ask<ServiceStats>({ type: 'stats' });
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript('globalThis.__name = (fn) => fn;');
    let sample: {
      longTasks: number[];
      marks: number[];
      commits: { start: number; end: number }[];
      calls: number[];
      board: number[];
    };
    let before: ServiceStats;
    let after: ServiceStats;
    let windowMs: number;
    let parseReference: number;
    let pageTrace: MainThreadBreakdown | undefined;
    let pageProfile: ProfileSummary | undefined;
    try {
      await page.goto(`http://127.0.0.1:${service.port}/#token=${BENCH_TOKEN}`);
      if (configQueues)
        await page
          .getByRole('table', { name: /Each queue now and today/ })
          .getByRole('row')
          .nth(QUEUES_COUNT)
          .waitFor({ timeout: 60_000 });
      else await page.getByRole('table', { name: 'Live calls' }).getByRole('row').nth(1).waitFor({ timeout: 60_000 });
      await page
        .getByText(/· pushed|Live · updated/)
        .first()
        .waitFor({ timeout: 30_000 });
      // The first figures and what they set off (lazy chunks, the first layout) are not steady updates.
      await page.waitForTimeout(3000);
      await page.evaluate(() => {
        const w = window as unknown as {
          longTasks: number[];
          marks: number[];
          commits: { start: number; end: number }[];
          calls: number[];
          board: number[];
        };
        w.longTasks = [];
        w.marks = [];
        w.commits = [];
        w.calls = [];
        w.board = [];
        new PerformanceObserver((list) => list.getEntries().forEach((entry) => w.longTasks.push(entry.duration))).observe({
          type: 'longtask',
        });
        // The app marks each arrival and measures from the latest one; the marks are seen here before it clears them.
        new PerformanceObserver((list) =>
          list.getEntries().forEach((entry) => {
            if (entry.name === 'callboard:queues-received') w.marks.push(entry.startTime);
            else if (entry.name === 'callboard:queues-to-commit')
              w.commits.push({ start: entry.startTime, end: entry.startTime + entry.duration });
            else if (entry.name === 'callboard:poll-to-commit') w.calls.push(entry.duration);
            else if (entry.name === 'callboard:agents-to-commit') w.board.push(entry.duration);
          }),
        ).observe({ entryTypes: ['mark', 'measure'] });
      });
      before = await service.ask<ServiceStats>({ type: 'stats' });
      const started = performance.now();
      await page.waitForTimeout(options.seconds * 1000);
      after = await service.ask<ServiceStats>({ type: 'stats' });
      windowMs = performance.now() - started;
      sample = await page.evaluate(() => {
        const { longTasks, marks, commits, calls, board } = window as unknown as {
          longTasks: number[];
          marks: number[];
          commits: { start: number; end: number }[];
          calls: number[];
          board: number[];
        };
        return { longTasks, marks, commits, calls, board };
      });
      parseReference = await parseReferenceMs(page, service.port, QUEUES_PATH);
      if (options.profileMs) {
        pageTrace = await traceMainThread(browser, page, Math.min(5000, options.profileMs));
        pageProfile = await profilePage(await page.context().newCDPSession(page), options.profileMs);
      }
    } finally {
      await page.close();
    }
    // Without the page (and its stream), the service still takes every change: the requests meet the same work.
    await sleep(2000);
    const latency = await requestLatency(service.port, options.rounds);
    const serviceProfile = options.profileMs
      ? await service.ask<ProfileSummary>({ type: 'profile', ms: options.profileMs })
      : undefined;
    const answer = JSON.parse(
      await (
        await fetch(`http://127.0.0.1:${service.port}${QUEUES_PATH}`, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } })
      ).text(),
    ) as QueuesAnswer;

    // Per commit, the time since the earliest queue event it shows (as section 4 reads the calls' marks).
    let previous = -Infinity;
    const fromEarliest = sample.commits.flatMap((commit) => {
      const first = sample.marks.find((at) => at > previous && at <= commit.start);
      previous = commit.start;
      return first === undefined ? [] : [commit.end - first];
    });
    const delta = (pick: (stats: ServiceStats) => number) => pick(after) - pick(before);
    return {
      configQueues,
      pastMinutes: options.pastMinutes,
      pastCalls: loaded.pastCalls,
      loadMs: loaded.queueLoads[0]?.ms ?? NaN,
      calls: QUEUES_CALLS,
      agents: QUEUES_AGENTS,
      queues: QUEUES_COUNT,
      seconds: options.seconds,
      updates: sample.commits.length,
      commitP50: quantile(fromEarliest, 0.5),
      commitP95: quantile(fromEarliest, 0.95),
      commitMax: Math.max(0, ...fromEarliest),
      latestP50: quantile(
        sample.commits.map((commit) => commit.end - commit.start),
        0.5,
      ),
      longTasks: sample.longTasks.length,
      longestTask: Math.max(0, ...sample.longTasks),
      callsCommitP50: quantile(sample.calls, 0.5),
      boardCommitP50: quantile(sample.board, 0.5),
      parseReferenceMs: parseReference,
      service: {
        windowMs,
        callChanges: delta((s) => s.lastSeq),
        queueChanges: delta((s) => s.queueChanges),
        agentChanges: delta((s) => s.agentChanges),
        queuePublishes: delta((s) => s.work.queuePublishes),
        queuePublishMs: delta((s) => s.work.queuePublishMs),
        queueFigures: delta((s) => s.work.queueFigures),
        queueFiguresMs: delta((s) => s.work.queueFiguresMs),
        queueSerializeMs: delta((s) => s.work.queueSerializeMs),
        callsNextMs: delta((s) => s.work.callsNextMs),
        callsSerializeMs: delta((s) => s.work.callsSerializeMs),
        cpuMs: (delta((s) => s.cpu.user) + delta((s) => s.cpu.system)) / 1000,
        loopMs: delta((s) => s.loop.active),
      },
      latency,
      figures: {
        waiting: answer.queues.reduce((sum, queue) => sum + queue.now.waiting, 0),
        talking: answer.queues.reduce((sum, queue) => sum + queue.now.talking, 0),
        offeredToday: answer.queues.reduce((sum, queue) => sum + queue.today.offered, 0),
        belowTarget: answer.queues.filter(
          (queue) => queue.today.serviceLevel !== null && queue.today.serviceLevel < queue.serviceLevelTarget,
        ).length,
      },
      ...(serviceProfile ? { serviceProfile } : {}),
      ...(pageTrace ? { pageTrace } : {}),
      ...(pageProfile ? { pageProfile } : {}),
    };
  } finally {
    await service.stop();
  }
};

const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ratio = (ours: number, reference: number) => fixed(ours / reference, 2);
const mark = (ok: boolean) => (ok ? 'met' : '**missed**');
const count = (n: number) => n.toLocaleString('en');
const percent = (share: number) => `${fixed(share * 100, 0)} %`;

const journalCell = (row: QueuesAtSize) =>
  `${row.configQueues ? '' : 'reference, no queue in the config (no panel): '}${row.pastMinutes === 0 ? 'empty (a service just started)' : `the last ${row.pastMinutes} min: ${count(row.pastCalls)} ended calls`}`;

const pageMet = (row: QueuesAtSize) => row.commitP50 <= 8 && row.longTasks === 0;

const profileLines = (profile: ProfileSummary) =>
  [
    `busy ${fixed(profile.busyMs / 1000)} s of ${fixed(profile.windowMs / 1000)} s. By function (self time):`,
    ...profile.functions.map((entry) => `  - ${percent(entry.share)} ${entry.name}`),
    `  By file: ${profile.files.map((entry) => `${entry.name} ${percent(entry.share)}`).join(', ')}.`,
  ].join('\n');

const traceLine = (trace: MainThreadBreakdown) =>
  `Chromium trace of the page's main thread over ${fixed(trace.windowMs / 1000, 0)} s of updates, after the measured window: busy ${fixed(trace.busyMs, 0)} ms; layout ${fixed(trace.layoutMs, 0)} ms in ${trace.layouts} layouts (${trace.forcedLayouts} forced; longest ${fixed(trace.longestLayoutMs, 0)} ms), style ${fixed(trace.styleMs, 0)} ms, paint ${fixed(trace.paintMs, 0)} ms, garbage collection ${fixed(trace.gcMs, 0)} ms; ${count(trace.domElements)} elements.`;

/** The profiles taken after a run's window, where it has them. */
const profiles = (row: QueuesAtSize) =>
  [
    row.serviceProfile &&
      `CPU profile of the service after the requests (journal at the start: ${journalCell(row)}; the page closed, the calls still changing), ${profileLines(row.serviceProfile)}`,
    row.pageTrace && traceLine(row.pageTrace),
    row.pageProfile &&
      `CPU profile of the page over ${fixed(row.pageProfile.windowMs / 1000, 0)} s of updates, ${profileLines(row.pageProfile)}`,
  ].filter(Boolean);

export const queuesSection = (rows: QueuesAtSize[]): string => {
  const queued = rows.filter((row) => row.configQueues);
  const [first] = queued;
  if (!first) return '';
  const perChange = (row: QueuesAtSize, ms: number) => (row.service.callChanges > 0 ? ms / row.service.callChanges : NaN);
  const notes = rows.flatMap(profiles);
  return `The service runs over a center of ${count(first.calls)} live inbound calls in ${first.queues} queues over ${count(first.agents)} agents, ${percent(QUEUES_CHANGE_RATE)} of the calls changing each second (every 100 ms a tenth of that, in turn: a caller dials a queue, by its share of the traffic, or one in twenty no queue; a queue's oldest caller is answered by a free member; a call on a random agent ends). An agent takes one call: nine in ten talk at the start, the other callers wait in their queue. The queues are generated: every agent answers one queue, a third of them a second, one in ten a third, so a queue has from a few dozen members to over a hundred; the traffic falls from the first queue to the last (1 / (1 + i / 5)); answer times of 10 to 60 s, service-level targets of 70 to 95 %, short abandons of 0 to 10 s, by queue. The calls are pushed to the service at once; an ended call leaves the provider's list and the service lists it ended for a second (\`keepEndedMs\`); registrations are read every 2 s.
Two runs: one on an empty journal, as a service just started; one on a journal holding the calls that ended in the ${QUEUES_PAST_MINUTES} minutes before the start at the same pace, as a service that has run that long (or restarted after it) holds them. The queue board keeps every call that started or ended in the last ${QUEUES_PAST_MINUTES} minutes (for \`last15Minutes\` and \`agentsNeeded\`), taken from the journal at start: the second run is its steady state. At the end of each run one answer of \`GET .../queues\` held: ${queued.map((row) => `${count(row.figures.waiting)} callers waiting and ${count(row.figures.talking)} talking in the queues, ${count(row.figures.offeredToday)} offered today, ${row.figures.belowTarget} of ${row.queues} queues below target`).join('; ')}. The board's first read of the day from the journal took ${queued.map((row) => `${fixed(row.loadMs / 1000, 1)} s`).join(' and ')}.

**The live view** in Chromium at 1920×1080, the built dashboard, on the tab's change stream (calls, agents and queues: \`include=agents,queues\`); after the first figures and 3 s to settle, ${first.seconds} s of steady updates. "Arrival → commit" runs from the moment a \`queues\` or \`queue-changes\` event, parsed and checked against the contract, is written into the query cache (the mark \`callboard:queues-received\`), through rendering, to the Queues panel's layout effect (\`callboard:queues-to-commit\`); where several events arrive before one commit, from the earliest (the app's own measure runs from the latest). The same page holds the table of ${count(first.calls)} calls and the board of ${count(first.agents)} agents, fed by the same stream: an update usually brings all three, and one commit renders them together; their own measures over the same window stand beside. Long tasks are the page's. References: this page's \`JSON.parse\` of the whole figures (\`GET .../queues\`); and the same center once more with no queue in the service's config, so the same page without the Queues panel (the calls keep their queues; the board of queues runs, every call in no queue).

| journal at the start | panel commits | arrival → commit p50 / p95 / max | the app's measure p50 | long tasks (longest) | reference: parse of the whole figures | p50 ÷ reference | same page and window: calls table / agent board p50 | target: p50 ≤ 8 ms, no long task |
|---|---|---|---|---|---|---|---|---|
${rows
  .map((row) =>
    !row.configQueues
      ? `| ${journalCell(row)} | — | — | — | ${row.longTasks} (${fixed(row.longestTask, 0)} ms) | — | — | ${fixed(row.callsCommitP50)} / ${fixed(row.boardCommitP50)} ms | — |`
      : `| ${journalCell(row)} | ${row.updates} in ${row.seconds} s | ${fixed(row.commitP50)} / ${fixed(row.commitP95)} / ${fixed(row.commitMax)} ms | ${fixed(row.latestP50)} ms | ${row.longTasks} (${fixed(row.longestTask, 0)} ms) | ${fixed(row.parseReferenceMs, 2)} ms | ${ratio(row.commitP50, row.parseReferenceMs)} | ${fixed(row.callsCommitP50)} / ${fixed(row.boardCommitP50)} ms | ${mark(pageMet(row))} |`,
  )
  .join('\n')}

**The service's work per change**, over the same window: event-loop time of each piece, timed in the service process. A change of the calls is one sync's \`changes\` event (at this pace about ${count(Math.round((first.calls * QUEUES_CHANGE_RATE) / Math.max(1, first.service.callChanges / (first.service.windowMs / 1000))))} calls each in the first run). The queue board takes in every change of the calls, and every change of the agent board (which follows the calls), and looks again every 5 s: it brings its kept calls up to date, computes the figures of every queue, compares each with what it published and, where any changed, numbers a \`queue-changes\` event with those queues. It does so whether or not a stream asks for queues. Reference: the calls' own change as the sync makes it (the new snapshot, its diff and the \`changes\` data every stream sends), and that data's serialization alone.

| journal at the start | changes of the calls a second | \`queue-changes\` / \`agent-changes\` per change | **queue board per change** (publications per change × ms each) | of which computing the figures (times per change × ms each) | of which \`queue-changes\` data | reference: the calls' change / of which its \`changes\` data | queue board ÷ the calls' change | queue board ÷ the \`changes\` data | queue board's share of the service's CPU time | service CPU time per change |
|---|---|---|---|---|---|---|---|---|---|---|
${rows
  .map((row) => {
    const s = row.service;
    return `| ${journalCell(row)} | ${fixed(s.callChanges / (s.windowMs / 1000))} | ${ratio(s.queueChanges, s.callChanges)} / ${ratio(s.agentChanges, s.callChanges)} | **${fixed(perChange(row, s.queuePublishMs), 2)} ms** (${ratio(s.queuePublishes, s.callChanges)} × ${fixed(s.queuePublishMs / Math.max(1, s.queuePublishes), 2)} ms) | ${fixed(perChange(row, s.queueFiguresMs), 2)} ms (${ratio(s.queueFigures, s.callChanges)} × ${fixed(s.queueFiguresMs / Math.max(1, s.queueFigures), 2)} ms) | ${fixed(perChange(row, s.queueSerializeMs), 3)} ms | ${fixed(perChange(row, s.callsNextMs), 2)} / ${fixed(perChange(row, s.callsSerializeMs), 3)} ms | ${ratio(s.queuePublishMs, s.callsNextMs)} | ${ratio(s.queuePublishMs, s.callsSerializeMs)} | ${percent(s.queuePublishMs / s.cpuMs)} | ${fixed(perChange(row, s.cpuMs), 1)} ms |`;
  })
  .join('\n')}

**\`GET .../queues\`** (${count(first.latency.queues.bytes)} bytes, identity): ${count(first.latency.queues.requests)} requests one at a time on one keep-alive connection from another process, after ${count(Math.ceil(first.latency.queues.requests / 10))} to warm up, in turns with the references and 10 to 28 ms apart; the page closed, the calls still changing. From the request sent to the body's last byte, on 127.0.0.1. References in the same turns: \`GET /healthz\` (the service's least request) and the live list asked with its last ETag, counted where it answered \`304\` (where the list had changed, the new one is taken and not counted).

| journal at the start | \`GET .../queues\` p50 / p95 / max | reference: \`/healthz\` p50 / p95 | reference: the live list's \`304\` p50 / p95 (answered 304) | p50 ÷ \`/healthz\` p50 | p50 ÷ \`304\` p50 | target: p50 ≤ 20 ms |
|---|---|---|---|---|---|---|
${queued
  .map((row) => {
    const { queues, health, notModified } = row.latency;
    return `| ${journalCell(row)} | **${fixed(queues.p50, 2)}** / ${fixed(queues.p95, 2)} / ${fixed(queues.max, 1)} ms | ${fixed(health.p50, 2)} / ${fixed(health.p95, 2)} ms | ${fixed(notModified.p50, 2)} / ${fixed(notModified.p95, 2)} ms (${count(notModified.requests)} of ${count(notModified.requests + notModified.changed)}) | ${ratio(queues.p50, health.p50)} | ${ratio(queues.p50, notModified.p50)} | ${mark(queues.p50 <= 20)} |`;
  })
  .join('\n')}
${notes.length > 0 ? `\n${notes.join('\n\n')}\n` : ''}`;
};
