/**
 * Concurrency over the range (recharts): each direction's busiest moment per bucket, stacked
 * (inbound solid, outbound hatched), the average as a line, and the range's peak marked.
 */
import { memo, useId } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceDot, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { HatchPattern, seriesFill, seriesStroke, svgID } from '../../../components/charts/series-style.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';
import { peakBucket } from '../utils/chart-points.js';

const tooltipStyle = { background: 'var(--panel)', border: '1px solid var(--line)', borderRadius: 6, color: 'var(--ink)' };

export interface HistoryChartProps {
  buckets: readonly ConcurrencyBucket[];
  /** The range on screen, which the time axis spans whole. */
  from: number;
  to: number;
  timeZone: string;
}

export const HistoryChart = memo(({ buckets, from, to, timeZone }: HistoryChartProps) => {
  const hatchID = svgID(useId(), 'history-hatch');
  const axis = useTimeAxis(from, to, timeZone);
  const points = buckets.map((b) => ({ ...b, at: Date.parse(b.start) }));
  const peak = peakBucket(buckets);
  const axisTick = { fill: 'var(--muted)', fontSize: '0.75rem' };
  return (
    <ResponsiveContainer width="100%" height="100%" onResize={axis.onResize}>
      <ComposedChart data={points} margin={{ top: 20, right: 16, bottom: 4, left: 0 }} accessibilityLayer={false}>
        <defs>
          <HatchPattern id={hatchID} />
        </defs>
        <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="at" type="number" scale="time" domain={[from, to]} allowDataOverflow ticks={axis.ticks} interval={0} tickFormatter={axis.format} tick={axisTick} stroke="var(--line)" />
        <YAxis allowDecimals={false} tick={axisTick} stroke="var(--line)" width="auto" />
        {(['inbound', 'outbound'] as const).map((series) => (
          <Area
            key={series}
            type="stepAfter"
            dataKey={series === 'inbound' ? 'peakInbound' : 'peakOutbound'}
            name={series === 'inbound' ? 'Busiest inbound' : 'Busiest outbound'}
            stackId="peaks"
            stroke={seriesStroke[series].color}
            strokeDasharray={seriesStroke[series].dash}
            strokeWidth={2}
            {...seriesFill(series, hatchID)}
            isAnimationActive={false}
            dot={false}
            activeDot={false}
          />
        ))}
        <Line type="stepAfter" dataKey="average" name="Average live" stroke="var(--ink)" strokeDasharray="2 4" strokeWidth={1.5} dot={false} isAnimationActive={false} />
        {peak ? (
          <ReferenceDot
            x={Date.parse(peak.start)}
            y={peak.peakInbound + peak.peakOutbound}
            r={5}
            fill="var(--ink)"
            stroke="var(--panel)"
            strokeWidth={2}
            label={{ value: `Peak ${peak.peak}`, position: 'top', fill: 'var(--ink)', fontSize: '0.8125rem', fontWeight: 600 }}
          />
        ) : null}
        <Tooltip isAnimationActive={false} contentStyle={tooltipStyle} labelFormatter={(at) => formatDateTime(Number(at), timeZone)} />
      </ComposedChart>
    </ResponsiveContainer>
  );
});
HistoryChart.displayName = 'HistoryChart';
