/**
 * Section 15 of `npm run bench` alone: queues at 10,000 live calls, 2,000 agents and 50 queues, 5 %
 * of the calls changing each second, on an empty journal (with and without the queues in the config)
 * and on one holding the last half hour.
 * Needs a build (`npm run build`). Run: npx tsx bench/measure-queues.ts [seconds] [requests] [profile ms]
 */
import { launchBrowser } from './dashboard-benchmarks.js';
import { QUEUES_PAST_MINUTES, queuesAtSize, queuesSection } from './queues-benchmarks.js';

const seconds = Number(process.argv[2] ?? 20);
const rounds = Number(process.argv[3] ?? 300);
const profileMs = Number(process.argv[4] ?? 0);
const browser = await launchBrowser();
try {
  const profile = profileMs > 0 ? { profileMs } : {};
  const rows = [
    await queuesAtSize(browser, { seconds, rounds, pastMinutes: 0, ...profile }),
    await queuesAtSize(browser, { seconds, rounds, pastMinutes: 0, configQueues: false }),
    await queuesAtSize(browser, { seconds, rounds, pastMinutes: QUEUES_PAST_MINUTES, ...profile }),
  ];
  process.stdout.write(`${queuesSection(rows)}\n`);
} finally {
  await browser.close();
}
