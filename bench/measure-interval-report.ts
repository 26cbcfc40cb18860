/**
 * The interval report's section of `npm run bench` alone: 31 days at 10,000 calls a day in 20
 * queues, on both stores. Run: npx tsx bench/measure-interval-report.ts
 */
import { intervalReportSection, intervalReportTimings } from './interval-report-benchmarks.js';

process.stdout.write(`${intervalReportSection(await intervalReportTimings())}\n`);
