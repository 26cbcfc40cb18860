/** The concurrency chart's shapes in pixels: stacked step areas, their top lines, the value axis' steps. */
import type { ChartPoint } from './chart-series.js';

/** The plot's box in the SVG and what it spans: time from `from` to `to`, counts from 0 to `yTop`. */
export interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
  from: number;
  to: number;
  yTop: number;
}

export interface SeriesPaths {
  /** The filled shape, from the series' base to its top. */
  area: string;
  /** The top edge alone, where the series' stroke is drawn. */
  line: string;
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Inbound stacked under outbound, each a step after every point (a count holds until the next
 * sample), broken wherever a point has no counts. Empty paths where nothing is drawn.
 */
export const areaPaths = (points: readonly ChartPoint[], frame: Frame): Record<'inbound' | 'outbound', SeriesPaths> => {
  const { left, top, width, height, from, to, yTop } = frame;
  const x = (at: number) => round(left + ((at - from) / (to - from)) * width);
  const y = (value: number) => round(top + height - (value / yTop) * height);
  const paths = { inbound: { area: '', line: '' }, outbound: { area: '', line: '' } };
  const drawSegment = (segment: readonly ChartPoint[]) => {
    const xs = segment.map((point) => x(point.at));
    const inbound = segment.map((point) => y(point.inbound ?? 0));
    const total = segment.map((point) => y((point.inbound ?? 0) + (point.outbound ?? 0)));
    const stepLine = (ys: readonly number[]) => {
      let d = `M${xs[0]} ${ys[0]}`;
      for (let i = 1; i < xs.length; i += 1) d += `H${xs[i]}V${ys[i]}`;
      return d;
    };
    // Back along a stepped base, from the last point to the first.
    const stepBack = (ys: readonly number[]) => {
      let d = `V${ys[ys.length - 1]}`;
      for (let i = xs.length - 1; i > 0; i -= 1) d += `V${ys[i - 1]}H${xs[i - 1]}`;
      return `${d}Z`;
    };
    const inboundLine = stepLine(inbound);
    const totalLine = stepLine(total);
    paths.inbound.line += inboundLine;
    paths.inbound.area += `${inboundLine}V${y(0)}H${xs[0]}Z`;
    paths.outbound.line += totalLine;
    paths.outbound.area += `${totalLine}${stepBack(inbound)}`;
  };
  let segment: ChartPoint[] = [];
  for (const point of points) {
    if (point.inbound === null || point.outbound === null) {
      if (segment.length > 0) drawSegment(segment);
      segment = [];
    } else segment.push(point);
  }
  if (segment.length > 0) drawSegment(segment);
  return paths;
};

/** The index of the point nearest in time to `at` (points are sorted by time), or undefined when there are none. */
export const nearestPoint = (points: readonly ChartPoint[], at: number): number | undefined => {
  if (points.length === 0) return undefined;
  let low = 0;
  let high = points.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((points[middle] as ChartPoint).at < at) low = middle + 1;
    else high = middle;
  }
  const before = low > 0 ? (points[low - 1] as ChartPoint) : undefined;
  return before && at - before.at < (points[low] as ChartPoint).at - at ? low - 1 : low;
};

/** Whole counts from 0 to `yTop` in a round step (1, 2 or 5 times a power of ten), at most six of them. */
export const valueTicks = (yTop: number): number[] => {
  let step = 1;
  for (let scale = 1; yTop / step > 5; scale *= 10) step = [1, 2, 5, 10].map((unit) => unit * scale).find((s) => yTop / s <= 5) ?? 10 * scale;
  const ticks: number[] = [];
  for (let value = 0; value <= yTop; value += step) ticks.push(value);
  return ticks;
};
