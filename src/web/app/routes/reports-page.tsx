/** The analysts' reports: service level and staffing per interval and queue, agents' time, and every call of a range as a file. */
import { useMemo } from 'react';
import { Banner } from '../../components/ui/banner.js';
import { ReportDefinitions } from '../../features/reports/components/report-definitions.js';
import { PeriodControls, QueueControls } from '../../features/reports/components/report-controls.js';
import { ReportsDashboard } from '../../features/reports/components/reports-dashboard.js';
import { useReportSettings } from '../../features/reports/hooks/use-report-settings.js';
import { periodDays, periodWindow } from '../../features/reports/utils/report-range.js';
import { useNow } from '../../lib/clock.js';
import { useTitlePart } from '../../lib/document-title.js';
import { formatDateTime } from '../../lib/format.js';
import { useQueueParam } from '../../lib/queue-scope.js';
import { useTimeZone } from '../../lib/time-zone.js';
import { ALL_PROVIDERS, type Workspace } from '../../lib/workspace.js';
import { WorkspaceSwitcher } from '../workspace-switcher.js';
import { WorkspaceGate } from '../workspace-gate.js';

const ReportsView = ({
  workspace,
  onSelect,
}: {
  workspace: Workspace;
  onSelect: (choice: { app?: string; provider?: string }) => void;
}) => {
  const timeZone = useTimeZone();
  const [settings, setSettings] = useReportSettings();
  const [queueIDs, setQueueIDs] = useQueueParam();
  const now = useNow();
  const window = periodWindow(settings.period, now, timeZone);
  const { fromDay, toDay } = periodDays(settings.period, now, timeZone);
  const days = useMemo(() => ({ fromDay, toDay }), [fromDay, toDay]);
  const queueParam = queueIDs.join(',');
  const request = useMemo(
    () => ({ window: { from: window.from, to: window.to }, queueParam }),
    [window.from, window.to, queueParam],
  );
  // Reports are per provider: "all providers" shows the first, and says so.
  const scope = workspace.scopes[0];
  useTitlePart('page', 'Reports · Callboard');
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-semibold">Reports</h1>
          <WorkspaceSwitcher workspace={workspace} onSelect={onSelect} />
        </div>
        <PeriodControls key={settings.period.kind} settings={settings} days={days} onSettingsChange={setSettings} />
      </div>
      {scope ? <QueueControls scope={scope} ids={queueIDs} onIdsChange={setQueueIDs} /> : null}
      <p className="text-sm text-muted">
        From {formatDateTime(window.from, timeZone)} to {formatDateTime(window.to, timeZone)} ({timeZone}), in{' '}
        {settings.intervalMinutes}-minute intervals
      </p>
      {workspace.provider === ALL_PROVIDERS && scope ? (
        <Banner tone="info" title="One provider at a time">
          Reports show {workspace.providers.find((p) => p.id === scope.providerID)?.name ?? scope.providerID}; pick another
          provider above.
        </Banner>
      ) : null}
      <ReportDefinitions />
      {scope ? (
        <ReportsDashboard
          scope={scope}
          request={request}
          intervalMinutes={settings.intervalMinutes}
          days={days}
          timeZone={timeZone}
          canExport={workspace.permissions.includes('calls:export')}
        />
      ) : null}
    </div>
  );
};

export const ReportsPage = () => (
  <WorkspaceGate>{(workspace, onSelect) => <ReportsView workspace={workspace} onSelect={onSelect} />}</WorkspaceGate>
);
