/** Service level and abandon rate per bucket (recharts lines), with the target the service level is held to. */
import { memo } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ServiceLevelBucket } from '../../../../contract/service-levels.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';

const tooltipStyle = { background: 'var(--panel)', border: '1px solid var(--line)', borderRadius: 6, color: 'var(--ink)' };

export interface ServiceLevelChartProps {
  buckets: readonly ServiceLevelBucket[];
  bucketSeconds: number;
  from: number;
  to: number;
  timeZone: string;
  /** The service level aimed at, as a share: drawn across the chart. */
  target: number;
}

const percentOf = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);

export const ServiceLevelChart = memo(({ buckets, bucketSeconds, from, to, timeZone, target }: ServiceLevelChartProps) => {
  const axis = useTimeAxis(from, to, timeZone);
  const half = (bucketSeconds * 1000) / 2;
  // A bucket without a counted call has no level: the line breaks there rather than drop to 0.
  const points = buckets.map((b) => ({ at: Date.parse(b.start) + half, level: percentOf(b.serviceLevel), abandoned: percentOf(b.abandonRate) }));
  const axisTick = { fill: 'var(--muted)', fontSize: '0.75rem' };
  return (
    <ResponsiveContainer width="100%" height="100%" onResize={axis.onResize}>
      <LineChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="at" type="number" scale="time" domain={[from, to]} allowDataOverflow ticks={axis.ticks} interval={0} tickFormatter={axis.format} tick={axisTick} stroke="var(--line)" />
        <YAxis domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tickFormatter={(v: number) => `${v} %`} tick={axisTick} stroke="var(--line)" width="auto" />
        <ReferenceLine y={target * 100} stroke="var(--warn)" strokeDasharray="6 4" strokeWidth={1.5} />
        <Line dataKey="level" name="Service level" stroke="var(--inbound)" strokeWidth={2.5} dot={false} connectNulls={false} isAnimationActive={false} />
        <Line dataKey="abandoned" name="Abandon rate" stroke="var(--missed)" strokeWidth={2} strokeDasharray="4 3" dot={false} connectNulls={false} isAnimationActive={false} />
        <Tooltip
          isAnimationActive={false}
          contentStyle={tooltipStyle}
          labelFormatter={(at) => formatDateTime(Number(at) - half, timeZone)}
          formatter={(value) => (value === null || value === undefined ? 'no calls' : `${String(value)} %`)}
        />
      </LineChart>
    </ResponsiveContainer>
  );
});
ServiceLevelChart.displayName = 'ServiceLevelChart';
