/**
 * Section 11 of `npm run bench` alone: service level and missed callers from the journal, 7 days at
 * the demo's traffic and 31 days at 10,000 calls a day, on both stores. Run: npx tsx bench/measure-service-levels.ts
 */
import { serviceLevelSection, serviceLevelTimings } from './service-level-benchmarks.js';

process.stdout.write(`${serviceLevelSection(await serviceLevelTimings())}\n`);
