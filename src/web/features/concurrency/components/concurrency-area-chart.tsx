/**
 * The drawing of the concurrency chart: stacked inbound and outbound step areas, the peak marked,
 * drawn as one SVG of a few paths. It is on screen all day and changes with every update, so it is
 * drawn by hand rather than by a charting library: mounting recharts' chart cost the live view a
 * 150 ms task on a laptop (600 ms on a TV stick's CPU), and every update re-ran its store.
 */
import { memo, useEffect, useId, useState, type PointerEvent } from 'react';
import { sampleTotal, type ConcurrencySample } from '../../../lib/concurrency-samples.js';
import { formatClockTime, formatShortTime } from '../../../lib/format.js';
import { tickLabel } from '../../../lib/time-ticks.js';
import { useObservedSize } from '../../../lib/use-observed-size.js';
import { axisTop, type ChartPoint } from '../utils/chart-series.js';
import { HatchPattern, seriesFill, seriesLabel, seriesStroke, svgID, type Series } from '../../../components/charts/series-style.js';
import { areaPaths, nearestPoint, valueTicks, type Frame } from '../utils/chart-geometry.js';

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

/** The gap between an axis line and its labels: the tick mark and the margin after it. */
const TICK_GAP_PX = 6 + 2;
const TICK_PX = 6;
/** A digit's width in ems, a little over what the page's sans-serif fonts draw. */
const DIGIT_EM = 0.62;
const MARGIN = { top: 12, right: 16, bottom: 4 };

/** The axes' room worked out from the font, not measured, so no layout is read while the page changes. */
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

/** Where no layout engine measures (tests), the chart is drawn at this size. */
const UNMEASURED = { width: 640, height: 256 };
const unmeasured = () => (typeof ResizeObserver === 'undefined' ? UNMEASURED : undefined);

const axisText = { fill: 'var(--muted)' };
const SERIES: readonly Series[] = ['inbound', 'outbound'];

export const ConcurrencyAreaChart = memo(
  ({ points, from, to, ticks, tickStepMinutes, peak, timeZone, size }: ConcurrencyAreaChartProps) => {
    const hatchID = svgID(useId(), 'outbound-hatch');
    const [box, measured] = useObservedSize(unmeasured);
    const [hover, setHover] = useState<number | undefined>(undefined);
    const m = metrics[size];
    const remPx = useRemPx();
    // On a wall the rem follows the screen (32px on 4K): lines and the dot grow with the text.
    const px = size === 'wall' ? remPx / 16 : 1;
    const fontPx = m.fontRem * remPx;
    const peakTotal = peak ? sampleTotal(peak) : 0;
    const yTop = axisTop(peakTotal);
    const room = axisRoom(fontPx, yTop);

    const frame: Frame | undefined = measured && {
      left: room.yWidth,
      top: MARGIN.top,
      width: Math.max(0, measured.width - room.yWidth - MARGIN.right),
      height: Math.max(0, measured.height - MARGIN.top - MARGIN.bottom - room.xHeight),
      from,
      to,
      yTop,
    };
    const paths = frame ? areaPaths(points, frame) : undefined;

    if (!measured || !frame || !paths || frame.width <= 0 || frame.height <= 0) return <div ref={box} className="h-full w-full" />;

    const x = (at: number) => frame.left + ((at - from) / (to - from)) * frame.width;
    const y = (value: number) => frame.top + frame.height - (value / yTop) * frame.height;
    const bottom = frame.top + frame.height;
    const right = frame.left + frame.width;
    // The label sits on the side away from the peak's dot.
    const peakOnRight = peak !== undefined && peak.at - from > (to - from) / 2;
    const hovered = hover === undefined ? undefined : points[hover];

    const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
      // Read on the user's move only, never while updates arrive.
      const offsetX = event.clientX - event.currentTarget.getBoundingClientRect().left;
      const at = from + ((offsetX - frame.left) / frame.width) * (to - from);
      const index = nearestPoint(points, at);
      setHover(index === undefined || points[index]?.inbound === null ? undefined : index);
    };

    return (
      <div ref={box} className="relative h-full w-full">
        <svg
          width={measured.width}
          height={measured.height}
          aria-hidden="true"
          className="block overflow-visible"
          onPointerMove={size === 'normal' ? onPointerMove : undefined}
          onPointerLeave={size === 'normal' ? () => setHover(undefined) : undefined}
        >
          <defs>
            <HatchPattern id={hatchID} />
            <clipPath id={`${hatchID}-plot`}>
              <rect x={frame.left} y={frame.top - 1} width={frame.width} height={frame.height + 2} />
            </clipPath>
          </defs>
          <g stroke="var(--line)" strokeDasharray="3 3">
            {valueTicks(yTop).map((value) => (
              <line key={value} x1={frame.left} x2={right} y1={y(value)} y2={y(value)} />
            ))}
          </g>
          <g clipPath={`url(#${hatchID}-plot)`}>
            {SERIES.map((series) => (
              <g key={series}>
                <path d={paths[series].area} stroke="none" {...seriesFill(series, hatchID)} />
                <path
                  d={paths[series].line}
                  fill="none"
                  stroke={seriesStroke[series].color}
                  strokeDasharray={seriesStroke[series].dash}
                  strokeWidth={m.strokeWidth * px}
                />
              </g>
            ))}
          </g>
          <g stroke="var(--line)">
            <line x1={frame.left} x2={right} y1={bottom} y2={bottom} />
            <line x1={frame.left} x2={frame.left} y1={frame.top} y2={bottom} />
          </g>
          <g style={{ ...axisText, fontSize: `${m.fontRem}rem` }}>
            {ticks.map((at) => (
              <g key={at}>
                <line x1={x(at)} x2={x(at)} y1={bottom} y2={bottom + TICK_PX} stroke="var(--line)" />
                <text x={x(at)} y={bottom + TICK_GAP_PX} dominantBaseline="hanging" textAnchor="middle">
                  {tickLabel(at, timeZone, tickStepMinutes)}
                </text>
              </g>
            ))}
            {valueTicks(yTop).map((value) => (
              <g key={value}>
                <line x1={frame.left - TICK_PX} x2={frame.left} y1={y(value)} y2={y(value)} stroke="var(--line)" />
                <text x={frame.left - TICK_GAP_PX} y={y(value)} dominantBaseline="central" textAnchor="end">
                  {value}
                </text>
              </g>
            ))}
          </g>
          {peak ? (
            <g>
              <line x1={frame.left} x2={right} y1={y(peakTotal)} y2={y(peakTotal)} stroke="var(--ink)" strokeDasharray="2 4" />
              <text
                x={peakOnRight ? frame.left + 5 : right - 5}
                y={y(peakTotal) + 5}
                dominantBaseline="hanging"
                textAnchor={peakOnRight ? 'start' : 'end'}
                style={{ fill: 'var(--ink)', fontSize: m.peakFont, fontWeight: 600 }}
              >
                Peak {peakTotal} at {formatShortTime(peak.at, timeZone)}
              </text>
              <circle cx={x(peak.at)} cy={y(peakTotal)} r={m.dot * px} fill="var(--ink)" stroke="var(--panel)" strokeWidth={2 * px} />
            </g>
          ) : null}
          {hovered ? <line x1={x(hovered.at)} x2={x(hovered.at)} y1={frame.top} y2={bottom} stroke="var(--muted)" /> : null}
        </svg>
        {hovered ? (
          <div
            className="pointer-events-none absolute top-2 rounded-md border border-line bg-panel px-2 py-1 text-xs shadow-sm tabular"
            style={x(hovered.at) > frame.left + frame.width / 2 ? { right: measured.width - x(hovered.at) + 8 } : { left: x(hovered.at) + 8 }}
          >
            <p className="font-semibold">{formatClockTime(hovered.at, timeZone)}</p>
            {SERIES.map((series) => (
              <p key={series}>
                {seriesLabel[series]} {hovered[series]}
              </p>
            ))}
          </div>
        ) : null}
      </div>
    );
  },
);
ConcurrencyAreaChart.displayName = 'ConcurrencyAreaChart';
