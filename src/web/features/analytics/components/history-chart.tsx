/**
 * Concurrency over the range (recharts): each direction's busiest moment per bucket, stacked
 * (inbound solid, outbound hatched), the average as a line, and the range's peak marked.
 */
import { memo, useId, useMemo } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceDot, Tooltip, XAxis, YAxis } from 'recharts';
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { chartAxes, countAxis, GRID } from '../../../components/charts/chart-axes.js';
import { ChartFrame } from '../../../components/charts/chart-frame.js';
import { ChartReadout, READOUT_CURSOR, READOUT_KEYS_LABEL, READOUT_WRAPPER, type Readout } from '../../../components/charts/chart-readout.js';
import { HatchPattern, SERIES, stackedSeriesArea, svgID } from '../../../components/charts/series-style.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';
import { bucketSteps, type BucketPoint } from '../utils/bucket-steps.js';
import { peakBucket } from '../utils/chart-points.js';

export interface HistoryChartProps {
  buckets: readonly ConcurrencyBucket[];
  bucketSeconds: number;
  /** The range on screen, which the time axis spans whole. */
  from: number;
  to: number;
  timeZone: string;
}

const MARGIN = { top: 20, right: 16, bottom: 4, left: 0 };
const KEYS = { inbound: 'peakInbound', outbound: 'peakOutbound' } as const;

const readoutOf =
  (timeZone: string): Readout<BucketPoint<ConcurrencyBucket>> =>
  ({ bucket }) => ({
    heading: formatDateTime(Date.parse(bucket.start), timeZone),
    rows: [
      { name: 'Busiest inbound', value: String(bucket.peakInbound) },
      { name: 'Busiest outbound', value: String(bucket.peakOutbound) },
      { name: 'Average live', value: String(bucket.average) },
    ],
  });

export const HistoryChart = memo(({ buckets, bucketSeconds, from, to, timeZone }: HistoryChartProps) => {
  const hatchID = svgID(useId(), 'history-hatch');
  const axis = useTimeAxis(from, to, timeZone);
  const points = useMemo(() => bucketSteps(buckets, bucketSeconds), [buckets, bucketSeconds]);
  const peak = useMemo(() => peakBucket(buckets), [buckets]);
  const axes = useMemo(() => {
    const { yTop, ticks } = countAxis(Math.max(0, ...buckets.map((b) => Math.max(b.peakInbound + b.peakOutbound, b.average))));
    return chartAxes({ from, to, timeTicks: axis.ticks, timeFormat: axis.format, yTop, yTicks: ticks });
  }, [buckets, from, to, axis.ticks, axis.format]);
  const areas = useMemo(() => SERIES.map((series) => stackedSeriesArea(series, KEYS[series], hatchID, 2)), [hatchID]);
  const readout = useMemo(() => <ChartReadout readout={readoutOf(timeZone)} />, [timeZone]);

  return (
    <ChartFrame onWidth={axis.onWidth}>
      {({ width, height }) => (
        <ComposedChart width={width} height={height} data={points} margin={MARGIN} aria-label={READOUT_KEYS_LABEL}>
          <defs>
            <HatchPattern id={hatchID} />
          </defs>
          <CartesianGrid {...GRID} />
          <XAxis {...axes.x} />
          <YAxis {...axes.y} />
          {areas.map((area) => (
            <Area key={area.dataKey} {...area} />
          ))}
          <Line
            type="stepAfter"
            dataKey="average"
            name="Average live"
            stroke="var(--ink)"
            strokeDasharray="2 4"
            strokeWidth={1.5}
            dot={false}
            activeDot={false}
            isAnimationActive={false}
          />
          {peak ? (
            <ReferenceDot
              x={Date.parse(peak.start)}
              y={peak.peakInbound + peak.peakOutbound}
              r={5}
              fill="var(--ink)"
              stroke="var(--panel)"
              strokeWidth={2}
              label={{ value: `Peak ${peak.peak}`, position: 'top', offset: 10, fill: 'var(--ink)', fontSize: '0.8125rem', fontWeight: 600 }}
            />
          ) : null}
          <Tooltip content={readout} cursor={READOUT_CURSOR} wrapperStyle={READOUT_WRAPPER} isAnimationActive={false} />
        </ComposedChart>
      )}
    </ChartFrame>
  );
});
HistoryChart.displayName = 'HistoryChart';
