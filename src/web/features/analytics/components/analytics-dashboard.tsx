/** The analytics panels for one provider and window: concurrency, missed calls, busiest hours, subscribers. */
import { useQuery } from '@tanstack/react-query';
import type { ProviderScope } from '../../../../contract/paths.js';
import { Button } from '../../../components/ui/button.js';
import { Panel } from '../../../components/ui/panel.js';
import { useApi } from '../../../lib/api/api-context.js';
import { csvFileName, downloadCsv } from '../../../lib/csv.js';
import { formatDateTime } from '../../../lib/format.js';
import { roundDown } from '../../../lib/time-ticks.js';
import { concurrencyQueryOptions, subscriberActivityQueryOptions, type AnalyticsWindow } from '../api/analytics-queries.js';
import { bucketsToCsv, subscribersToCsv } from '../utils/analytics-csv.js';
import { busiestHours } from '../utils/busiest-hours.js';
import { peakBucket } from '../utils/chart-points.js';
import { BucketsTable } from './buckets-table.js';
import { BusiestHours } from './busiest-hours.js';
import { HistoryChart } from './history-chart.js';
import { HistoryFillNotice } from './history-fill-notice.js';
import { Legend } from '../../../components/charts/legend.js';
import { Loading, PendingText, Placeholder, QueryProblem } from '../../../components/ui/panel-states.js';
import { MissedChart } from './missed-chart.js';
import { ServiceLevelPanels } from './service-level-panels.js';
import { QueueServiceLevelPanel } from './queue-service-level-panel.js';
import { SubscriberTable } from './subscriber-table.js';

export interface AnalyticsDashboardProps {
  scope: ProviderScope;
  window: AnalyticsWindow;
  timeZone: string;
}

const WEEK_MS = 7 * 86_400_000;

const peakSummary = (peak: { peak: number; start: string | number }, started: number, missed: number, timeZone: string) =>
  `Peak ${peak.peak} live calls in the bucket from ${formatDateTime(peak.start, timeZone)}; ${started} calls started, ${missed} missed.`;

const CONCURRENCY_LEGEND = [
  { label: 'Busiest inbound (stacked)', swatch: <rect x="1" y="1" width="22" height="14" fill="var(--inbound)" fillOpacity={0.35} stroke="var(--inbound)" strokeWidth="2" /> },
  { label: 'Busiest outbound (stacked, hatched)', swatch: <rect x="1" y="1" width="22" height="14" fill="none" stroke="var(--outbound)" strokeWidth="2" strokeDasharray="6 3" /> },
  { label: 'Average live', swatch: <line x1="0" y1="8" x2="24" y2="8" stroke="var(--ink)" strokeWidth="1.5" strokeDasharray="2 4" /> },
  { label: 'Peak of the range', swatch: <circle cx="12" cy="8" r="5" fill="var(--ink)" /> },
];

const MISSED_LEGEND = [
  { label: 'Missed', swatch: <rect x="1" y="1" width="22" height="14" fill="var(--missed)" /> },
  { label: 'Other calls started', swatch: <rect x="1" y="1" width="22" height="14" fill="var(--ended)" fillOpacity={0.25} /> },
];

export const AnalyticsDashboard = ({ scope, window, timeZone }: AnalyticsDashboardProps) => {
  const client = useApi();
  const concurrency = useQuery(concurrencyQueryOptions(client, scope, window, window.bucketSeconds));
  // Whole hours of the zone's clock, so each hourly bucket is one cell of the heatmap.
  const weekTo = roundDown(window.to, timeZone, 60);
  const week = { from: weekTo - WEEK_MS, to: weekTo };
  const hourly = useQuery(concurrencyQueryOptions(client, scope, week, 3600));
  const subscribers = useQuery(subscriberActivityQueryOptions(client, scope, window));

  const buckets = concurrency.data?.buckets ?? [];
  const bucketSeconds = concurrency.data?.bucketSeconds ?? window.bucketSeconds ?? 3600;
  const peak = peakBucket(buckets);
  const started = buckets.reduce((sum, b) => sum + b.started, 0);
  const missed = buckets.reduce((sum, b) => sum + b.missed, 0);
  const summary = peak ? peakSummary(peak, started, missed, timeZone) : 'No calls in this range.';
  const exportBuckets = () => downloadCsv(bucketsToCsv(buckets, timeZone), csvFileName('concurrency', Date.now()));
  const exportSubscribers = () => downloadCsv(subscribersToCsv(subscribers.data?.subscribers ?? []), csvFileName('subscribers', Date.now()));
  // Until the figures come, each panel is laid out as it will be, its charts' boxes included: nothing below them moves when they do.
  const loaded = concurrency.data !== undefined;

  return (
    <div className="flex flex-col gap-4">
      <HistoryFillNotice fill={concurrency.data?.historyFill} window={window} timeZone={timeZone} />
      <Panel
        title="Concurrent calls"
        actions={
          <Button size="sm" onClick={exportBuckets} disabled={buckets.length === 0}>
            Export CSV
          </Button>
        }
      >
        {concurrency.error && !loaded ? (
          <QueryProblem error={concurrency.error} />
        ) : (
          <div className="flex flex-col gap-3">
            <p className="text-sm" aria-live="polite">
              {loaded ? summary : <PendingText sample={peakSummary({ peak: 888, start: window.from }, 8888, 888, timeZone)} />}
            </p>
            <Legend items={CONCURRENCY_LEGEND} />
            <figure aria-label={loaded ? `Chart of concurrent calls over the range. ${summary}` : 'Chart of concurrent calls over the range, loading'} className="h-72">
              {loaded ? <HistoryChart buckets={buckets} bucketSeconds={bucketSeconds} from={window.from} to={window.to} timeZone={timeZone} /> : null}
            </figure>
            <p className="text-xs text-muted">
              Each direction is stacked at its own busiest moment of the bucket, so the stack can top the peak of all calls.
            </p>
            <Placeholder shown={loaded}>
              <BucketsTable buckets={buckets} bucketSeconds={bucketSeconds} timeZone={timeZone} />
            </Placeholder>
          </div>
        )}
      </Panel>
      <Panel title="Missed calls">
        {concurrency.error && !loaded ? (
          <QueryProblem error={concurrency.error} />
        ) : (
          <div className="flex flex-col gap-3">
            <p className="text-sm">
              {loaded ? (
                <>
                  <strong>{missed}</strong> of {started} calls started in this range were missed
                  {started > 0 ? ` (${Math.round((missed / started) * 100)} %)` : ''}.
                </>
              ) : (
                <PendingText sample="888 of 8888 calls started in this range were missed (88 %)." />
              )}
            </p>
            <Legend items={MISSED_LEGEND} />
            <figure aria-label={loaded ? `Chart of calls started and missed per bucket: ${missed} of ${started} missed.` : 'Chart of calls started and missed per bucket, loading'} className="h-48">
              {loaded ? <MissedChart buckets={buckets} bucketSeconds={bucketSeconds} from={window.from} to={window.to} timeZone={timeZone} /> : null}
            </figure>
          </div>
        )}
      </Panel>
      <ServiceLevelPanels scope={scope} window={window} timeZone={timeZone} />
      <QueueServiceLevelPanel scope={scope} window={window} timeZone={timeZone} />
      <Panel title="Busiest hours of the week">
        {hourly.error && !hourly.data ? <QueryProblem error={hourly.error} /> : null}
        {hourly.data ? <BusiestHours grid={busiestHours(hourly.data.buckets, timeZone)} timeZone={timeZone} /> : <Loading />}
      </Panel>
      <Panel
        title="Calls per subscriber"
        actions={
          <Button size="sm" onClick={exportSubscribers} disabled={!subscribers.data?.subscribers.length}>
            Export CSV
          </Button>
        }
      >
        {subscribers.error && !subscribers.data ? <QueryProblem error={subscribers.error} /> : null}
        {subscribers.data ? <SubscriberTable subscribers={subscribers.data.subscribers} /> : <Loading />}
      </Panel>
    </div>
  );
};
