/**
 * Service level over the range: its line and the abandon rate's per bucket with the target drawn,
 * a summary in words, how long answered callers waited, and the figures per subscriber; each as a
 * table too, and as CSV. The definition's parameters come from the address, as on the live view.
 */
import { useQuery } from '@tanstack/react-query';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { ServiceLevelFigures } from '../../../../contract/service-levels.js';
import { Button } from '../../../components/ui/button.js';
import { Panel } from '../../../components/ui/panel.js';
import { useApi } from '../../../lib/api/api-context.js';
import { serviceLevelsQueryOptions } from '../../../lib/api/service-levels-query.js';
import { csvFileName, downloadCsv } from '../../../lib/csv.js';
import { useServiceLevelSettings } from '../../../lib/service-level-settings.js';
import type { AnalyticsWindow } from '../api/analytics-queries.js';
import { serviceLevelBucketsToCsv, serviceLevelSubscribersToCsv } from '../utils/analytics-csv.js';
import { AnswerTimes } from './answer-times.js';
import { Legend } from '../../../components/charts/legend.js';
import { Loading, PendingText, Placeholder, QueryProblem } from '../../../components/ui/panel-states.js';
import { ServiceLevelChart } from './service-level-chart.js';
import { percent, seconds, ServiceLevelBucketsTable, SubscriberServiceLevelTable } from './service-level-tables.js';

const serviceLevelSummary = (totals: ServiceLevelFigures, rule: string) =>
  totals.offered === 0
    ? 'No inbound calls in this range.'
    : `Service level ${percent(totals.serviceLevel)} (${rule}), abandon rate ${percent(totals.abandonRate)}, average answer ${seconds(totals.averageAnswerSeconds)} (longest ${seconds(totals.longestAnswerSeconds)}), average talk ${seconds(totals.averageTalkSeconds)}, over ${totals.offered} inbound calls: ${totals.answered} answered, ${totals.abandoned} abandoned, ${totals.shortAbandoned} short abandons, ${totals.waiting} still waiting. ${totals.outboundPlaced} outbound calls placed, ${totals.outboundConnected} connected.`;

/** Figures as wide as a busy week's, for the sample sentence that holds the summary's place while it loads. */
const SAMPLE_TOTALS: ServiceLevelFigures = {
  offered: 8888,
  answered: 8888,
  answeredWithin: 8888,
  shortAbandoned: 888,
  abandoned: 888,
  waiting: 88,
  serviceLevel: 0.888,
  abandonRate: 0.088,
  averageAnswerSeconds: 88,
  longestAnswerSeconds: 888,
  averageTalkSeconds: 888,
  outboundPlaced: 8888,
  outboundConnected: 8888,
  averageOutboundTalkSeconds: 888,
  answerTimes: { within10: 0, within20: 0, within30: 0, within60: 0, within120: 0, later: 0 },
};

export const ServiceLevelPanels = ({ scope, window, timeZone }: { scope: ProviderScope; window: AnalyticsWindow; timeZone: string }) => {
  const client = useApi();
  const [settings] = useServiceLevelSettings();
  const definition = { answerWithinSeconds: settings.answerWithinSeconds, shortAbandonSeconds: settings.shortAbandonSeconds };
  const levels = useQuery(serviceLevelsQueryOptions(client, scope, window, definition));
  const data = levels.data;
  const rule = `answered within ${definition.answerWithinSeconds} s; callers who gave up within ${definition.shortAbandonSeconds} s left out`;
  const totals = data?.totals;
  const summary = totals ? serviceLevelSummary(totals, rule) : '';
  const exportBuckets = () => data && downloadCsv(serviceLevelBucketsToCsv(data.buckets, timeZone), csvFileName('service-level', Date.now()));
  const exportSubscribers = () => data && downloadCsv(serviceLevelSubscribersToCsv(data.subscribers), csvFileName('service-level-subscribers', Date.now()));

  return (
    <>
      <Panel
        title="Service level"
        actions={
          <Button size="sm" onClick={exportBuckets} disabled={!data}>
            Export CSV
          </Button>
        }
      >
        {levels.error && !data ? (
          <QueryProblem error={levels.error} />
        ) : (
          // Laid out as it will be while the figures load, the chart's box included, so nothing below moves when they come.
          <div className="flex flex-col gap-3">
            <p className="text-sm" aria-live="polite">
              {totals ? summary : <PendingText sample={serviceLevelSummary(SAMPLE_TOTALS, rule)} />}
            </p>
            <Legend
              items={[
                { label: `Service level (${rule})`, swatch: <line x1="0" y1="8" x2="24" y2="8" stroke="var(--inbound)" strokeWidth="2.5" /> },
                { label: 'Abandon rate', swatch: <line x1="0" y1="8" x2="24" y2="8" stroke="var(--missed)" strokeWidth="2" strokeDasharray="4 3" /> },
                { label: `Target ${Math.round(settings.warnBelow * 100)} %`, swatch: <line x1="0" y1="8" x2="24" y2="8" stroke="var(--warn)" strokeWidth="1.5" strokeDasharray="6 4" /> },
              ]}
            />
            <figure
              aria-label={`Line chart of service level and abandon rate per bucket, target ${Math.round(settings.warnBelow * 100)} %. ${data ? summary : 'Loading.'}`}
              className="h-64"
            >
              {data ? (
                <ServiceLevelChart buckets={data.buckets} bucketSeconds={data.bucketSeconds} from={window.from} to={window.to} timeZone={timeZone} target={settings.warnBelow} />
              ) : null}
            </figure>
            <Placeholder shown={data !== undefined}>
              <div className="flex flex-col gap-3">
                <ServiceLevelBucketsTable buckets={data?.buckets ?? []} bucketSeconds={data?.bucketSeconds ?? window.bucketSeconds ?? 3600} timeZone={timeZone} />
                <h3 className="text-sm font-semibold">How long answered callers waited</h3>
                <AnswerTimes times={(totals ?? SAMPLE_TOTALS).answerTimes} />
              </div>
            </Placeholder>
          </div>
        )}
      </Panel>
      <Panel
        title="Service level per subscriber"
        actions={
          <Button size="sm" onClick={exportSubscribers} disabled={!data?.subscribers.length}>
            Export CSV
          </Button>
        }
      >
        {levels.error && !data ? <QueryProblem error={levels.error} /> : null}
        {data ? <SubscriberServiceLevelTable subscribers={data.subscribers} /> : <Loading />}
      </Panel>
    </>
  );
};
