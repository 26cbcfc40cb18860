/**
 * Browser figures in Debian's Chromium, for the dashboard on the change stream and, as the
 * reference, polling the list as it does where the service cannot stream: update cost, long
 * tasks, scrolling, heap, first load, freshness from the phone system's event to the pixel.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type CDPSession, type Page, type Response as PageResponse } from '@playwright/test';
import { BENCH_TOKEN } from './support/bench-token.js';
import { startChild } from './support/child.js';
import { traceMainThread, type MainThreadBreakdown } from './support/chromium-trace.js';
import { heapContents, heapGrowth, type HeapContents, type HeapGrowthEntry } from './support/heap-snapshot.js';
import { dashboardLocator, summarizeProfile, type Profile, type ProfileSummary } from './support/cpu-profile.js';

/** How the dashboard gets its calls: the change stream, or polling the list (the service refuses the stream, as one implementing only the spec does). */
export type Transport = 'stream' | 'poll';

/** The share of the live calls that changes each second in the dashboard benchmarks. */
export const CHANGE_RATE = 0.05;

const ASSETS = fileURLToPath(new URL('../dist/web/assets', import.meta.url));

const changingService = (calls: number, transport: Transport) =>
  startChild('bench/servers/service-server.ts', [
    '--provider',
    'changing',
    '--calls',
    String(calls),
    '--rate',
    String(CHANGE_RATE),
    '--stream',
    transport === 'stream' ? 'on' : 'off',
  ]);

const LIST_PATH = '/v1/accounts/bench/applications/app/provider/pbx/calls';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: ARGS });

/** tsx keeps function names with a `__name` helper that functions sent to the page would miss. */
const newPage = async (browser: Browser): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript('globalThis.__name = (fn) => fn;');
  return page;
};

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

const openLiveView = async (page: Page, port: number, query = '', transport?: Transport) => {
  await page.goto(`http://127.0.0.1:${port}/${query}#token=${BENCH_TOKEN}`);
  await page.getByRole('table', { name: 'Live calls' }).getByRole('row').nth(1).waitFor({ timeout: 60_000 });
  // The freshness indicator says how the calls arrive: make sure it is the way being measured.
  if (transport) await page.getByText(transport === 'stream' ? /· pushed/ : /· polling every/).waitFor({ timeout: 30_000 });
};

/** A CPU profile of the page for `ms`, mapped back to the dashboard's sources. */
export const profilePage = async (cdp: CDPSession, ms: number): Promise<ProfileSummary> => {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  await new Promise((resolve) => setTimeout(resolve, ms));
  const { profile } = await cdp.send('Profiler.stop');
  return summarizeProfile(profile as unknown as Profile, dashboardLocator(ASSETS));
};

/** Median time for this page to JSON.parse one answer of `path` (a poll's by default): the per-machine reference for browser timings. */
export const parseReferenceMs = (page: Page, port: number, path = LIST_PATH) =>
  page.evaluate(
    async ({ url, token }) => {
      const text = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).text();
      const times: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        const start = performance.now();
        JSON.parse(text);
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[3] ?? NaN;
    },
    { url: `http://127.0.0.1:${port}${path}`, token: BENCH_TOKEN },
  );

/**
 * Median time for this page to take in one answer of the list once its first byte is there: the
 * browser's own delivery of the bytes (from the network process, decoded to text), the part of a
 * poll that no code of the page runs in. The reference for a poll's time from its response.
 */
export const bodyReferenceMs = (page: Page, port: number, path = LIST_PATH) =>
  page.evaluate(
    async ({ url, token }) => {
      const times: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        performance.clearResourceTimings();
        const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
        await response.text();
        const end = performance.now();
        // From the first byte, as the poll's own figure runs: its resource timing, queued as the response ends.
        let entry: PerformanceResourceTiming | undefined;
        for (let tries = 0; !entry && tries < 20; tries += 1) {
          entry = performance.getEntriesByName(url, 'resource').at(-1) as PerformanceResourceTiming | undefined;
          if (!entry) await new Promise((resolve) => setTimeout(resolve, 0));
        }
        if (entry) times.push(end - entry.responseStart);
      }
      return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN;
    },
    { url: `http://127.0.0.1:${port}${path}`, token: BENCH_TOKEN },
  );

export interface DashboardAtSize {
  calls: number;
  transport: Transport;
  seconds: number;
  /** Table commits after an arrival (a changed poll, or stream events). */
  updates: number;
  commitP50: number;
  commitP95: number;
  commitMax: number;
  /** The app's own measure, from the latest arrival before the commit. */
  latestArrivalP50: number;
  /** Polls: from the first byte of the response whose body the commit shows (its resource timing), so with its transfer. */
  fromResponseP50?: number;
  /** Polls: the same page taking in one answer of the list once its first byte is there (`bodyReferenceMs`). */
  bodyReferenceMs?: number;
  longTasks: number;
  longestTask: number;
  scrollFps: number;
  parseReferenceMs: number;
  /** Where the page's time went after the measured window, while updates kept arriving. */
  trace?: MainThreadBreakdown;
  profile?: ProfileSummary;
}

/**
 * Per commit, the time since the earliest arrival it shows: where updates arrive faster than the
 * page commits them (stream events during a long render), one commit shows several, and the
 * oldest has waited longest.
 */
const sinceEarliestArrival = (arrivals: number[], commits: { start: number; end: number }[]): number[] => {
  let after = -Infinity;
  return commits.flatMap((commit) => {
    // The app's measure starts at the latest arrival it consumed: the ones up to its start are this commit's.
    const first = arrivals.find((at) => at > after && at <= commit.start);
    after = commit.start;
    return first === undefined ? [] : [commit.end - first];
  });
};

/**
 * Per commit of a poll, the time since the first byte of the response it shows: the latest list
 * response whose last byte came before the commit's arrival mark (the body in) and after the
 * commit before's. A `304` has no arrival after it and is passed over.
 */
const sinceResponse = (responses: { firstByte: number; lastByte: number }[], arrivals: number[], commits: { start: number; end: number }[]) => {
  let after = -Infinity;
  return commits.flatMap((commit) => {
    const arrival = arrivals.filter((at) => at <= commit.start).at(-1);
    if (arrival === undefined) return [];
    // Never the response of a commit before: a commit with no response of its own is left out.
    const response = responses.filter((r) => r.lastByte <= arrival && r.lastByte > after).at(-1);
    after = arrival;
    return response === undefined ? [] : [commit.end - response.firstByte];
  });
};

/** Frames per second while the table scrolls by 120 px a frame for 5 s, updates arriving meanwhile. */
const scrollFps = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const scroller = [...document.querySelectorAll('*')].find(
          (el) =>
            el.querySelector('table[aria-label="Live calls"]') &&
            el.scrollHeight > el.clientHeight + 100 &&
            getComputedStyle(el).overflowY !== 'visible',
        ) as HTMLElement | undefined;
        if (!scroller) return resolve(NaN);
        let frames = 0;
        const start = performance.now();
        const step = () => {
          frames += 1;
          scroller.scrollTop = (scroller.scrollTop + 120) % (scroller.scrollHeight - scroller.clientHeight);
          if (performance.now() - start < 5000) requestAnimationFrame(step);
          else resolve((frames * 1000) / (performance.now() - start));
        };
        requestAnimationFrame(step);
      }),
  );

/**
 * `seconds` of steady updates (5 % of the calls changing per second) after the first list is on
 * screen and settled, then 5 s of scrolling; then, with `profileMs`, up to 5 s of tracing and a
 * CPU profile of `profileMs`, to say where the time goes.
 */
export const dashboardAtSize = async (
  browser: Browser,
  calls: number,
  transport: Transport,
  options: { seconds: number; profileMs?: number },
): Promise<DashboardAtSize> => {
  const service = await changingService(calls, transport);
  const page = await newPage(browser);
  try {
    await openLiveView(page, service.port, transport === 'poll' ? '?poll=1000' : '', transport);
    // The first snapshot and what it sets off (lazy chunks, the chart's first render) are not steady updates.
    await page.waitForTimeout(3000);
    await page.evaluate(() => {
      const w = window as unknown as {
        longTasks: number[];
        arrivals: number[];
        commits: { start: number; end: number }[];
        responses: { firstByte: number; lastByte: number }[];
      };
      w.longTasks = [];
      w.arrivals = [];
      w.commits = [];
      w.responses = [];
      // The live list's responses (window lists have a query): when their first and last bytes came.
      new PerformanceObserver((list) =>
        list.getEntries().forEach((entry) => {
          const timing = entry as PerformanceResourceTiming;
          if (/\/calls$/.test(new URL(timing.name).pathname) && !timing.name.includes('?'))
            w.responses.push({ firstByte: timing.responseStart, lastByte: timing.responseEnd });
        }),
      ).observe({ type: 'resource' });
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => w.longTasks.push(entry.duration))).observe({
        type: 'longtask',
      });
      // The app marks each arrival and measures from the latest one; the marks are seen here before it clears them.
      new PerformanceObserver((list) =>
        list.getEntries().forEach((entry) => {
          if (entry.name === 'callboard:calls-received') w.arrivals.push(entry.startTime);
          if (entry.name === 'callboard:poll-to-commit')
            w.commits.push({ start: entry.startTime, end: entry.startTime + entry.duration });
        }),
      ).observe({ entryTypes: ['mark', 'measure'] });
    });
    await page.waitForTimeout(options.seconds * 1000);
    const sample = await page.evaluate(() => {
      const { longTasks, arrivals, commits, responses } = window as unknown as {
        longTasks: number[];
        arrivals: number[];
        commits: { start: number; end: number }[];
        responses: { firstByte: number; lastByte: number }[];
      };
      return { longTasks, arrivals, commits, responses: [...responses].sort((a, b) => a.lastByte - b.lastByte) };
    });
    const fromEarliest = sinceEarliestArrival(sample.arrivals, sample.commits);
    const polled =
      transport === 'poll'
        ? {
            fromResponseP50: quantile(sinceResponse(sample.responses, sample.arrivals, sample.commits), 0.5),
            bodyReferenceMs: await bodyReferenceMs(page, service.port),
          }
        : {};
    const fps = await scrollFps(page);
    const trace = options.profileMs ? await traceMainThread(browser, page, Math.min(5000, options.profileMs)) : undefined;
    const profile = options.profileMs
      ? await profilePage(await page.context().newCDPSession(page), options.profileMs)
      : undefined;
    return {
      calls,
      transport,
      seconds: options.seconds,
      updates: sample.commits.length,
      commitP50: quantile(fromEarliest, 0.5),
      commitP95: quantile(fromEarliest, 0.95),
      commitMax: Math.max(...fromEarliest),
      latestArrivalP50: quantile(
        sample.commits.map((commit) => commit.end - commit.start),
        0.5,
      ),
      longTasks: sample.longTasks.length,
      longestTask: Math.max(0, ...sample.longTasks),
      scrollFps: fps,
      parseReferenceMs: await parseReferenceMs(page, service.port),
      ...polled,
      ...(trace ? { trace } : {}),
      ...(profile ? { profile } : {}),
    };
  } finally {
    await page.close();
    await service.stop();
  }
};

export interface HeapGrowth {
  calls: number;
  transport: Transport;
  minutes: number;
  /**
   * Per sample: the heap's used size right after a forced collection, and what live objects hold
   * in a heap snapshot (JS and DOM). The first also counts what the collector has not reclaimed yet.
   */
  samplesMB: { atSeconds: number; usedMB: number; liveMB: number }[];
  /** What grew most from the 60 s sample to the last one. */
  grew: HeapGrowthEntry[];
}

const MB = 1e6;
const liveBytes = (contents: HeapContents) => [...contents.values()].reduce((sum, entry) => sum + entry.bytes, 0);

/**
 * The JS heap while updates arrive (polls every second, or the stream): it must level off, not
 * climb. Heap snapshots at each sample say what live objects hold, and what grew.
 */
export const heapOverTime = async (
  browser: Browser,
  calls: number,
  transport: Transport,
  minutes: number,
): Promise<HeapGrowth> => {
  const service = await changingService(calls, transport);
  const page = await newPage(browser);
  const cdp = await page.context().newCDPSession(page);
  try {
    await openLiveView(page, service.port, transport === 'poll' ? '?poll=1000' : '', transport);
    const samples: HeapGrowth['samplesMB'] = [];
    const snapshots = new Map<number, HeapContents>();
    const start = Date.now();
    const marks = [...new Set([15, 60, 150, minutes * 60])].filter((at) => at <= minutes * 60);
    for (const at of marks) {
      await page.waitForTimeout(Math.max(0, start + at * 1000 - Date.now()));
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const contents = await heapContents(cdp);
      snapshots.set(at, contents);
      samples.push({ atSeconds: at, usedMB: usedSize / MB, liveMB: liveBytes(contents) / MB });
    }
    const [atMinute, last] = [snapshots.get(60), snapshots.get(marks.at(-1) ?? 0)];
    return {
      calls,
      transport,
      minutes,
      samplesMB: samples,
      grew: atMinute && last && atMinute !== last ? heapGrowth(atMinute, last) : [],
    };
  } finally {
    await page.close();
    await service.stop();
  }
};

export interface InitialLoad {
  firstScreenGzipBytes: number;
  /** What the first screen's files took on the wire, as the service sent them (brotli to Chromium). */
  firstScreenWireBytes: number;
  files: { file: string; gzipBytes: number; wireBytes: number; encoding: string }[];
  firstLiveDataMs: number;
  referenceMs: number;
}

/** What the first screen downloads (JS and CSS, gzip), and how long until live data is on screen. */
export const initialLoad = async (browser: Browser): Promise<InitialLoad> => {
  const service = await startChild('bench/servers/service-server.ts', ['--provider', 'static', '--calls', '1000']);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript('globalThis.__name = (fn) => fn;');
  const page = await context.newPage();
  const files: InitialLoad['files'] = [];
  // Each response is read as it comes; all are read before the page closes, or one read late fails the whole run.
  const reads: Promise<void>[] = [];
  const onResponse = (response: PageResponse) => {
    const url = new URL(response.url());
    if (!/\.(js|css)$/.test(url.pathname)) return;
    reads.push(
      (async () => {
        const body = await response.body();
        const sizes = await response.request().sizes();
        files.push({
          file: url.pathname.replace(/^\/assets\//, ''),
          gzipBytes: gzipSync(body, { level: 9 }).length,
          wireBytes: sizes.responseBodySize,
          encoding: response.headers()['content-encoding'] ?? 'none',
        });
      })(),
    );
  };
  page.on('response', onResponse);
  try {
    await openLiveView(page, service.port);
    const first = await page.evaluate(() => {
      const [entry] = performance.getEntriesByName('callboard:poll-to-commit');
      return entry ? { arrived: entry.startTime, onScreen: entry.startTime + entry.duration } : { arrived: NaN, onScreen: NaN };
    });
    const firstLiveDataMs = first.onScreen;
    // What the first screen needs was requested before its data arrived; what is requested after (the chart) is lazy.
    const timing = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
        name: entry.name,
        start: entry.startTime,
      })),
    );
    const beforeData = new Set(
      timing.filter((t) => t.start <= first.arrived).map((t) => new URL(t.name).pathname.replace(/^\/assets\//, '')),
    );
    await Promise.all(reads);
    const firstScreen = files.filter((f) => beforeData.has(f.file));
    const reference = await context.newPage();
    const start = Date.now();
    await reference.goto(`http://127.0.0.1:${service.port}/v1/openapi.json`);
    const referenceMs = Date.now() - start;
    return {
      firstScreenGzipBytes: firstScreen.reduce((sum, f) => sum + f.gzipBytes, 0),
      firstScreenWireBytes: firstScreen.reduce((sum, f) => sum + f.wireBytes, 0),
      files: files.map((f) => ({ ...f, file: beforeData.has(f.file) ? f.file : `${f.file} (after data)` })),
      firstLiveDataMs,
      referenceMs,
    };
  } finally {
    // What loads after the data (lazy chunks) may still be arriving: no read starts now, and those started end first.
    page.off('response', onResponse);
    await Promise.allSettled(reads);
    await context.close();
    await service.stop();
  }
};

export interface Freshness {
  /** `stream`: the simulator tells the service of each event; `stream, polled provider`: the service polls it on its interval; `poll`: the dashboard polls the list. */
  how: 'stream' | 'polled-provider' | 'poll';
  samples: number;
  p50: number;
  p95: number;
  max: number;
  pollIntervalMs: number;
  syncIntervalMs: number;
}

/**
 * Watches the table for a row with `formatted` in the state "Talking" and resolves with the epoch
 * time of the frame that painted it: a callback queued from the frame's requestAnimationFrame
 * runs once the frame is rendered.
 */
/** The moment (epoch ms) the frame showing the row with `formatted` as "Talking" was painted. */
export const paintedTalking = (page: Page, formatted: string) =>
  page.evaluate(
    (text) =>
      new Promise<number>((resolve, reject) => {
        const shows = () =>
          [...document.querySelectorAll('table[aria-label="Live calls"] tr')].some(
            (row) => row.textContent?.includes(text) && row.textContent.includes('Talking'),
          );
        const painted = () =>
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve(performance.timeOrigin + performance.now());
            channel.port2.postMessage(undefined);
          });
        if (shows()) return painted();
        const timer = setTimeout(() => reject(new Error(`no row showed ${text} talking within 30 s`)), 30_000);
        const observer = new MutationObserver(() => {
          if (!shows()) return;
          observer.disconnect();
          clearTimeout(timer);
          painted();
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    formatted,
  );

const SIM_BASE = '/v1/accounts/bench/applications/app/providers/pbx';
const BATCH = 4;

/**
 * From a call's answer in the simulator (its `answeredAt`, when the simulated phone system's event
 * happened) to the frame that paints "Talking" in the table. Calls are placed `BATCH` at a time,
 * each answered at a random moment 1 to 3.5 s later.
 */
export const freshness = async (browser: Browser, samples: number, how: Freshness['how']): Promise<Freshness> => {
  const service = await startChild('bench/servers/service-server.ts', [
    '--provider',
    'simulator',
    '--agents',
    '60',
    '--stream',
    how === 'poll' ? 'off' : 'on',
    '--watch',
    how === 'stream' ? 'on' : 'off',
  ]);
  const base = `http://127.0.0.1:${service.port}`;
  const headers = { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' };
  const page = await newPage(browser);
  const delays: number[] = [];
  try {
    // Newest first, so each new call is in the rendered (virtualized) rows.
    await openLiveView(page, service.port, '?sort=started&dir=desc', how === 'poll' ? 'poll' : 'stream');
    const { subscribers } = (await (await fetch(`${base}${SIM_BASE}/subscribers`, { headers })).json()) as {
      subscribers: { providerSubscriberID: string; registered: boolean; active: boolean }[];
    };
    const agents = subscribers.filter((s) => s.registered && s.active);
    for (let placed = 0; placed < samples; placed += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, samples - placed) }, (_, i) => placed + i);
      const numbers = batch.map((i) => ({ digits: `1555010${String(1000 + i)}`, formatted: `+1 (555) 010-${String(1000 + i)}` }));
      const painted = numbers.map(({ formatted }) => paintedTalking(page, formatted));
      for (const [index, { digits }] of numbers.entries()) {
        await fetch(`${base}${SIM_BASE}/simulator/next-placed-call`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({
            agent: 'answer',
            agentRingMs: 500,
            remote: 'answer',
            remoteRingMs: 500 + Math.round(Math.random() * 2500),
            talkMs: 120_000,
          }),
        });
        const response = await fetch(`${base}${SIM_BASE}/calls`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            providerSubscriberID: agents[(placed + index) % agents.length]?.providerSubscriberID,
            remoteNumber: digits,
          }),
        });
        if (response.status !== 204) throw new Error(`placing a call answered ${response.status}: ${await response.text()}`);
      }
      const paintedAt = await Promise.all(painted);
      const list = (await (await fetch(`${base}${LIST_PATH}`, { headers })).json()) as {
        calls: { remoteNumber: string; answeredAt?: string }[];
      };
      numbers.forEach(({ digits }, index) => {
        const answeredAt = Date.parse(list.calls.find((c) => c.remoteNumber === digits)?.answeredAt ?? '');
        delays.push((paintedAt[index] as number) - answeredAt);
      });
    }
    return {
      how,
      samples,
      p50: quantile(delays, 0.5),
      p95: quantile(delays, 0.95),
      max: Math.max(...delays),
      pollIntervalMs: 2000,
      syncIntervalMs: 1000,
    };
  } finally {
    await page.close();
    await service.stop();
  }
};
