/** The scheduled mail's interval and agents reports, read from the journal exactly as their endpoints read them. */
import type { IntervalReport } from '../../contract/reports.js';
import type { Clock } from '../clock.js';
import type { HistoryStore } from '../history/history-store.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import { agentReportOf, intervalReportRequest } from './journal-reports.js';
import type { ProviderRuntime, ProviderRuntimes } from '../runtime/provider-runtimes.js';
import type { ReportRange, ReportSource } from './report-source.js';

/** The scheduled reports' lane of heavy reads: they take turns with the tokens' reads, not before them. */
const REPORTS_LANE = 'scheduled-reports';

const selectionOf = (range: ReportRange): QueueSelection | undefined => (range.queues ? { ids: range.queues, none: false } : undefined);

export const journalReportSource = (registry: ProviderRuntimes, history: HistoryStore, clock: Clock, timeZone: string): ReportSource => {
  const runtimeOf = (scope: Parameters<ProviderRuntimes['get']>[0]): ProviderRuntime => {
    const runtime = registry.get(scope);
    if (!runtime) throw new Error(`no provider "${scope.providerID}" in application "${scope.applicationID}" of account "${scope.accountID}"`);
    return runtime;
  };
  return {
    async intervals(scope, range, intervalMinutes) {
      const request = intervalReportRequest(runtimeOf(scope), {
        from: range.from,
        to: range.to,
        now: clock.now(),
        intervalMinutes,
        timeZone,
        queues: selectionOf(range),
      });
      const body = await history.intervalReport(scope, request, REPORTS_LANE);
      return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as IntervalReport;
    },
    async agents(scope, range) {
      const now = clock.now();
      const rows = await history.agentTimeRolled(scope, { from: range.from, to: range.to, now }, REPORTS_LANE);
      return agentReportOf(runtimeOf(scope), rows, range, now, selectionOf(range));
    },
  };
};
