/**
 * Where a scheduled mail takes its interval and agents reports from: the journal's report queries,
 * stated as the mail needs them.
 */
import type { ProviderScope } from '../../contract/paths.js';
import type { AgentReport, IntervalMinutes, IntervalReport } from '../../contract/reports.js';

export interface ReportRange {
  from: number;
  to: number;
  /** Only these queues; undefined for all of them and the calls in none. */
  queues: readonly string[] | undefined;
}

export interface ReportSource {
  intervals(scope: ProviderScope, range: ReportRange, intervalMinutes: IntervalMinutes): Promise<IntervalReport>;
  agents(scope: ProviderScope, range: ReportRange): Promise<AgentReport>;
}
