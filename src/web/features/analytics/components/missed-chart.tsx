/** Calls started and missed per bucket (recharts bars): missed drawn solid in the missed colour, started as an outline. */
import { memo } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { formatDateTime } from '../../../lib/format.js';
import { axisLabel } from '../utils/chart-points.js';

const tooltipStyle = { background: 'var(--panel)', border: '1px solid var(--line)', borderRadius: 6, color: 'var(--ink)' };

export const MissedChart = memo(({ buckets, spanMs, timeZone }: { buckets: readonly ConcurrencyBucket[]; spanMs: number; timeZone: string }) => {
  const points = buckets.map((b) => ({ at: Date.parse(b.start), answeredOrOutbound: b.started - b.missed, missed: b.missed }));
  const axisTick = { fill: 'var(--muted)', fontSize: '0.75rem' };
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} barCategoryGap={0} accessibilityLayer={false}>
        <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="at" tickFormatter={(at: number) => axisLabel(at, spanMs, timeZone)} tick={axisTick} stroke="var(--line)" minTickGap={24} />
        <YAxis allowDecimals={false} tick={axisTick} stroke="var(--line)" width="auto" />
        <Bar dataKey="missed" name="Missed" stackId="calls" fill="var(--missed)" isAnimationActive={false} />
        <Bar dataKey="answeredOrOutbound" name="Other calls started" stackId="calls" fill="var(--ended)" fillOpacity={0.25} isAnimationActive={false} />
        <Tooltip isAnimationActive={false} contentStyle={tooltipStyle} labelFormatter={(at) => formatDateTime(Number(at), timeZone)} />
      </BarChart>
    </ResponsiveContainer>
  );
});
MissedChart.displayName = 'MissedChart';
