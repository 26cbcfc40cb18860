/** The drawing of the live concurrency chart: stacked inbound and outbound steps, the peak marked. */
import { memo, useEffect, useId, useState } from 'react';
import { sampleTotal, type ConcurrencySample } from '../../../lib/concurrency-samples.js';
import { formatClockTime, formatShortTime } from '../../../lib/format.js';
import { tickLabel } from '../../../lib/time-ticks.js';
import { axisTop, type ChartPoint } from '../utils/chart-series.js';
import { scales, valueTicks, type Value } from '../../../components/charts/chart-paths.js';
import { HatchPattern, SERIES, seriesLabel, StackedSteps, svgID, type Series } from '../../../components/charts/series-style.js';
import { TimeChart } from '../../../components/charts/time-chart.js';

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

const zero: Value<ChartPoint> = () => 0;
const inbound: Value<ChartPoint> = (point) => point.inbound;
const total: Value<ChartPoint> = (point) => (point.inbound === null || point.outbound === null ? null : point.inbound + point.outbound);
/** Each series' lower and upper edge: outbound stacked on inbound. */
const edges: Record<Series, [Value<ChartPoint>, Value<ChartPoint>]> = { inbound: [zero, inbound], outbound: [inbound, total] };

export const ConcurrencyAreaChart = memo(
  ({ points, from, to, ticks, tickStepMinutes, peak, timeZone, size }: ConcurrencyAreaChartProps) => {
    const id = useId();
    const hatchID = svgID(id, 'outbound-hatch');
    const m = metrics[size];
    const remPx = useRemPx();
    // On a wall the rem follows the screen (32px on 4K): lines and the dot grow with the text.
    const px = size === 'wall' ? remPx / 16 : 1;
    const peakTotal = peak ? sampleTotal(peak) : 0;
    const yTop = axisTop(peakTotal);
    // The label sits on the side away from the peak's dot.
    const peakOnRight = peak !== undefined && peak.at - from > (to - from) / 2;

    return (
      <TimeChart
        points={points}
        from={from}
        to={to}
        timeTicks={{ ticks, format: (at) => tickLabel(at, timeZone, tickStepMinutes) }}
        yTop={yTop}
        yTicks={valueTicks(yTop)}
        fontRem={m.fontRem}
        remPx={remPx}
        clipID={svgID(id, 'live-plot')}
        defs={<HatchPattern id={hatchID} />}
        plot={(frame) => <StackedSteps points={points} edges={edges} frame={frame} hatchID={hatchID} strokeWidth={m.strokeWidth * px} />}
        over={(frame) => {
          if (!peak) return null;
          const { x, y } = scales(frame);
          return (
            <g>
              <line x1={frame.left} x2={frame.left + frame.width} y1={y(peakTotal)} y2={y(peakTotal)} stroke="var(--ink)" strokeDasharray="2 4" />
              <text
                x={peakOnRight ? frame.left + 5 : frame.left + frame.width - 5}
                y={y(peakTotal) + 5}
                dominantBaseline="hanging"
                textAnchor={peakOnRight ? 'start' : 'end'}
                style={{ fill: 'var(--ink)', fontSize: m.peakFont, fontWeight: 600 }}
              >
                Peak {peakTotal} at {formatShortTime(peak.at, timeZone)}
              </text>
              <circle cx={x(peak.at)} cy={y(peakTotal)} r={m.dot * px} fill="var(--ink)" stroke="var(--panel)" strokeWidth={2 * px} />
            </g>
          );
        }}
        readout={
          size === 'normal'
            ? (point) => ({
                heading: formatClockTime(point.at, timeZone),
                rows: SERIES.map((series) => ({ name: seriesLabel[series], value: String(point[series] ?? 'no sample') })),
              })
            : undefined
        }
      />
    );
  },
);
ConcurrencyAreaChart.displayName = 'ConcurrencyAreaChart';
