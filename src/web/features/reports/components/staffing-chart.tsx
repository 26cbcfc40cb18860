/**
 * Offered calls against agents needed and agents staffed per interval (recharts): calls offered
 * shaded behind (right axis), needed dashed and staffed solid (left axis), and the gap where fewer
 * were staffed than needed hatched between them, so the shortfall reads without colour.
 */
import { memo, useId, useMemo } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { chartAxes, countAxis, GRID } from '../../../components/charts/chart-axes.js';
import { ChartFrame } from '../../../components/charts/chart-frame.js';
import {
  ChartReadout,
  READOUT_CURSOR,
  READOUT_KEYS_LABEL,
  READOUT_WRAPPER,
  type Readout,
} from '../../../components/charts/chart-readout.js';
import { svgID } from '../../../components/charts/series-style.js';
import { useTimeAxis } from '../../../components/charts/use-time-axis.js';
import { formatDateTime } from '../../../lib/format.js';
import type { StaffingPoint } from '../utils/interval-series.js';

const MARGIN = { top: 8, right: 0, bottom: 4, left: 0 };
const STEP = { type: 'stepAfter', dot: false, activeDot: false, isAnimationActive: false } as const;

/** How each series looks, shared by the chart and its legend. */
export const STAFFING_STYLE = {
  offered: { color: 'var(--ended)', fillOpacity: 0.18 },
  needed: { color: 'var(--ink)', dash: '6 4' },
  staffed: { color: 'var(--talking)', dash: undefined },
  gap: { color: 'var(--missed)' },
} as const;

/** The hatching of the gap; place inside an SVG's <defs>. */
const GapPattern = ({ id }: { id: string }) => (
  <pattern id={id} patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">
    <rect width="6" height="6" fill={STAFFING_STYLE.gap.color} fillOpacity={0.15} />
    <line x1="0" y1="0" x2="0" y2="6" stroke={STAFFING_STYLE.gap.color} strokeWidth="2.5" />
  </pattern>
);

const agents = (value: number | null) => (value === null ? '—' : String(value));

export interface StaffingChartProps {
  points: readonly StaffingPoint[];
  from: number;
  to: number;
  timeZone: string;
}

export const StaffingChart = memo(({ points, from, to, timeZone }: StaffingChartProps) => {
  const hatch = svgID(useId(), 'staffing-gap');
  const axis = useTimeAxis(from, to, timeZone);
  const axes = useMemo(() => {
    const agentTop = countAxis(Math.max(0, ...points.map((p) => Math.max(p.needed ?? 0, p.staffed ?? 0))));
    const callTop = countAxis(Math.max(0, ...points.map((p) => p.offered)));
    const left = chartAxes({
      from,
      to,
      timeTicks: axis.ticks,
      timeFormat: axis.format,
      yTop: agentTop.yTop,
      yTicks: agentTop.ticks,
    });
    const right = chartAxes({
      from,
      to,
      timeTicks: axis.ticks,
      timeFormat: axis.format,
      yTop: callTop.yTop,
      yTicks: callTop.ticks,
    });
    return {
      x: left.x,
      agents: { ...left.y, yAxisId: 'agents' },
      calls: { ...right.y, yAxisId: 'calls', orientation: 'right' as const },
    };
  }, [points, from, to, axis.ticks, axis.format]);
  const readout = useMemo(() => {
    const read: Readout<StaffingPoint> = (p) => ({
      heading: `From ${formatDateTime(p.at, timeZone)}`,
      rows: [
        { name: 'Offered', value: String(p.offered) },
        { name: 'Agents needed', value: agents(p.needed) },
        { name: 'Agents staffed', value: agents(p.staffed) },
        ...(p.short > 0 ? [{ name: 'Short by', value: String(p.short) }] : []),
      ],
    });
    return <ChartReadout readout={read} />;
  }, [timeZone]);

  return (
    <ChartFrame onWidth={axis.onWidth}>
      {({ width, height }) => (
        <ComposedChart
          width={width}
          height={height}
          data={points as StaffingPoint[]}
          margin={MARGIN}
          aria-label={READOUT_KEYS_LABEL}
        >
          <defs>
            <GapPattern id={hatch} />
          </defs>
          <CartesianGrid {...GRID} yAxisId="agents" />
          <XAxis {...axes.x} />
          <YAxis {...axes.agents} />
          <YAxis {...axes.calls} />
          <Area
            {...STEP}
            yAxisId="calls"
            dataKey="offered"
            name="Offered"
            stroke="none"
            fill={STAFFING_STYLE.offered.color}
            fillOpacity={STAFFING_STYLE.offered.fillOpacity}
          />
          <Area
            {...STEP}
            yAxisId="agents"
            dataKey="gap"
            name="Short"
            stroke="none"
            fill={`url(#${hatch})`}
            fillOpacity={1}
            connectNulls={false}
          />
          <Line
            {...STEP}
            yAxisId="agents"
            dataKey="needed"
            name="Agents needed"
            stroke={STAFFING_STYLE.needed.color}
            strokeDasharray={STAFFING_STYLE.needed.dash}
            strokeWidth={1.75}
            connectNulls={false}
          />
          <Line
            {...STEP}
            yAxisId="agents"
            dataKey="staffed"
            name="Agents staffed"
            stroke={STAFFING_STYLE.staffed.color}
            strokeWidth={2.5}
            connectNulls={false}
          />
          <Tooltip content={readout} cursor={READOUT_CURSOR} wrapperStyle={READOUT_WRAPPER} isAnimationActive={false} />
        </ComposedChart>
      )}
    </ChartFrame>
  );
});
StaffingChart.displayName = 'StaffingChart';
