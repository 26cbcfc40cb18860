/**
 * Where the agent board's time goes at 2,000 agents, 5 % changing each second: a CPU profile of
 * the page, mapped back to the dashboard's sources. Needs a build. Run: npx tsx bench/profile-board.ts [live|wall] [ms]
 */
import { fileURLToPath } from 'node:url';
import { BENCH_TOKEN } from './support/bench-token.js';
import { startChild } from './support/child.js';
import { dashboardLocator, summarizeProfile, type Profile } from './support/cpu-profile.js';
import { launchBrowser } from './dashboard-benchmarks.js';
import { BOARD_AGENTS, BOARD_CHANGE_RATE } from './board-benchmarks.js';

const where = process.argv[2] === 'wall' ? 'wallboard?agents=1' : '';
const ms = Number(process.argv[3] ?? 5000);
const service = await startChild('bench/servers/service-server.ts', ['--provider', 'floor', '--agents', String(BOARD_AGENTS), '--rate', String(BOARD_CHANGE_RATE)]);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.goto(`http://127.0.0.1:${service.port}/${where}#token=${BENCH_TOKEN}`);
  await page.getByRole('list', { name: 'Agents' }).getByRole('listitem').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(3000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  await page.waitForTimeout(ms);
  const { profile } = await cdp.send('Profiler.stop');
  const summary = summarizeProfile(profile as unknown as Profile, dashboardLocator(fileURLToPath(new URL('../dist/web/assets', import.meta.url))), 25);
  process.stdout.write(`${JSON.stringify(summary, null, 1)}\n`);
} finally {
  await browser.close();
  await service.stop();
}
