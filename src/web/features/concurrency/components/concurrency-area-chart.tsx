/** The drawing of the concurrency chart (recharts): stacked inbound and outbound areas, the peak marked. */
import { memo, useEffect, useId, useState } from 'react';
import {
  Area,
  AreaChart,
  CartesianGrid,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { sampleTotal, type ConcurrencySample } from '../../../lib/concurrency-samples.js';
import { formatClockTime, formatShortTime } from '../../../lib/format.js';
import { tickLabel } from '../../../lib/time-ticks.js';
import { axisTop, type ChartPoint } from '../utils/chart-series.js';
import {
  HatchPattern,
  seriesFill,
  seriesLabel,
  seriesStroke,
  svgID,
  type Series,
} from '../../../components/charts/series-style.js';

export interface ConcurrencyAreaChartProps {
  points: ChartPoint[];
  from: number;
  to: number;
  ticks: number[];
  tickStepMinutes: number;
  peak: ConcurrencySample | undefined;
  timeZone: string;
  size: 'normal' | 'wall';
}

/**
 * Font sizes in rem follow the wallboard's scale. Strokes and the peak's dot are SVG pixels, given
 * here for a 16px rem and scaled to the page's.
 */
const metrics = {
  normal: { fontRem: 0.75, peakFont: '0.8125rem', strokeWidth: 2, dot: 5 },
  wall: { fontRem: 1.375, peakFont: '1.625rem', strokeWidth: 3, dot: 9 },
};

/** recharts' gap between an axis line and its labels: the tick mark and the margin after it. */
const TICK_GAP_PX = 6 + 2;
/** A digit's width in ems, a little over what the page's sans-serif fonts draw. */
const DIGIT_EM = 0.62;

/**
 * The axes' room worked out from the font, not measured: recharts' own sizing ("auto") reads the
 * labels' boxes after every render, which forces the whole page's layout once a second while the
 * call table changes under it.
 */
export const axisRoom = (fontPx: number, yTop: number) => ({
  yWidth: Math.ceil(String(yTop).length * DIGIT_EM * fontPx + TICK_GAP_PX + 4),
  xHeight: Math.ceil(fontPx * 1.25 + TICK_GAP_PX + 2),
});

const readRemPx = () => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;

/** The root font size, read again when the window is resized (the wallboard's rem follows the screen). */
const useRemPx = (): number => {
  const [remPx, setRemPx] = useState(readRemPx);
  useEffect(() => {
    const onResize = () => setRemPx(readRemPx());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return remPx;
};

const tooltipStyle = { background: 'var(--panel)', border: '1px solid var(--line)', borderRadius: 6, color: 'var(--ink)' };

export const ConcurrencyAreaChart = memo(
  ({ points, from, to, ticks, tickStepMinutes, peak, timeZone, size }: ConcurrencyAreaChartProps) => {
    const hatchID = svgID(useId(), 'outbound-hatch');
    const m = metrics[size];
    const remPx = useRemPx();
    // On a wall the rem follows the screen (32px on 4K): lines and the dot grow with the text.
    const px = size === 'wall' ? remPx / 16 : 1;
    const peakTotal = peak ? sampleTotal(peak) : 0;
    const yTop = axisTop(peakTotal);
    const room = axisRoom(m.fontRem * remPx, yTop);
    const axisTick = { fill: 'var(--muted)', fontSize: `${m.fontRem}rem` };
    // The label sits on the side away from the peak's dot.
    const labelPosition = peak && peak.at - from > (to - from) / 2 ? 'insideTopLeft' : 'insideTopRight';

    const area = (series: Series) => (
      <Area
        type="stepAfter"
        dataKey={series}
        name={seriesLabel[series]}
        stackId="live"
        stroke={seriesStroke[series].color}
        strokeDasharray={seriesStroke[series].dash}
        strokeWidth={m.strokeWidth * px}
        {...seriesFill(series, hatchID)}
        isAnimationActive={false}
        dot={false}
        activeDot={false}
      />
    );

    return (
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={points} margin={{ top: 12, right: 16, bottom: 4, left: 0 }} accessibilityLayer={false}>
          <defs>
            <HatchPattern id={hatchID} />
          </defs>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="at"
            type="number"
            scale="time"
            domain={[from, to]}
            ticks={ticks}
            allowDataOverflow
            interval={0}
            tickFormatter={(at: number) => tickLabel(at, timeZone, tickStepMinutes)}
            tick={axisTick}
            stroke="var(--line)"
            height={room.xHeight}
          />
          <YAxis allowDecimals={false} domain={[0, yTop]} interval={0} tick={axisTick} stroke="var(--line)" width={room.yWidth} />
          {area('inbound')}
          {area('outbound')}
          {peak ? (
            <ReferenceLine
              y={peakTotal}
              stroke="var(--ink)"
              strokeDasharray="2 4"
              label={{
                value: `Peak ${peakTotal} at ${formatShortTime(peak.at, timeZone)}`,
                position: labelPosition,
                fill: 'var(--ink)',
                fontSize: m.peakFont,
                fontWeight: 600,
              }}
            />
          ) : null}
          {peak ? (
            <ReferenceDot x={peak.at} y={peakTotal} r={m.dot * px} fill="var(--ink)" stroke="var(--panel)" strokeWidth={2 * px} />
          ) : null}
          {size === 'normal' ? (
            <Tooltip
              isAnimationActive={false}
              contentStyle={tooltipStyle}
              labelFormatter={(at) => formatClockTime(Number(at), timeZone)}
            />
          ) : null}
        </AreaChart>
      </ResponsiveContainer>
    );
  },
);
ConcurrencyAreaChart.displayName = 'ConcurrencyAreaChart';
