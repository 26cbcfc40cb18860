/** Service level per interval, a step line per queue, and the target in force in each interval stepped beside it in the queue's colour (recharts). */
import { memo, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReportQueue } from '../../../../contract/reports.js';
import { chartAxes, GRID } from '../../../components/charts/chart-axes.js';
import { ChartFrame } from '../../../components/charts/chart-frame.js';
import {
  ChartReadout,
  READOUT_CURSOR,
  READOUT_KEYS_LABEL,
  READOUT_WRAPPER,
  type Readout,
} from '../../../components/charts/chart-readout.js';
import { QUEUE_SERIES } from '../../../components/charts/queue-series.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';
import { levelKey, targetKey, type SeriesPoint } from '../utils/interval-series.js';

const MARGIN = { top: 8, right: 16, bottom: 4, left: 0 };
const PERCENT_TICKS = [0, 25, 50, 75, 100];
const STEP = { type: 'stepAfter', dot: false, activeDot: false, isAnimationActive: false, connectNulls: false } as const;
const percentText = (value: SeriesPoint[string] | undefined) => (typeof value === 'number' ? `${value} %` : '—');

export interface IntervalServiceLevelChartProps {
  points: readonly SeriesPoint[];
  queues: readonly ReportQueue[];
  from: number;
  to: number;
  timeZone: string;
}

export const IntervalServiceLevelChart = memo(({ points, queues, from, to, timeZone }: IntervalServiceLevelChartProps) => {
  const axis = useTimeAxis(from, to, timeZone);
  const axes = useMemo(
    () =>
      chartAxes({
        from,
        to,
        timeTicks: axis.ticks,
        timeFormat: axis.format,
        yTop: 100,
        yTicks: PERCENT_TICKS,
        yFormat: (value) => `${value} %`,
      }),
    [from, to, axis.ticks, axis.format],
  );
  const readout = useMemo(() => {
    const read: Readout<SeriesPoint> = (p) => ({
      heading: `From ${formatDateTime(p.at, timeZone)}`,
      rows: queues.map((queue, q) => ({
        name: queue.name,
        value: `${p[levelKey(q)] === null ? 'no calls' : percentText(p[levelKey(q)])} (target ${percentText(p[targetKey(q)])})`,
      })),
    });
    return <ChartReadout readout={read} />;
  }, [queues, timeZone]);

  return (
    <ChartFrame onWidth={axis.onWidth}>
      {({ width, height }) => (
        <LineChart width={width} height={height} data={points as SeriesPoint[]} margin={MARGIN} aria-label={READOUT_KEYS_LABEL}>
          <CartesianGrid {...GRID} />
          <XAxis {...axes.x} />
          <YAxis {...axes.y} />
          {queues.map((queue, q) => (
            <Line
              key={targetKey(q)}
              {...STEP}
              dataKey={targetKey(q)}
              name={`${queue.name} target`}
              stroke={QUEUE_SERIES[q]?.color}
              strokeDasharray="6 4"
              strokeWidth={1.25}
              strokeOpacity={0.85}
            />
          ))}
          {queues.map((queue, q) => (
            <Line
              key={levelKey(q)}
              {...STEP}
              dataKey={levelKey(q)}
              name={queue.name}
              stroke={QUEUE_SERIES[q]?.color}
              strokeDasharray={QUEUE_SERIES[q]?.dash}
              strokeWidth={2.5}
            />
          ))}
          <Tooltip content={readout} cursor={READOUT_CURSOR} wrapperStyle={READOUT_WRAPPER} isAnimationActive={false} />
        </LineChart>
      )}
    </ChartFrame>
  );
});
IntervalServiceLevelChart.displayName = 'IntervalServiceLevelChart';
