/**
 * Section 18 of `npm run bench` alone: a million calls out as CSV and NDJSON on the embedded store,
 * and on PostgreSQL when DATABASE_URL is set; rows a second, the service's RSS growth (targets
 * ≥ 100,000 rows/s and ≤ 50 MB), and the live list's p99 during an export beside without.
 * Run: npx tsx bench/measure-export.ts [calls] [rounds]
 */
import { exportRuns, exportSection } from './export-benchmarks.js';

const calls = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 4);

process.stdout.write(`${exportSection(await exportRuns(calls, rounds))}\n`);
