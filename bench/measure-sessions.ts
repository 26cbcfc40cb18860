/**
 * Section 19 of `npm run bench` alone: the live list read with a token, an admin's session and a supervisor's.
 * Run: npx tsx bench/measure-sessions.ts [seconds] [rounds]
 */
import { sessionRuns, sessionSection } from './sessions-benchmarks.js';

const seconds = Number(process.argv[2] ?? 8);
const rounds = Number(process.argv[3] ?? 3);
process.stdout.write(`${sessionSection(await sessionRuns(seconds, rounds))}\n`);
