/**
 * The interval report's two panels: service level per interval with each queue's target in force,
 * and offered calls against agents needed and staffed; each with a sentence, its chart, its table
 * and "Download CSV".
 */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { IntervalReport, IntervalRow } from '../../../../contract/reports.js';
import { Legend } from '../../../components/charts/legend.js';
import { QUEUE_SERIES } from '../../../components/charts/queue-series.js';
import { Button } from '../../../components/ui/button.js';
import { PagedFiguresTable } from '../../../components/ui/figures-table.js';
import { Panel } from '../../../components/ui/panel.js';
import { csvFileName, downloadCsv } from '../../../lib/csv.js';
import { formatDateTime, formatSeconds, formatShare, formatShortTime } from '../../../lib/format.js';
import {
  agentsShort,
  drawnQueues,
  intervalEnd,
  roundStaffed,
  serviceLevelPoints,
  staffingPoints,
} from '../utils/interval-series.js';
import { intervalsToCsv, staffingToCsv, zonedCell } from '../utils/report-csv.js';
import { IntervalServiceLevelChart } from './interval-service-level-chart.js';
import { STAFFING_STYLE, StaffingChart } from './staffing-chart.js';

export interface IntervalPanelProps {
  report: IntervalReport;
  timeZone: string;
}

/** "2026-11-26 14:00–14:30" in the displayed zone; the last interval is cut at the report's end. */
const intervalLabel = (row: IntervalRow, report: IntervalReport, zone: string) => {
  const start = Date.parse(row.start);
  return `${zonedCell(row.start, zone)}–${formatShortTime(intervalEnd(start, report.intervalMinutes, Date.parse(report.toDate)), zone)}`;
};

const nameOf = (report: IntervalReport) => {
  const names = new Map(report.queues.map((queue) => [queue.queueID, queue.name]));
  return (queueID: string | null) => names.get(queueID) ?? queueID ?? 'No queue';
};

const download = (what: string, text: string) => downloadCsv(text, csvFileName(what, Date.now()));

const levelSummary = (report: IntervalReport) =>
  drawnQueues(report)
    .map((queue) => {
      const rows = report.rows.filter((row) => row.queueID === queue.queueID && row.serviceLevel !== null);
      if (rows.length === 0) return `${queue.name}: no calls.`;
      const met = rows.filter(
        (row) => row.serviceLevelTarget !== null && (row.serviceLevel ?? 0) >= row.serviceLevelTarget,
      ).length;
      return `${queue.name}: target met in ${met} of ${rows.length} intervals with calls.`;
    })
    .join(' ');

export const ServiceLevelIntervalsPanel = ({ report, timeZone }: IntervalPanelProps) => {
  const queues = useMemo(() => drawnQueues(report), [report]);
  const points = useMemo(() => serviceLevelPoints(report, queues), [report, queues]);
  const summary = levelSummary(report);
  const name = nameOf(report);
  const from = Date.parse(report.fromDate);
  const to = Date.parse(report.toDate);
  const configured = report.queues.filter((queue) => queue.queueID !== null).length;
  return (
    <Panel
      title="Service level per interval"
      className="min-w-0"
      actions={
        <Button
          size="sm"
          onClick={() => download('service-level-intervals', intervalsToCsv(report.rows, report.queues, timeZone))}
        >
          Download CSV
        </Button>
      }
    >
      <div className="flex flex-col gap-3">
        <p className="text-sm">
          {summary || 'No queue in this report: the calls in no queue have no target.'}
          {configured > queues.length
            ? ` The ${queues.length} busiest of ${configured} queues are drawn; the table lists all.`
            : ''}
        </p>
        <Legend
          items={queues.flatMap((queue, q) => [
            {
              label: queue.name,
              swatch: (
                <line
                  x1="0"
                  y1="8"
                  x2="24"
                  y2="8"
                  stroke={QUEUE_SERIES[q]?.color}
                  strokeWidth="2.5"
                  strokeDasharray={QUEUE_SERIES[q]?.dash}
                />
              ),
            },
            {
              label: `${queue.name} target (thin, dashed)`,
              swatch: (
                <line x1="0" y1="8" x2="24" y2="8" stroke={QUEUE_SERIES[q]?.color} strokeWidth="1.25" strokeDasharray="6 4" />
              ),
            },
          ])}
        />
        <figure
          aria-label={`Step chart of service level per ${report.intervalMinutes}-minute interval, one line per queue, each queue's target in force drawn thin and dashed. ${summary}`}
          className="h-64"
        >
          {queues.length > 0 ? (
            <IntervalServiceLevelChart points={points} queues={queues} from={from} to={to} timeZone={timeZone} />
          ) : null}
        </figure>
        <PagedFiguresTable
          caption={`Service level per ${report.intervalMinutes}-minute interval and queue, with the parameters in force (${timeZone})`}
          columns={[
            'Interval',
            'Queue',
            'Offered',
            'Answered',
            'Abandoned',
            'Service level',
            'Target',
            'Average answer',
            'Longest wait',
          ]}
          textColumns={2}
          empty="No interval in this range."
          rowCount={report.rows.length}
          row={(i) => {
            const row = report.rows[i] as IntervalRow;
            return {
              key: `${row.start}-${row.queueID ?? 'none'}`,
              header: <span className="whitespace-nowrap">{intervalLabel(row, report, timeZone)}</span>,
              cells: [
                name(row.queueID),
                row.offered,
                row.answered,
                row.abandoned,
                row.serviceLevel === null ? '—' : `${formatShare(row.serviceLevel)} in ${row.answerWithinSeconds} s`,
                formatShare(row.serviceLevelTarget),
                formatSeconds(row.averageAnswerSeconds),
                formatSeconds(row.longestWaitSeconds),
              ],
            };
          }}
        />
      </div>
    </Panel>
  );
};

/** `?staffing=` names the queue the staffing chart shows; without it, every queue summed. */
const useStaffingQueue = (report: IntervalReport): [string | undefined, (queueID: string | undefined) => void] => {
  const [params, setParams] = useSearchParams();
  const asked = params.get('staffing') ?? undefined;
  const known = report.queues.some((queue) => queue.queueID !== null && queue.queueID === asked);
  const set = (queueID: string | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (queueID === undefined) next.delete('staffing');
        else next.set('staffing', queueID);
        return next;
      },
      { replace: true },
    );
  return [known ? asked : undefined, set];
};

const STAFFING_LEGEND = [
  {
    label: 'Calls offered (shaded, right axis)',
    swatch: <rect x="1" y="1" width="22" height="14" fill={STAFFING_STYLE.offered.color} fillOpacity={0.35} />,
  },
  {
    label: 'Agents needed (dashed)',
    swatch: (
      <line
        x1="0"
        y1="8"
        x2="24"
        y2="8"
        stroke={STAFFING_STYLE.needed.color}
        strokeWidth="1.75"
        strokeDasharray={STAFFING_STYLE.needed.dash}
      />
    ),
  },
  {
    label: 'Agents staffed (solid)',
    swatch: <line x1="0" y1="8" x2="24" y2="8" stroke={STAFFING_STYLE.staffed.color} strokeWidth="2.5" />,
  },
  {
    label: 'Fewer staffed than needed (hatched)',
    swatch: (
      <g>
        <rect x="1" y="1" width="22" height="14" fill={STAFFING_STYLE.gap.color} fillOpacity={0.15} />
        <path d="M1 15L15 1M9 15L23 1" stroke={STAFFING_STYLE.gap.color} strokeWidth="2" />
      </g>
    ),
  },
];

export const StaffingPanel = ({ report, timeZone }: IntervalPanelProps) => {
  const [queueID, setQueueID] = useStaffingQueue(report);
  const points = useMemo(() => staffingPoints(report, queueID), [report, queueID]);
  const rows = useMemo(
    () => report.rows.filter((row) => row.queueID !== null && (queueID === undefined || row.queueID === queueID)),
    [report, queueID],
  );
  const name = nameOf(report);
  const configured = report.queues.filter((queue) => queue.queueID !== null);
  // The closing point repeats the last interval: it is not one of its own.
  const intervals = points.slice(0, -1).length > 0 ? points.slice(0, -1) : points;
  const short = intervals.filter((p) => p.short > 0);
  const worst = short.reduce<(typeof short)[number] | undefined>(
    (most, p) => (most === undefined || p.short > most.short ? p : most),
    undefined,
  );
  const summary =
    configured.length === 0
      ? 'No queue in this report: staffing is counted for queues only.'
      : worst
        ? `Fewer agents staffed than needed in ${short.length} of ${intervals.length} intervals; the most, ${worst.short} short, from ${formatDateTime(worst.at, timeZone)}.`
        : `Enough agents staffed in every interval with a known need (${intervals.length} ${intervals.length === 1 ? 'interval' : 'intervals'}).`;
  const from = Date.parse(report.fromDate);
  const to = Date.parse(report.toDate);
  const summed =
    queueID === undefined && configured.length > 1 ? ' Summed over the queues, an agent in two queues counts in each.' : '';
  return (
    <Panel
      title="Offered calls and staffing"
      className="min-w-0"
      actions={
        <Button size="sm" onClick={() => download('staffing-intervals', staffingToCsv(rows, report.queues, timeZone))}>
          Download CSV
        </Button>
      }
    >
      <div className="flex flex-col gap-3">
        {configured.length > 1 ? (
          <label className="flex flex-wrap items-center gap-2 text-sm">
            <span className="text-muted">Show</span>
            <select
              className="rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink"
              value={queueID ?? ''}
              onChange={(event) => setQueueID(event.target.value === '' ? undefined : event.target.value)}
            >
              <option value="">All queues, summed</option>
              {configured.map((queue) => (
                <option key={queue.queueID} value={queue.queueID ?? ''}>
                  {queue.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <p className="text-sm">
          {summary}
          {summed}
        </p>
        <Legend items={STAFFING_LEGEND} />
        <figure
          aria-label={`Step chart of calls offered, agents needed and agents staffed per ${report.intervalMinutes}-minute interval. ${summary}`}
          className="h-64"
        >
          {configured.length > 0 ? <StaffingChart points={points} from={from} to={to} timeZone={timeZone} /> : null}
        </figure>
        <PagedFiguresTable
          caption={`Offered calls, agents needed and agents staffed per ${report.intervalMinutes}-minute interval and queue (${timeZone})`}
          columns={[
            'Interval',
            'Queue',
            'Offered',
            'Agents needed',
            'Agents staffed',
            'Short',
            'Peak concurrent',
            'Longest wait',
          ]}
          textColumns={2}
          empty="No queue's interval in this range."
          rowCount={rows.length}
          row={(i) => {
            const row = rows[i] as IntervalRow;
            const staffed = roundStaffed(row.agentsStaffed);
            const shortBy = agentsShort(row.agentsNeeded, staffed);
            return {
              key: `${row.start}-${row.queueID ?? 'none'}`,
              header: <span className="whitespace-nowrap">{intervalLabel(row, report, timeZone)}</span>,
              cells: [
                name(row.queueID),
                row.offered,
                row.agentsNeeded ?? '—',
                staffed ?? '—',
                shortBy > 0 ? `${shortBy} short` : '—',
                row.peakConcurrentCalls,
                formatSeconds(row.longestWaitSeconds),
              ],
            };
          }}
        />
      </div>
    </Panel>
  );
};
