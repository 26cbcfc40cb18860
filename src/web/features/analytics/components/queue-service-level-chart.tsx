/** Service level per bucket, one line per queue (recharts), each queue's own target drawn in its colour and dash. */
import { memo, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { QueueServiceLevel } from '../../../../contract/service-levels.js';
import { chartAxes, GRID } from '../../../components/charts/chart-axes.js';
import { ChartFrame } from '../../../components/charts/chart-frame.js';
import { ChartReadout, READOUT_CURSOR, READOUT_KEYS_LABEL, READOUT_WRAPPER, type Readout } from '../../../components/charts/chart-readout.js';
import { QUEUE_SERIES } from '../../../components/charts/queue-series.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';


type Point = { at: number; start: number } & Record<string, number | null>;

const MARGIN = { top: 8, right: 16, bottom: 4, left: 0 };
const PERCENT_TICKS = [0, 25, 50, 75, 100];
const LINE = { type: 'linear', dot: false, activeDot: false, isAnimationActive: false, connectNulls: false } as const;
const percentOf = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);

const keyOf = (index: number) => `q${index}`;

export const QueueServiceLevelChart = memo(
  ({ queues, bucketSeconds, from, to, timeZone }: { queues: readonly QueueServiceLevel[]; bucketSeconds: number; from: number; to: number; timeZone: string }) => {
    const axis = useTimeAxis(from, to, timeZone);
    const points = useMemo(() => {
      const half = (bucketSeconds * 1000) / 2;
      return (queues[0]?.buckets ?? []).map((bucket, i) => {
        const start = Date.parse(bucket.start);
        const point: Point = { at: start + half, start } as Point;
        queues.forEach((queue, q) => {
          point[keyOf(q)] = percentOf(queue.buckets[i]?.serviceLevel ?? null);
        });
        return point;
      });
    }, [queues, bucketSeconds]);
    const axes = useMemo(
      () => chartAxes({ from, to, timeTicks: axis.ticks, timeFormat: axis.format, yTop: 100, yTicks: PERCENT_TICKS, yFormat: (value) => `${value} %` }),
      [from, to, axis.ticks, axis.format],
    );
    const readout = useMemo(() => {
      const read: Readout<Point> = (p) => ({
        heading: formatDateTime(p.start, timeZone),
        rows: queues.map((queue, q) => ({ name: queue.name, value: p[keyOf(q)] === null || p[keyOf(q)] === undefined ? 'no calls' : `${p[keyOf(q)]} %` })),
      });
      return <ChartReadout readout={read} />;
    }, [queues, timeZone]);

    return (
      <ChartFrame onWidth={axis.onWidth}>
        {({ width, height }) => (
          <LineChart width={width} height={height} data={points} margin={MARGIN} aria-label={READOUT_KEYS_LABEL}>
            <CartesianGrid {...GRID} />
            <XAxis {...axes.x} />
            <YAxis {...axes.y} />
            {queues.map((queue, q) =>
              queue.serviceLevelTarget === null ? null : (
                <ReferenceLine key={`target-${keyOf(q)}`} y={queue.serviceLevelTarget * 100} stroke={QUEUE_SERIES[q]?.color} strokeDasharray="6 4" strokeWidth={1} strokeOpacity={0.8} />
              ),
            )}
            {queues.map((queue, q) => (
              <Line key={keyOf(q)} {...LINE} dataKey={keyOf(q)} name={queue.name} stroke={QUEUE_SERIES[q]?.color} strokeDasharray={QUEUE_SERIES[q]?.dash} strokeWidth={2.5} />
            ))}
            <Tooltip content={readout} cursor={READOUT_CURSOR} wrapperStyle={READOUT_WRAPPER} isAnimationActive={false} />
          </LineChart>
        )}
      </ChartFrame>
    );
  },
);
QueueServiceLevelChart.displayName = 'QueueServiceLevelChart';
