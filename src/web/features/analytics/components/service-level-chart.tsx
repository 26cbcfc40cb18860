/** Service level and abandon rate per bucket (recharts), as lines, with the target the service level is held to. */
import { memo, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { ServiceLevelBucket } from '../../../../contract/service-levels.js';
import { chartAxes, GRID } from '../../../components/charts/chart-axes.js';
import { ChartFrame } from '../../../components/charts/chart-frame.js';
import { ChartReadout, READOUT_CURSOR, READOUT_KEYS_LABEL, READOUT_WRAPPER, type Readout } from '../../../components/charts/chart-readout.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';

export interface ServiceLevelChartProps {
  buckets: readonly ServiceLevelBucket[];
  bucketSeconds: number;
  from: number;
  to: number;
  timeZone: string;
  /** The service level aimed at, as a share: drawn across the chart. */
  target: number;
}

interface Point {
  at: number;
  start: number;
  level: number | null;
  abandoned: number | null;
}

const MARGIN = { top: 8, right: 16, bottom: 4, left: 0 };
const percentOf = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);
const PERCENT_TICKS = [0, 25, 50, 75, 100];
const percentText = (value: number | null) => (value === null ? 'no calls' : `${value} %`);
const LINE = { type: 'linear', dot: false, activeDot: false, isAnimationActive: false } as const;

const readoutOf =
  (timeZone: string): Readout<Point> =>
  (p) => ({
    heading: formatDateTime(p.start, timeZone),
    rows: [
      { name: 'Service level', value: percentText(p.level) },
      { name: 'Abandon rate', value: percentText(p.abandoned) },
    ],
  });

export const ServiceLevelChart = memo(({ buckets, bucketSeconds, from, to, timeZone, target }: ServiceLevelChartProps) => {
  const axis = useTimeAxis(from, to, timeZone);
  // A line's point is mid-bucket; a bucket without a counted call has no level: the line breaks there rather than drop to 0.
  const points = useMemo(() => {
    const half = (bucketSeconds * 1000) / 2;
    return buckets.map((b): Point => ({ at: Date.parse(b.start) + half, start: Date.parse(b.start), level: percentOf(b.serviceLevel), abandoned: percentOf(b.abandonRate) }));
  }, [buckets, bucketSeconds]);
  const axes = useMemo(
    () => chartAxes({ from, to, timeTicks: axis.ticks, timeFormat: axis.format, yTop: 100, yTicks: PERCENT_TICKS, yFormat: (value) => `${value} %` }),
    [from, to, axis.ticks, axis.format],
  );
  const readout = useMemo(() => <ChartReadout readout={readoutOf(timeZone)} />, [timeZone]);

  return (
    <ChartFrame onWidth={axis.onWidth}>
      {({ width, height }) => (
        <LineChart width={width} height={height} data={points} margin={MARGIN} aria-label={READOUT_KEYS_LABEL}>
          <CartesianGrid {...GRID} />
          <XAxis {...axes.x} />
          <YAxis {...axes.y} />
          <ReferenceLine y={target * 100} stroke="var(--warn)" strokeDasharray="6 4" strokeWidth={1.5} />
          <Line {...LINE} dataKey="level" name="Service level" stroke="var(--inbound)" strokeWidth={2.5} />
          <Line {...LINE} dataKey="abandoned" name="Abandon rate" stroke="var(--missed)" strokeWidth={2} strokeDasharray="4 3" />
          <Tooltip content={readout} cursor={READOUT_CURSOR} wrapperStyle={READOUT_WRAPPER} isAnimationActive={false} />
        </LineChart>
      )}
    </ChartFrame>
  );
});
ServiceLevelChart.displayName = 'ServiceLevelChart';
