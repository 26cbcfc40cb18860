/**
 * The 304 rows of section 1 of `npm run bench` alone: a poller whose copy is current, at 1,000 and
 * 10,000 live calls, each beside a bare node:http server answering the same 304 in the same run.
 * Run: npx tsx bench/measure-lists.ts [rounds] [seconds]
 */
import { listThroughput, type ThroughputRow } from './http-benchmarks.js';

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 8);

const line = (row: ThroughputRow) =>
  `${String(row.calls).padStart(6)} calls, 304: service ${row.service.requestsPerSecond.toFixed(0)} req/s (p99 ${row.service.p99} ms), ` +
  `bare ${row.bare.requestsPerSecond.toFixed(0)} req/s (p99 ${row.bare.p99} ms), ratio ${(row.service.requestsPerSecond / row.bare.requestsPerSecond).toFixed(2)}` +
  (row.service.errors > 0 ? `, ${row.service.errors} errors` : '');

const ratios = new Map<number, number[]>();
for (let round = 1; round <= rounds; round += 1) {
  for (const calls of [1000, 10_000]) {
    for (const row of await listThroughput(calls, seconds, ['304'])) {
      process.stdout.write(`round ${round}: ${line(row)}\n`);
      ratios.set(calls, [...(ratios.get(calls) ?? []), row.service.requestsPerSecond / row.bare.requestsPerSecond]);
    }
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
for (const [calls, values] of ratios)
  process.stdout.write(
    `${calls} calls: ratio median ${median(values).toFixed(2)} of ${values.length} (${values.map((v) => v.toFixed(2)).join(', ')}); target ≥ 0.8\n`,
  );
