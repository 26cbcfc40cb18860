/**
 * Section 13 of `npm run bench` alone: the Asterisk provider against the double of ARI, the answer →
 * the pixel with the event socket and with lists only, the reconnect after a cut, and requests to
 * ARI per minute at 200 live calls. Needs a build (`npm run build`). Run: npx tsx bench/measure-asterisk.ts [samples]
 */
import { asteriskFreshness, asteriskReconnect, asteriskRequestsPerMinute, asteriskSection } from './asterisk-benchmarks.js';
import { launchBrowser } from './dashboard-benchmarks.js';

const samples = Number(process.argv[2] ?? 20);
const browser = await launchBrowser();
try {
  const fresh = [await asteriskFreshness(browser, samples, 'events'), await asteriskFreshness(browser, samples, 'lists')];
  const reconnect = await asteriskReconnect(10);
  const requests = await asteriskRequestsPerMinute(200);
  process.stdout.write(`${asteriskSection(fresh, reconnect, requests)}\n`);
} finally {
  await browser.close();
}
