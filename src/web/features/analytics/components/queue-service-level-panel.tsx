/**
 * Service level over the range per queue: a line for each queue with its own target drawn, a
 * sentence per queue, and a table of every queue's figures; both as CSV. Shown where the provider
 * has queues.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { QueueServiceLevel } from '../../../../contract/service-levels.js';
import { Button } from '../../../components/ui/button.js';
import { Panel } from '../../../components/ui/panel.js';
import { useApi } from '../../../lib/api/api-context.js';
import { queueServiceLevelsQueryOptions } from '../../../lib/api/service-levels-query.js';
import { queueListQueryOptions } from '../../../lib/api/queues-query.js';
import { csvFileName, downloadCsv } from '../../../lib/csv.js';
import type { AnalyticsWindow } from '../api/analytics-queries.js';
import { queueServiceLevelBucketsToCsv, queueServiceLevelsToCsv } from '../utils/analytics-csv.js';
import { ScrollingFiguresTable } from '../../../components/ui/figures-table.js';
import { Legend } from '../../../components/charts/legend.js';
import { MOST_QUEUE_LINES, QUEUE_SERIES } from '../../../components/charts/queue-series.js';
import { Loading, QueryProblem } from '../../../components/ui/panel-states.js';
import { QueueServiceLevelChart } from './queue-service-level-chart.js';
import { percent, seconds } from './service-level-tables.js';

const verdict = (queue: QueueServiceLevel) => {
  const level = queue.totals.serviceLevel;
  if (level === null || queue.serviceLevelTarget === null) return '';
  return level < queue.serviceLevelTarget ? ` (below its target ${percent(queue.serviceLevelTarget)})` : ` (target ${percent(queue.serviceLevelTarget)} met)`;
};

const summaryOf = (queues: readonly QueueServiceLevel[]) =>
  queues
    .map((q) => (q.totals.offered === 0 ? `${q.name}: no calls.` : `${q.name}: ${percent(q.totals.serviceLevel)}${verdict(q)} within ${q.answerWithinSeconds} s over ${q.totals.offered} calls.`))
    .join(' ');

/** The panel, where the provider has queues (asked once: its live figures say which it has). */
export const QueueServiceLevelPanel = ({ scope, window, timeZone }: { scope: ProviderScope; window: AnalyticsWindow; timeZone: string }) => {
  const client = useApi();
  const list = useQuery(queueListQueryOptions(client, scope));
  if (!list.data || list.data.queues.length === 0) return null;
  return <QueueFigures scope={scope} window={window} timeZone={timeZone} />;
};

const NO_QUEUES: QueueServiceLevel[] = [];

const QueueFigures = ({ scope, window, timeZone }: { scope: ProviderScope; window: AnalyticsWindow; timeZone: string }) => {
  const client = useApi();
  const answer = useQuery(queueServiceLevelsQueryOptions(client, scope, window));
  const data = answer.data;
  const queues = data?.queues ?? NO_QUEUES;
  // The configured queues are drawn (the busiest first when there are more than the chart can tell apart); the table lists all.
  // Once per answer: the page re-renders every second, and a new array would redraw the (memoized) chart each time.
  const { withTarget, drawn, summary } = useMemo(() => {
    const configured = queues.filter((q) => q.serviceLevelTarget !== null);
    const busiest = configured.slice().sort((a, b) => b.totals.offered - a.totals.offered).slice(0, MOST_QUEUE_LINES);
    return { withTarget: configured, drawn: busiest, summary: summaryOf(busiest) };
  }, [queues]);
  if (data && withTarget.length === 0) return null;
  const exportTable = () => data && downloadCsv(queueServiceLevelsToCsv(queues), csvFileName('service-level-queues', Date.now()));
  const exportBuckets = () => data && downloadCsv(queueServiceLevelBucketsToCsv(queues, timeZone), csvFileName('service-level-queue-buckets', Date.now()));

  return (
    <Panel
      title="Service level per queue"
      actions={
        <div className="flex gap-2">
          <Button size="sm" onClick={exportBuckets} disabled={!data}>
            Export buckets (CSV)
          </Button>
          <Button size="sm" onClick={exportTable} disabled={!data}>
            Export table (CSV)
          </Button>
        </div>
      }
    >
      {answer.error && !data ? (
        <QueryProblem error={answer.error} />
      ) : !data ? (
        <Loading />
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-sm" aria-live="polite">
            {summary}
            {withTarget.length > drawn.length ? ` The ${drawn.length} busiest of ${withTarget.length} queues are drawn; the table lists all.` : ''}
          </p>
          <Legend
            items={drawn.map((queue, q) => ({
              label: `${queue.name} (target ${percent(queue.serviceLevelTarget)}, dashed)`,
              swatch: <line x1="0" y1="8" x2="24" y2="8" stroke={QUEUE_SERIES[q]?.color} strokeWidth="2.5" strokeDasharray={QUEUE_SERIES[q]?.dash} />,
            }))}
          />
          <figure aria-label={`Line chart of service level per bucket, one line per queue, each queue's target dashed. ${summary}`} className="h-64">
            <QueueServiceLevelChart queues={drawn} bucketSeconds={data.bucketSeconds} from={window.from} to={window.to} timeZone={timeZone} />
          </figure>
          <ScrollingFiguresTable
            caption="Each queue's figures over the range, with its own answer time and target"
            columns={['Queue', 'Offered', 'Answered', 'Service level', 'Target', 'Abandon rate', 'Average answer', 'Longest answer', 'Average talk']}
            textColumns={1}
            empty="No queue in this range."
            rows={queues.map((q) => ({
              key: q.queueID ?? 'none',
              header: q.name,
              cells: [
                q.totals.offered,
                q.totals.answered,
                `${percent(q.totals.serviceLevel)} in ${q.answerWithinSeconds} s`,
                q.serviceLevelTarget === null ? '—' : percent(q.serviceLevelTarget),
                percent(q.totals.abandonRate),
                seconds(q.totals.averageAnswerSeconds),
                seconds(q.totals.longestAnswerSeconds),
                seconds(q.totals.averageTalkSeconds),
              ],
            }))}
          />
        </div>
      )}
    </Panel>
  );
};
