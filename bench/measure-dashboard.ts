/**
 * Section 4 of `npm run bench` alone, the stream rows (or with `--poll`, the polling rows): the
 * live view at 1,000 and 10,000 live calls, 5 % changing per second, with the page's trace and CPU
 * profile. Needs a build (`npm run build`).
 * Run: npx tsx bench/measure-dashboard.ts [--poll] [seconds] [calls...]
 */
import { dashboardAtSize, launchBrowser } from './dashboard-benchmarks.js';

const transport = process.argv.includes('--poll') ? 'poll' : 'stream';
const args = process.argv.slice(2).filter((arg) => arg !== '--poll');
const seconds = Number(args[0] ?? 20);
const sizes = args.slice(1).map(Number);
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

const browser = await launchBrowser();
try {
  for (const calls of sizes.length > 0 ? sizes : [1000, 10_000]) {
    const row = await dashboardAtSize(browser, calls, transport, { seconds, profileMs: 5000 });
    process.stdout.write(
      `${calls} calls: ${row.updates} commits in ${seconds} s; arrival → commit p50 ${fixed(row.commitP50)} / p95 ${fixed(row.commitP95)} / max ${fixed(row.commitMax)} ms; parse of one poll ${fixed(row.parseReferenceMs)} ms;${row.fromResponseP50 === undefined ? '' : ` from the response's first byte p50 ${fixed(row.fromResponseP50)} ms (the page taking in the body alone ${fixed(row.bodyReferenceMs ?? NaN)} ms);`} long tasks ${row.longTasks} (longest ${fixed(row.longestTask, 0)} ms); scroll ${fixed(row.scrollFps, 0)} fps\n`,
    );
    if (row.trace) {
      const t = row.trace;
      process.stdout.write(
        `  trace over ${fixed(t.windowMs / 1000, 0)} s: busy ${fixed(t.busyMs, 0)} ms; layout ${fixed(t.layoutMs, 0)} ms in ${t.layouts}; style ${fixed(t.styleMs, 0)} ms; paint ${fixed(t.paintMs, 0)} ms; gc ${fixed(t.gcMs, 0)} ms; ${t.domElements} elements\n`,
      );
    }
    if (row.profile) {
      process.stdout.write(`  profile: busy ${fixed(row.profile.busyMs / 1000)} s of ${fixed(row.profile.windowMs / 1000)} s\n`);
      for (const entry of row.profile.functions) process.stdout.write(`    ${fixed(entry.share * 100, 0)} % ${entry.name}\n`);
      process.stdout.write(`    by file: ${row.profile.files.map((f) => `${f.name} ${fixed(f.share * 100, 0)} %`).join(', ')}\n`);
    }
  }
} finally {
  await browser.close();
}
