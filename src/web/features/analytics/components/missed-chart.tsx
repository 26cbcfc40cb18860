/** Calls started and missed per bucket (recharts bars): missed drawn solid in the missed colour, started as an outline. */
import { memo } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';

const tooltipStyle = { background: 'var(--panel)', border: '1px solid var(--line)', borderRadius: 6, color: 'var(--ink)' };

export interface MissedChartProps {
  buckets: readonly ConcurrencyBucket[];
  bucketSeconds: number;
  /** The range on screen, which the time axis spans whole. */
  from: number;
  to: number;
  timeZone: string;
}

export const MissedChart = memo(({ buckets, bucketSeconds, from, to, timeZone }: MissedChartProps) => {
  const axis = useTimeAxis(from, to, timeZone);
  // A bar is centred on its x: placed mid-bucket, it covers the bucket's own stretch of the time axis.
  const half = (bucketSeconds * 1000) / 2;
  const points = buckets.map((b) => ({ at: Date.parse(b.start) + half, answeredOrOutbound: b.started - b.missed, missed: b.missed }));
  const axisTick = { fill: 'var(--muted)', fontSize: '0.75rem' };
  return (
    <ResponsiveContainer width="100%" height="100%" onResize={axis.onResize}>
      <BarChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} barCategoryGap={0} accessibilityLayer={false}>
        <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" vertical={false} />
        {/* A time scale, not one category per bar: ticks fall on round times, not on whichever bucket comes first. */}
        <XAxis dataKey="at" type="number" scale="time" domain={[from, to]} allowDataOverflow ticks={axis.ticks} interval={0} tickFormatter={axis.format} tick={axisTick} stroke="var(--line)" />
        <YAxis allowDecimals={false} tick={axisTick} stroke="var(--line)" width="auto" />
        <Bar dataKey="missed" name="Missed" stackId="calls" fill="var(--missed)" isAnimationActive={false} />
        <Bar dataKey="answeredOrOutbound" name="Other calls started" stackId="calls" fill="var(--ended)" fillOpacity={0.25} isAnimationActive={false} />
        <Tooltip isAnimationActive={false} contentStyle={tooltipStyle} labelFormatter={(at) => formatDateTime(Number(at) - half, timeZone)} />
      </BarChart>
    </ResponsiveContainer>
  );
});
MissedChart.displayName = 'MissedChart';
