/**
 * The export section alone: a million calls out as CSV and NDJSON on the embedded store, and on
 * PostgreSQL when DATABASE_URL is set; rows a second, the service's RSS growth (targets ≥ 100,000
 * rows/s and ≤ 50 MB), and the live list's p99 during an export beside without.
 * Run: npx tsx bench/measure-export.ts [calls] [rounds]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { exportBench, type ExportBench } from './export-benchmarks.js';

const calls = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 4);

const report = (r: ExportBench) => {
  const run = (e: ExportBench['csv']) =>
    `${e.format}: ${e.rows.toLocaleString('en')} rows, ${(e.bytes / 1e6).toFixed(0)} MB in ${e.seconds.toFixed(1)} s = ` +
    `${Math.round(e.rowsPerSecond).toLocaleString('en')} rows/s (${e.rowsPerSecond >= 100_000 ? 'met' : 'missed'}), first byte ${e.firstByteMs.toFixed(0)} ms, ` +
    `RSS ${e.rssBeforeMB.toFixed(0)} → ${e.rssPeakMB.toFixed(0)} MB: +${e.rssGrowthMB.toFixed(1)} MB (${e.rssGrowthMB <= 50 ? 'met' : 'missed'})`;
  const ratio = r.list.underExportP99 / r.list.idleP99;
  process.stdout.write(
    `${r.store}, ${r.calls.toLocaleString('en')} calls (filled in ${r.fillSeconds.toFixed(0)} s); HEAD count ${r.headCountMs.toFixed(0)} ms\n` +
      `  ${run(r.csv)}\n  ${run(r.ndjson)}\n` +
      `  live list p99 idle ${r.list.idleP99.toFixed(2)} ms, during an export ${r.list.underExportP99.toFixed(2)} ms: ratio ${ratio.toFixed(2)} ` +
      `(median of ${r.list.rounds} rounds' p99; export downloading at ${r.list.exportMBps.toFixed(0)} MB/s; ${r.list.failed} polls failed; ` +
      `load average ${r.list.loadAverage.map((l) => l.toFixed(1)).join(' → ')})\n`,
  );
};

const dir = mkdtempSync(join(tmpdir(), 'callboard-export-bench-'));
try {
  report(await exportBench('embedded (SQLite)', { kind: 'embedded', file: join(dir, 'callboard.db') }, calls, rounds));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const url = process.env.DATABASE_URL;
if (url) {
  const schema = `export_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    report(await exportBench('PostgreSQL', { kind: 'postgres', url, schema }, calls, rounds));
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}
