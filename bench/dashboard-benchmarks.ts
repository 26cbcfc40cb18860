/** Browser figures in Debian's Chromium: update cost, long tasks, scrolling, heap, first load, freshness. */
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { BENCH_TOKEN } from './support/bench-token.js';
import { startChild } from './support/child.js';

const LIST_PATH = '/v1/accounts/bench/applications/app/provider/pbx/calls';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

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

const openLiveView = async (page: Page, port: number, query = '') => {
  await page.goto(`http://127.0.0.1:${port}/${query}#token=${BENCH_TOKEN}`);
  await page.getByRole('table', { name: 'Live calls' }).getByRole('row').nth(1).waitFor({ timeout: 60_000 });
};

/** Median time for this page to JSON.parse one poll's body: the per-machine reference for browser timings. */
const parseReferenceMs = (page: Page, port: number) =>
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
    { url: `http://127.0.0.1:${port}${LIST_PATH}`, token: BENCH_TOKEN },
  );

export interface DashboardAtSize {
  calls: number;
  polls: number;
  commitP50: number;
  commitP95: number;
  commitMax: number;
  longTasks: number;
  longestTask: number;
  scrollFps: number;
  parseReferenceMs: number;
}

/** 30 s of 1 s polling over a list that changes on every poll, then 5 s of scrolling. */
export const dashboardAtSize = async (browser: Browser, calls: number): Promise<DashboardAtSize> => {
  const service = await startChild('bench/servers/service-server.ts', ['--provider', 'churn', '--calls', String(calls)]);
  const page = await newPage(browser);
  try {
    await openLiveView(page, service.port, '?poll=1000');
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => w.longTasks.push(entry.duration))).observe({ type: 'longtask' });
      performance.clearMeasures('callboard:poll-to-commit');
    });
    await page.waitForTimeout(30_000);
    const sample = await page.evaluate(() => ({
      commits: performance.getEntriesByName('callboard:poll-to-commit').map((entry) => entry.duration),
      longTasks: (window as unknown as { longTasks: number[] }).longTasks,
    }));
    const scrollFps = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const scroller = [...document.querySelectorAll('*')].find(
            (el) => el.querySelector('table[aria-label="Live calls"]') && el.scrollHeight > el.clientHeight + 100 && getComputedStyle(el).overflowY !== 'visible',
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
    return {
      calls,
      polls: sample.commits.length,
      commitP50: quantile(sample.commits, 0.5),
      commitP95: quantile(sample.commits, 0.95),
      commitMax: Math.max(...sample.commits),
      longTasks: sample.longTasks.length,
      longestTask: Math.max(0, ...sample.longTasks),
      scrollFps,
      parseReferenceMs: await parseReferenceMs(page, service.port),
    };
  } finally {
    await page.close();
    await service.stop();
  }
};

export interface HeapGrowth {
  calls: number;
  minutes: number;
  samplesMB: { atSeconds: number; usedMB: number }[];
}

/** JS heap after garbage collection while polling every second: it must level off, not climb. */
export const heapOverTime = async (browser: Browser, calls: number, minutes: number): Promise<HeapGrowth> => {
  const service = await startChild('bench/servers/service-server.ts', ['--provider', 'churn', '--calls', String(calls)]);
  const page = await newPage(browser);
  const cdp = await page.context().newCDPSession(page);
  const used = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize / 1e6;
  };
  try {
    await openLiveView(page, service.port, '?poll=1000');
    const samples: { atSeconds: number; usedMB: number }[] = [];
    const start = Date.now();
    const marks = [15, 60, 150, minutes * 60];
    for (const at of marks) {
      await page.waitForTimeout(Math.max(0, start + at * 1000 - Date.now()));
      samples.push({ atSeconds: at, usedMB: await used() });
    }
    return { calls, minutes, samplesMB: samples };
  } finally {
    await page.close();
    await service.stop();
  }
};

export interface InitialLoad {
  firstScreenGzipBytes: number;
  files: { file: string; gzipBytes: number }[];
  firstLiveDataMs: number;
  referenceMs: number;
}

/** What the first screen downloads (JS and CSS, gzip), and how long until live data is on screen. */
export const initialLoad = async (browser: Browser): Promise<InitialLoad> => {
  const service = await startChild('bench/servers/service-server.ts', ['--provider', 'static', '--calls', '1000']);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript('globalThis.__name = (fn) => fn;');
  const page = await context.newPage();
  const files: { file: string; gzipBytes: number }[] = [];
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (!/\.(js|css)$/.test(url.pathname)) return;
    files.push({ file: url.pathname.replace(/^\/assets\//, ''), gzipBytes: gzipSync(await response.body(), { level: 9 }).length });
  });
  try {
    await openLiveView(page, service.port);
    const first = await page.evaluate(() => {
      const [entry] = performance.getEntriesByName('callboard:poll-to-commit');
      return entry ? { arrived: entry.startTime, onScreen: entry.startTime + entry.duration } : { arrived: NaN, onScreen: NaN };
    });
    const firstLiveDataMs = first.onScreen;
    // What the first screen needs was requested before its data arrived; what is requested after (the chart) is lazy.
    const timing = await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({ name: entry.name, start: entry.startTime })));
    const beforeData = new Set(timing.filter((t) => t.start <= first.arrived).map((t) => new URL(t.name).pathname.replace(/^\/assets\//, '')));
    const firstScreen = files.filter((f) => beforeData.has(f.file));
    const reference = await context.newPage();
    const start = Date.now();
    await reference.goto(`http://127.0.0.1:${service.port}/v1/openapi.json`);
    const referenceMs = Date.now() - start;
    return {
      firstScreenGzipBytes: firstScreen.reduce((sum, f) => sum + f.gzipBytes, 0),
      files: files.map((f) => ({ ...f, file: beforeData.has(f.file) ? f.file : `${f.file} (after data)` })),
      firstLiveDataMs,
      referenceMs,
    };
  } finally {
    await context.close();
    await service.stop();
  }
};

export interface Freshness {
  samples: number;
  p50: number;
  p95: number;
  pollIntervalMs: number;
}

/** From a call's answer in the simulator to "Talking" on screen, at the default poll interval. */
export const freshness = async (browser: Browser, samples: number): Promise<Freshness> => {
  const service = await startChild('bench/servers/service-server.ts', ['--provider', 'simulator', '--agents', '60']);
  const base = `http://127.0.0.1:${service.port}`;
  const headers = { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' };
  const page = await newPage(browser);
  const delays: number[] = [];
  try {
    // Newest first, so each new call is in the rendered (virtualized) rows.
    await openLiveView(page, service.port, '?sort=started&dir=desc');
    const { subscribers } = (await (await fetch(`${base}/v1/accounts/bench/applications/app/providers/pbx/subscribers`, { headers })).json()) as {
      subscribers: { providerSubscriberID: string; registered: boolean; active: boolean }[];
    };
    const agents = subscribers.filter((s) => s.registered && s.active);
    for (let i = 0; i < samples; i += 1) {
      const number = `1555010${String(1000 + i)}`;
      await fetch(`${base}/v1/accounts/bench/applications/app/providers/pbx/simulator/next-placed-call`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ agent: 'answer', agentRingMs: 500, remote: 'answer', remoteRingMs: 500 + Math.round(Math.random() * 2500), talkMs: 120_000 }),
      });
      const placed = await fetch(`${base}/v1/accounts/bench/applications/app/providers/pbx/calls`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ providerSubscriberID: agents[i % agents.length]?.providerSubscriberID, remoteNumber: number }),
      });
      if (placed.status !== 204) throw new Error(`placing a call answered ${placed.status}: ${await placed.text()}`);
      const formatted = `+1 (555) 010-${String(1000 + i)}`;
      await page.getByRole('row').filter({ hasText: formatted }).filter({ hasText: 'Talking' }).waitFor({ timeout: 20_000 });
      const seenAt = Date.now();
      const list = (await (await fetch(`${base}${LIST_PATH}`, { headers })).json()) as { calls: { remoteNumber: string; answeredAt?: string }[] };
      const answeredAt = Date.parse(list.calls.find((c) => c.remoteNumber === number)?.answeredAt ?? '');
      delays.push(seenAt - answeredAt);
    }
    return { samples, p50: quantile(delays, 0.5), p95: quantile(delays, 0.95), pollIntervalMs: 2000 };
  } finally {
    await page.close();
    await service.stop();
  }
};
