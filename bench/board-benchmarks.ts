/**
 * The agent board in Debian's Chromium at a large floor: 2,000 agents, 5 % of them changing state
 * each second, on the change stream. What each update costs the page from its arrival to the
 * board's commit (the app's `callboard:agents-to-commit` measure), and the long tasks meanwhile,
 * on the live view (its board renders the tiles in view) and on the wallboard (the tiles that fit).
 */
import type { Browser } from '@playwright/test';
import { parseReferenceMs } from './dashboard-benchmarks.js';
import { BENCH_TOKEN } from './support/bench-token.js';
import { startChild } from './support/child.js';

export const BOARD_AGENTS = 2000;
export const BOARD_CHANGE_RATE = 0.05;

const AGENTS_PATH = '/v1/accounts/bench/applications/app/provider/pbx/agents';

export interface BoardAtSize {
  page: 'live view' | 'wallboard';
  agents: number;
  seconds: number;
  /** Board commits after agent events arrived. */
  updates: number;
  commitP50: number;
  commitP95: number;
  commitMax: number;
  longTasks: number;
  longestTask: number;
  /** This page's JSON.parse of the whole board (GET .../agents): the per-machine reference. */
  parseReferenceMs: number;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

export const boardAtSize = async (browser: Browser, where: BoardAtSize['page'], options: { seconds: number }): Promise<BoardAtSize> => {
  const service = await startChild('bench/servers/service-server.ts', [
    '--provider',
    'floor',
    '--agents',
    String(BOARD_AGENTS),
    '--rate',
    String(BOARD_CHANGE_RATE),
  ]);
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.addInitScript('globalThis.__name = (fn) => fn;');
  try {
    const path = where === 'wallboard' ? 'wallboard?agents=1' : '';
    await page.goto(`http://127.0.0.1:${service.port}/${path}#token=${BENCH_TOKEN}`);
    await page.getByRole('list', { name: 'Agents' }).getByRole('listitem').first().waitFor({ timeout: 60_000 });
    await page.getByText(/· pushed|Live · updated/).first().waitFor({ timeout: 30_000 });
    // The first board and what it sets off (lazy chunks, the first layout) are not steady updates.
    await page.waitForTimeout(3000);
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[]; commits: number[] };
      w.longTasks = [];
      w.commits = [];
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => w.longTasks.push(entry.duration))).observe({ type: 'longtask' });
      new PerformanceObserver((list) =>
        list.getEntries().forEach((entry) => {
          if (entry.name === 'callboard:agents-to-commit') w.commits.push(entry.duration);
        }),
      ).observe({ entryTypes: ['measure'] });
    });
    await page.waitForTimeout(options.seconds * 1000);
    const sample = await page.evaluate(() => {
      const { longTasks, commits } = window as unknown as { longTasks: number[]; commits: number[] };
      return { longTasks, commits };
    });
    const reference = await parseReferenceMs(page, service.port, AGENTS_PATH);
    return {
      page: where,
      agents: BOARD_AGENTS,
      seconds: options.seconds,
      updates: sample.commits.length,
      commitP50: quantile(sample.commits, 0.5),
      commitP95: quantile(sample.commits, 0.95),
      commitMax: Math.max(0, ...sample.commits),
      longTasks: sample.longTasks.length,
      longestTask: Math.max(0, ...sample.longTasks),
      parseReferenceMs: reference,
    };
  } finally {
    await page.close();
    await service.stop();
  }
};

const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const mark = (ok: boolean) => (ok ? 'met' : '**missed**');

export const boardSection = (rows: BoardAtSize[]): string => `The service runs over a floor of ${BOARD_AGENTS.toLocaleString('en')} agents of whom ${fixed(BOARD_CHANGE_RATE * 100, 0)} % change state each second (every 100 ms a tenth of that: an available agent's phone rings, a ringing one answers, one on a call hangs up; one change in twenty is a phone that drops off, registering again at its next change). Calls are pushed to the service at once, registrations read every second; the board rides on the tab's change stream (\`agent-changes\` events). Chromium at 1920×1080, the built dashboard; after the first board and 3 s to settle, ${rows[0]?.seconds ?? 0} s of steady updates.
"Arrival → commit" is the app's measure \`callboard:agents-to-commit\`: from the stream read that held the agent events, through parsing, checking against the contract, applying them to the board in the query cache and rendering, to the board's layout effect. Reference: this page's \`JSON.parse\` of the whole board (\`GET .../agents\`).

| page | board commits | arrival → commit p50 / p95 / max | long tasks (longest) | reference: parse of the whole board | target: p50 ≤ 8 ms, no long task |
|---|---|---|---|---|---|
${rows
  .map(
    (row) =>
      `| ${row.page} | ${row.updates} | ${fixed(row.commitP50)} / ${fixed(row.commitP95)} / ${fixed(row.commitMax)} ms | ${row.longTasks} (${fixed(row.longestTask, 0)} ms) | ${fixed(row.parseReferenceMs, 2)} ms | ${mark(row.commitP50 <= 8 && row.longTasks === 0)} |`,
  )
  .join('\n')}
`;
