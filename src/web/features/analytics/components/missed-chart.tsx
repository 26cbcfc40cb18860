/** Calls started and missed per bucket, as bars: missed solid in the missed colour, the other calls started faint above them. */
import { memo, useId } from 'react';
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { bars, countAxis } from '../../../components/charts/chart-paths.js';
import { svgID } from '../../../components/charts/series-style.js';
import { TimeChart } from '../../../components/charts/time-chart.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';

export interface MissedChartProps {
  buckets: readonly ConcurrencyBucket[];
  bucketSeconds: number;
  /** The range on screen, which the time axis spans whole. */
  from: number;
  to: number;
  timeZone: string;
}

export const MissedChart = memo(({ buckets, bucketSeconds, from, to, timeZone }: MissedChartProps) => {
  const id = useId();
  const axis = useTimeAxis(from, to, timeZone);
  // A bar is centred on its x: placed mid-bucket, it covers the bucket's own stretch of the time axis.
  const half = (bucketSeconds * 1000) / 2;
  const points = buckets.map((b) => ({ at: Date.parse(b.start) + half, started: b.started, missed: b.missed }));
  const { yTop, ticks } = countAxis(Math.max(0, ...points.map((p) => p.started)));
  return (
    <TimeChart
      points={points}
      from={from}
      to={to}
      timeTicks={axis}
      yTop={yTop}
      yTicks={ticks}
      margin={{ top: 8, right: 16 }}
      clipID={svgID(id, 'missed-plot')}
      plot={(frame) => (
        <>
          <path d={bars(points, () => 0, (p) => p.missed, half, frame)} fill="var(--missed)" />
          <path d={bars(points, (p) => p.missed, (p) => p.started, half, frame)} fill="var(--ended)" fillOpacity={0.25} />
        </>
      )}
      readout={(p) => ({
        heading: formatDateTime(p.at - half, timeZone),
        rows: [
          { name: 'Missed', value: String(p.missed) },
          { name: 'Other calls started', value: String(p.started - p.missed) },
        ],
      })}
    />
  );
});
MissedChart.displayName = 'MissedChart';
