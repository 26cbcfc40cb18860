/**
 * The frame every time chart of the dashboard is drawn in, as one SVG: the grid, a time axis on
 * round times of the displayed zone, a value axis, and a readout of the point under the pointer.
 * The series themselves are paths the chart gives (`chart-paths.ts`). Drawn by hand, not by a
 * charting library: recharts' charts cost the live view a 150 ms task to mount and analytics
 * 750 ms, and the live chart is drawn again with every update all day.
 */
import { useEffect, useState, type PointerEvent, type ReactNode } from 'react';
import { useObservedSize } from '../../lib/use-observed-size.js';
import { nearestPoint, scales, type Frame } from './chart-paths.js';

/** The gap between an axis line and its labels: the tick mark and the margin after it. */
const TICK_PX = 6;
const TICK_GAP_PX = TICK_PX + 2;
/** A character's width in ems, a little over what the page's sans-serif fonts draw for digits. */
const CHAR_EM = 0.62;

/** The axes' room worked out from the font, not measured, so no layout is read while the page changes. */
export const axisRoom = (fontPx: number, longestLabel: number) => ({
  yWidth: Math.ceil(longestLabel * CHAR_EM * fontPx + TICK_GAP_PX + 4),
  xHeight: Math.ceil(fontPx * 1.25 + TICK_GAP_PX + 2),
});

/** Where no layout engine measures (tests), a chart is drawn at this size. */
export const UNMEASURED = { width: 640, height: 256 };
const unmeasured = () => (typeof ResizeObserver === 'undefined' ? UNMEASURED : undefined);

export interface ReadoutRow {
  name: string;
  value: string;
}

export interface TimeChartProps<P extends { at: number }> {
  points: readonly P[];
  from: number;
  to: number;
  /** Time ticks and their labels; `onWidth` hears the chart's width, for as many ticks as fit. */
  timeTicks: { ticks: readonly number[]; format: (at: number) => string; onWidth?: (width: number) => void };
  yTop: number;
  yTicks: readonly number[];
  yFormat?: (value: number) => string;
  /** Room above the plot (for a label over the peak) and to its right. */
  margin?: { top: number; right: number };
  /** The axes' labels' size in rem (the wallboard's are larger), and the root's px per rem. */
  fontRem?: number;
  remPx?: number;
  /** What the chart draws in its plot, clipped to it, and over it (labels may leave the plot). */
  plot: (frame: Frame) => ReactNode;
  over?: (frame: Frame) => ReactNode;
  defs?: ReactNode;
  /** The readout of a point under the pointer: its heading and one row per series. None on a wall. */
  readout?: (point: P) => { heading: string; rows: ReadoutRow[] };
  /** A unique, SVG-safe name for the plot's clip path. */
  clipID: string;
}

export const TimeChart = <P extends { at: number }>({
  points,
  from,
  to,
  timeTicks,
  yTop,
  yTicks,
  yFormat = String,
  margin = { top: 12, right: 16 },
  fontRem = 0.75,
  remPx = 16,
  plot,
  over,
  defs,
  readout,
  clipID,
}: TimeChartProps<P>) => {
  const [box, measured] = useObservedSize(unmeasured);
  const [hover, setHover] = useState<number | undefined>(undefined);
  const onWidth = timeTicks.onWidth;
  const width = measured?.width;
  useEffect(() => {
    if (width !== undefined) onWidth?.(width);
  }, [onWidth, width]);

  const fontPx = fontRem * remPx;
  const room = axisRoom(fontPx, Math.max(...yTicks.map((value) => yFormat(value).length), 1));
  if (!measured) return <div ref={box} className="h-full w-full" />;
  const frame: Frame = {
    left: room.yWidth,
    top: margin.top,
    width: Math.max(0, measured.width - room.yWidth - margin.right),
    height: Math.max(0, measured.height - margin.top - 4 - room.xHeight),
    from,
    to,
    yTop,
  };
  if (frame.width <= 0 || frame.height <= 0) return <div ref={box} className="h-full w-full" />;
  const { x, y } = scales(frame);
  const bottom = frame.top + frame.height;
  const right = frame.left + frame.width;
  const hovered = hover === undefined ? undefined : points[hover];
  const shown = hovered && readout ? readout(hovered) : undefined;

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    // Layout is read on the user's move only, never while updates arrive.
    const offsetX = event.clientX - event.currentTarget.getBoundingClientRect().left;
    setHover(nearestPoint(points, from + ((offsetX - frame.left) / frame.width) * (to - from)));
  };

  return (
    <div ref={box} className="relative h-full w-full">
      <svg
        width={measured.width}
        height={measured.height}
        aria-hidden="true"
        className="block overflow-visible"
        onPointerMove={readout ? onPointerMove : undefined}
        onPointerLeave={readout ? () => setHover(undefined) : undefined}
      >
        <defs>
          {defs}
          <clipPath id={clipID}>
            <rect x={frame.left} y={frame.top - 2} width={frame.width} height={frame.height + 4} />
          </clipPath>
        </defs>
        <g stroke="var(--line)" strokeDasharray="3 3">
          {yTicks.map((value) => (
            <line key={value} x1={frame.left} x2={right} y1={y(value)} y2={y(value)} />
          ))}
        </g>
        <g clipPath={`url(#${clipID})`}>{plot(frame)}</g>
        <g stroke="var(--line)">
          <line x1={frame.left} x2={right} y1={bottom} y2={bottom} />
          <line x1={frame.left} x2={frame.left} y1={frame.top} y2={bottom} />
        </g>
        <g style={{ fill: 'var(--muted)', fontSize: `${fontRem}rem` }}>
          <g data-axis="time">
            {timeTicks.ticks.map((at) => (
              <g key={at}>
                <line x1={x(at)} x2={x(at)} y1={bottom} y2={bottom + TICK_PX} stroke="var(--line)" />
                <text x={x(at)} y={bottom + TICK_GAP_PX} dominantBaseline="hanging" textAnchor="middle">
                  {timeTicks.format(at)}
                </text>
              </g>
            ))}
          </g>
          <g data-axis="value">
            {yTicks.map((value) => (
              <g key={value}>
                <line x1={frame.left - TICK_PX} x2={frame.left} y1={y(value)} y2={y(value)} stroke="var(--line)" />
                <text x={frame.left - TICK_GAP_PX} y={y(value)} dominantBaseline="central" textAnchor="end">
                  {yFormat(value)}
                </text>
              </g>
            ))}
          </g>
        </g>
        {over?.(frame)}
        {hovered ? <line x1={x(hovered.at)} x2={x(hovered.at)} y1={frame.top} y2={bottom} stroke="var(--muted)" /> : null}
      </svg>
      {hovered && shown ? (
        <div
          className="pointer-events-none absolute top-2 rounded-md border border-line bg-panel px-2 py-1 text-xs text-ink shadow-sm tabular"
          style={x(hovered.at) > frame.left + frame.width / 2 ? { right: measured.width - x(hovered.at) + 8 } : { left: x(hovered.at) + 8 }}
        >
          <p className="font-semibold">{shown.heading}</p>
          {shown.rows.map((row) => (
            <p key={row.name}>
              {row.name} {row.value}
            </p>
          ))}
        </div>
      ) : null}
    </div>
  );
};
