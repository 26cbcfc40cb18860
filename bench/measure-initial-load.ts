/**
 * Section 5 of `npm run bench` alone: what the first screen downloads, as the service sends it,
 * and how soon live data is on screen. Needs a build (`npm run build`). Run: npx tsx bench/measure-initial-load.ts [rounds]
 */
import { initialLoad, launchBrowser } from './dashboard-benchmarks.js';

const rounds = Number(process.argv[2] ?? 5);
const browser = await launchBrowser();
try {
  const loads = [];
  for (let i = 0; i < rounds; i += 1) loads.push(await initialLoad(browser));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const [first] = loads;
  process.stdout.write(
    `first screen: ${((first?.firstScreenGzipBytes ?? NaN) / 1024).toFixed(0)} KiB gzip, ${((first?.firstScreenWireBytes ?? NaN) / 1024).toFixed(0)} KiB on the wire\n` +
      `${(first?.files ?? []).map((f) => `  ${f.file}: ${f.encoding}, ${(f.wireBytes / 1024).toFixed(1)} KiB`).join('\n')}\n` +
      `first live data: median ${median(loads.map((l) => l.firstLiveDataMs)).toFixed(0)} ms of ${rounds} (${loads.map((l) => l.firstLiveDataMs.toFixed(0)).join(', ')}); reference (OpenAPI document) median ${median(loads.map((l) => l.referenceMs))} ms\n`,
  );
} finally {
  await browser.close();
}
