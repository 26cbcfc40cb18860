/**
 * Section 12 of `npm run bench` alone: the agent board at 2,000 agents, 5 % changing each second,
 * on the live view and the wallboard. Needs a build (`npm run build`). Run: npx tsx bench/measure-board.ts [seconds]
 */
import { boardAtSize, boardSection } from './board-benchmarks.js';
import { launchBrowser } from './dashboard-benchmarks.js';

const seconds = Number(process.argv[2] ?? 20);
const browser = await launchBrowser();
try {
  const rows = [await boardAtSize(browser, 'live view', { seconds }), await boardAtSize(browser, 'wallboard', { seconds })];
  process.stdout.write(`${boardSection(rows)}\n`);
} finally {
  await browser.close();
}
