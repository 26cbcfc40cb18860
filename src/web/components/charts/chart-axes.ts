/**
 * The axes of the dashboard's time charts as recharts draws them: where the ticks go (round
 * counts, round times of the displayed zone) and how much room their labels take. The room is
 * worked out from the font, never measured: recharts' own sizing reads every label's box after
 * each render, which forces the page's layout while the call table changes under it.
 */
import type { XAxisProps, YAxisProps } from 'recharts';

/** recharts' gap between an axis line and its labels: the tick mark and the margin after it. */
const TICK_GAP_PX = 6 + 2;
/** A character's width in ems, a little over what the page's sans-serif fonts draw for digits. */
const CHAR_EM = 0.62;

export const axisRoom = (fontPx: number, longestLabel: number) => ({
  yWidth: Math.ceil(longestLabel * CHAR_EM * fontPx + TICK_GAP_PX + 4),
  xHeight: Math.ceil(fontPx * 1.25 + TICK_GAP_PX + 2),
});

/** A round step (1, 2 or 5 times a power of ten) that cuts `top` into at most five. */
const roundStep = (top: number): number => {
  for (let scale = 1; ; scale *= 10) for (const unit of [1, 2, 5]) if (top / (unit * scale) <= 5) return unit * scale;
};

/** Whole counts from 0 to `yTop` in a round step, at most six of them. */
export const valueTicks = (yTop: number): number[] => {
  const step = roundStep(yTop);
  const ticks: number[] = [];
  for (let value = 0; value <= yTop; value += step) ticks.push(value);
  return ticks;
};

/** An axis for counts up to `max`: its top (a round step above `max`, at least 1) and its ticks. */
export const countAxis = (max: number): { yTop: number; ticks: number[] } => {
  const step = roundStep(Math.max(1, max));
  const yTop = Math.max(step, Math.ceil(max / step) * step);
  return { yTop, ticks: valueTicks(yTop) };
};

export interface ChartAxesOptions {
  from: number;
  to: number;
  timeTicks: readonly number[];
  timeFormat: (at: number) => string;
  yTop: number;
  yTicks: readonly number[];
  yFormat?: (value: number) => string;
  /** The labels' size in rem (the wallboard's are larger), and the root's px per rem. */
  fontRem?: number;
  remPx?: number;
}

/**
 * The props of a chart's time axis (x, on `at`) and value axis (y, from 0 to `yTop`): every tick
 * given, none left out or moved by recharts, values past the ends clipped. Make them in a
 * `useMemo`: new objects on every render make recharts take the axes in again.
 */
export const chartAxes = ({ from, to, timeTicks, timeFormat, yTop, yTicks, yFormat = String, fontRem = 0.75, remPx = 16 }: ChartAxesOptions) => {
  const room = axisRoom(fontRem * remPx, Math.max(...yTicks.map((value) => yFormat(value).length), 1));
  // Without a width, recharts does not wrap a label: it never measures its words in the page's layout.
  const tick = { fill: 'var(--muted)', fontSize: `${fontRem}rem`, width: undefined };
  const x: XAxisProps = {
    dataKey: 'at',
    type: 'number',
    scale: 'time',
    domain: [from, to],
    ticks: [...timeTicks],
    interval: 0,
    allowDataOverflow: true,
    tickFormatter: timeFormat,
    tick,
    stroke: 'var(--line)',
    height: room.xHeight,
  };
  const y: YAxisProps = {
    type: 'number',
    domain: [0, yTop],
    ticks: [...yTicks],
    interval: 0,
    allowDataOverflow: true,
    tickFormatter: yFormat,
    tick,
    stroke: 'var(--line)',
    width: room.yWidth,
  };
  return { x, y };
};

/** The grid's look: dashed lines across at each count. */
export const GRID = { stroke: 'var(--line)', strokeDasharray: '3 3', vertical: false } as const;
