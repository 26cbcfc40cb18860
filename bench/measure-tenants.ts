/**
 * Section 9 of `npm run bench` alone, as many times as asked: the quiet tenant's live-list p99
 * while the heavy tenant keeps four week-long lists going, against its idle p99 in alternating
 * rounds of the same run, with the machine's load average beside each run (the target is ≤ 2).
 * Run: npx tsx bench/measure-tenants.ts [runs] [rounds per run]
 */
import { tenantIsolation } from './tenant-benchmarks.js';

const runs = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 8);

for (let run = 1; run <= runs; run += 1) {
  const t = await tenantIsolation(rounds);
  const ratio = t.fourLists.quiet.roundP99 / t.idle.roundP99;
  const pastCap = t.pastCap.quiet.roundP99 / t.idle.roundP99;
  process.stdout.write(
    `run ${run}: idle p99 ${t.idle.roundP99.toFixed(2)} ms, under 4 lists ${t.fourLists.quiet.roundP99.toFixed(2)} ms ` +
      `(${t.fourLists.heavy.answered} lists answered, p50 ${t.fourLists.heavy.p50.toFixed(0)} ms): ratio ${ratio.toFixed(2)} ${ratio <= 2 ? 'met' : 'missed'}; ` +
      `past the cap ${pastCap.toFixed(2)}; load average ${t.loadAverage.map((l) => l.toFixed(1)).join(' → ')}\n`,
  );
}
