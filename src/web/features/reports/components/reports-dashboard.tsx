/** The reports for one provider, range, interval and queues: the interval panels, agents' time and (with `calls:export`) the export, each with its states. */
import { useQuery } from '@tanstack/react-query';
import { memo } from 'react';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { IntervalMinutes } from '../../../../contract/reports.js';
import { Banner } from '../../../components/ui/banner.js';
import { Panel } from '../../../components/ui/panel.js';
import { Loading, QueryProblem } from '../../../components/ui/panel-states.js';
import { useApi } from '../../../lib/api/api-context.js';
import { agentReportQueryOptions, intervalReportQueryOptions, type ReportRequest } from '../api/report-queries.js';
import { AgentTimePanel } from './agent-time-panel.js';
import { ExportCalls } from './export-calls.js';
import { ServiceLevelIntervalsPanel, StaffingPanel } from './interval-panels.js';

export interface ReportsDashboardProps {
  scope: ProviderScope;
  request: ReportRequest;
  intervalMinutes: IntervalMinutes;
  days: { fromDay: string; toDay: string };
  timeZone: string;
  /** Whether "Export all calls" is offered: the connection holds `calls:export`. */
  canExport: boolean;
}

/**
 * A panel's frame while its report is on its way (as tall as its chart will be, so little moves when
 * it comes), or failed before any answer (a later failure keeps the last answer on screen).
 */
const Pending = ({ title, error }: { title: string; error: Error | null }) => (
  <Panel title={title} className="min-w-0">
    {error ? (
      <QueryProblem error={error} />
    ) : (
      <div className="flex h-80 flex-col">
        <Loading />
      </div>
    )}
  </Panel>
);

/** Drawn again only when what it shows changes: the page around it renders at every tick of the clock. */
export const ReportsDashboard = memo(({ scope, request, intervalMinutes, days, timeZone, canExport }: ReportsDashboardProps) => {
  const client = useApi();
  const intervals = useQuery(intervalReportQueryOptions(client, scope, request, intervalMinutes));
  const agents = useQuery(agentReportQueryOptions(client, scope, request));
  const staleError = (intervals.data ? intervals.error : null) ?? (agents.data ? agents.error : null);
  return (
    <div className="flex flex-col gap-4">
      {staleError ? (
        <Banner tone="warn" title="Cannot refresh the reports">
          {staleError.detail} The figures below are the last the service sent.
        </Banner>
      ) : null}
      {intervals.data ? (
        <>
          {intervals.data.rows.every((row) => row.offered === 0) ? (
            <p role="status" className="rounded-md border border-line bg-raised px-4 py-2 text-sm">
              No call was offered to these queues in this range.
            </p>
          ) : null}
          <div className="grid gap-4 2xl:grid-cols-2">
            <ServiceLevelIntervalsPanel report={intervals.data} timeZone={timeZone} />
            <StaffingPanel report={intervals.data} timeZone={timeZone} />
          </div>
        </>
      ) : (
        <div className="grid gap-4 2xl:grid-cols-2">
          <Pending title="Service level per interval" error={intervals.error} />
          <Pending title="Offered calls and staffing" error={intervals.error} />
        </div>
      )}
      {agents.data ? <AgentTimePanel report={agents.data} /> : <Pending title="Agents' time" error={agents.error} />}
      {canExport ? <ExportCalls scope={scope} request={request} days={days} timeZone={timeZone} /> : null}
    </div>
  );
});
ReportsDashboard.displayName = 'ReportsDashboard';
