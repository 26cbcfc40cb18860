/**
 * Section 10 of `npm run bench` alone: the Twilio provider against its double, the answer → the
 * pixel with and without status callbacks, and requests per list at 50 and 1,000 live calls.
 * Needs a build (`npm run build`). Run: npx tsx bench/measure-twilio.ts [samples]
 */
import { launchBrowser } from './dashboard-benchmarks.js';
import { twilioFreshness, twilioRequestsPerList, twilioSection } from './twilio-benchmarks.js';

const samples = Number(process.argv[2] ?? 20);
const browser = await launchBrowser();
try {
  const fresh = [await twilioFreshness(browser, samples, 'callbacks'), await twilioFreshness(browser, samples, 'lists')];
  const requests = [await twilioRequestsPerList(50), await twilioRequestsPerList(1000)];
  process.stdout.write(`${twilioSection(fresh, requests)}\n`);
} finally {
  await browser.close();
}
