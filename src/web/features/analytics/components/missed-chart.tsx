/**
 * Calls started and missed per bucket (recharts), as stacked steps, one block per bucket: missed
 * solid in the missed colour, the other calls started faint above them. One path per series,
 * however many buckets: 500 bars drawn as 500 components cost analytics most of a second.
 */
import { memo, useMemo } from 'react';
import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { chartAxes, countAxis, GRID } from '../../../components/charts/chart-axes.js';
import { ChartFrame } from '../../../components/charts/chart-frame.js';
import { ChartReadout, READOUT_CURSOR, READOUT_KEYS_LABEL, READOUT_WRAPPER, type Readout } from '../../../components/charts/chart-readout.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';
import { bucketSteps, type BucketPoint } from '../utils/bucket-steps.js';

export interface MissedChartProps {
  buckets: readonly ConcurrencyBucket[];
  bucketSeconds: number;
  /** The range on screen, which the time axis spans whole. */
  from: number;
  to: number;
  timeZone: string;
}

type Counted = ConcurrencyBucket & { others: number };

const MARGIN = { top: 8, right: 16, bottom: 4, left: 0 };
const BLOCK = { type: 'stepAfter', stackId: 'started', strokeWidth: 0, isAnimationActive: false, dot: false, activeDot: false } as const;

const readoutOf =
  (timeZone: string): Readout<BucketPoint<Counted>> =>
  ({ bucket }) => ({
    heading: formatDateTime(Date.parse(bucket.start), timeZone),
    rows: [
      { name: 'Missed', value: String(bucket.missed) },
      { name: 'Other calls started', value: String(bucket.others) },
    ],
  });

export const MissedChart = memo(({ buckets, bucketSeconds, from, to, timeZone }: MissedChartProps) => {
  const axis = useTimeAxis(from, to, timeZone);
  const points = useMemo(() => bucketSteps(buckets.map((b) => ({ ...b, others: b.started - b.missed })), bucketSeconds), [buckets, bucketSeconds]);
  const axes = useMemo(() => {
    const { yTop, ticks } = countAxis(Math.max(0, ...buckets.map((b) => b.started)));
    return chartAxes({ from, to, timeTicks: axis.ticks, timeFormat: axis.format, yTop, yTicks: ticks });
  }, [buckets, from, to, axis.ticks, axis.format]);
  const readout = useMemo(() => <ChartReadout readout={readoutOf(timeZone)} />, [timeZone]);

  return (
    <ChartFrame onWidth={axis.onWidth}>
      {({ width, height }) => (
        <AreaChart width={width} height={height} data={points} margin={MARGIN} aria-label={READOUT_KEYS_LABEL}>
          <CartesianGrid {...GRID} />
          <XAxis {...axes.x} />
          <YAxis {...axes.y} />
          <Area {...BLOCK} dataKey="missed" name="Missed" fill="var(--missed)" fillOpacity={1} />
          <Area {...BLOCK} dataKey="others" name="Other calls started" fill="var(--ended)" fillOpacity={0.25} />
          <Tooltip content={readout} cursor={READOUT_CURSOR} wrapperStyle={READOUT_WRAPPER} isAnimationActive={false} />
        </AreaChart>
      )}
    </ChartFrame>
  );
});
MissedChart.displayName = 'MissedChart';
