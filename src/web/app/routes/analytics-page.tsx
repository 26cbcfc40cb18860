/** The analysts' page: concurrency, missed calls, busiest hours and calls per subscriber over a chosen range. */
import { Banner } from '../../components/ui/banner.js';
import { AnalyticsDashboard } from '../../features/analytics/components/analytics-dashboard.js';
import { RangePicker } from '../../features/analytics/components/range-picker.js';
import { useAnalyticsRange } from '../../features/analytics/hooks/use-analytics-range.js';
import { rangeWindow } from '../../features/analytics/utils/analytics-range.js';
import { useNow } from '../../lib/clock.js';
import { useTitlePart } from '../../lib/document-title.js';
import { formatDateTime } from '../../lib/format.js';
import { useLoadPhoneRules } from '../../lib/phone-rules-loader.js';
import { useTimeZone } from '../../lib/time-zone.js';
import { ALL_PROVIDERS, type Workspace } from '../../lib/workspace.js';
import { WorkspaceSwitcher } from '../workspace-switcher.js';
import { WorkspaceGate } from '../workspace-gate.js';

const AnalyticsView = ({ workspace, onSelect }: { workspace: Workspace; onSelect: (choice: { app?: string; provider?: string }) => void }) => {
  const timeZone = useTimeZone();
  const [range, setRange] = useAnalyticsRange();
  const shown = rangeWindow(range, useNow(), timeZone);
  const { from, to } = shown;
  // Analytics are per provider: "all providers" shows the first, and says so.
  const scope = workspace.scopes[0];
  useTitlePart('page', 'Analytics · Callboard');
  // No numbers here, but the country picker beside the time zone lists its countries from the phone rules.
  useLoadPhoneRules(true);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-semibold">Analytics</h1>
          <WorkspaceSwitcher workspace={workspace} onSelect={onSelect} />
        </div>
        <RangePicker range={range} window={{ from, to }} timeZone={timeZone} onRangeChange={setRange} />
      </div>
      <p className="text-sm text-muted">
        From {formatDateTime(from, timeZone)} to {formatDateTime(to, timeZone)} ({timeZone})
      </p>
      {workspace.provider === ALL_PROVIDERS && scope ? (
        <Banner tone="info" title="One provider at a time">
          Analytics show {workspace.providers.find((p) => p.id === scope.providerID)?.name ?? scope.providerID}; pick another provider above.
        </Banner>
      ) : null}
      {scope ? <AnalyticsDashboard scope={scope} window={shown} timeZone={timeZone} /> : null}
    </div>
  );
};

export const AnalyticsPage = () => (
  <WorkspaceGate>{(workspace, onSelect) => <AnalyticsView workspace={workspace} onSelect={onSelect} />}</WorkspaceGate>
);
