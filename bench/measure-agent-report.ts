/**
 * The agents report alone: 31 days of 2,000 agents on both stores (a smaller center with arguments).
 * Run: npx tsx bench/measure-agent-report.ts [agents] [days]
 */
import { agentReportSection, agentReportTimings, REPORT_AGENTS, REPORT_DAYS } from './agent-report-benchmarks.js';

const agents = Number(process.argv[2] ?? REPORT_AGENTS);
const days = Number(process.argv[3] ?? REPORT_DAYS);
process.stdout.write(`${agentReportSection(await agentReportTimings(agents, days))}\n`);
