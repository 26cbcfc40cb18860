/** Section 14 of `npm run bench` alone: Lighthouse on the three pages, both profiles. Needs a build (`npm run build`). Run: npx tsx bench/measure-lighthouse.ts */
import { lighthouseRuns, lighthouseSection } from './lighthouse-benchmarks.js';

process.stdout.write(`${lighthouseSection(await lighthouseRuns())}\n`);
