/**
 * The shapes of the dashboard's time charts as SVG path data, in pixels: steps, lines, stacked
 * areas and bars. One path per series whatever the number of points: a chart of 500 buckets is a
 * few elements, not thousands, so drawing it again costs a string, not a layout of the page.
 */

/** Where a chart's plot sits in its SVG and what it spans: time from `from` to `to`, values from 0 to `yTop`. */
export interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
  from: number;
  to: number;
  yTop: number;
}

/** A value of a point: null where there is none, and the series breaks. */
export type Value<P> = (point: P) => number | null;

const round = (value: number) => Math.round(value * 10) / 10;

export const scales = (frame: Frame) => ({
  x: (at: number) => round(frame.left + ((at - frame.from) / (frame.to - frame.from)) * frame.width),
  y: (value: number) => round(frame.top + frame.height - (value / frame.yTop) * frame.height),
});

/** The runs of consecutive points where every value given is there. */
const runs = <P>(points: readonly P[], values: readonly Value<P>[]): P[][] => {
  const found: P[][] = [];
  let run: P[] = [];
  for (const point of points) {
    if (values.some((value) => value(point) === null)) {
      if (run.length > 0) found.push(run);
      run = [];
    } else run.push(point);
  }
  if (run.length > 0) found.push(run);
  return found;
};

/** A value held from each point until the next (a count stands until the next sample), broken where a value is missing. */
export const stepLine = <P extends { at: number }>(points: readonly P[], value: Value<P>, frame: Frame): string => {
  const { x, y } = scales(frame);
  let d = '';
  for (const run of runs(points, [value])) {
    d += `M${x(run[0]!.at)} ${y(value(run[0]!) as number)}`;
    for (let i = 1; i < run.length; i += 1) d += `H${x(run[i]!.at)}V${y(value(run[i]!) as number)}`;
  }
  return d;
};

/** Straight segments from point to point, broken where a value is missing. */
export const line = <P extends { at: number }>(points: readonly P[], value: Value<P>, frame: Frame): string => {
  const { x, y } = scales(frame);
  let d = '';
  for (const run of runs(points, [value])) run.forEach((point, i) => (d += `${i === 0 ? 'M' : 'L'}${x(point.at)} ${y(value(point) as number)}`));
  return d;
};

/** The stepped area between two values of each point (`lower` below `upper`): a stacked series' fill. */
export const stepArea = <P extends { at: number }>(points: readonly P[], lower: Value<P>, upper: Value<P>, frame: Frame): string => {
  const { x, y } = scales(frame);
  let d = '';
  for (const run of runs(points, [lower, upper])) {
    d += stepLine(run, upper, frame);
    // Back along the lower edge, from the last point to the first.
    d += `V${y(lower(run[run.length - 1]!) as number)}`;
    for (let i = run.length - 1; i > 0; i -= 1) d += `V${y(lower(run[i - 1]!) as number)}H${x(run[i - 1]!.at)}`;
    d += 'Z';
  }
  return d;
};

/** A bar per point from `lower` to `upper`, `halfWidth` (in time) either side of it; none where they are equal. */
export const bars = <P extends { at: number }>(
  points: readonly P[],
  lower: Value<P>,
  upper: Value<P>,
  halfWidth: number,
  frame: Frame,
): string => {
  const { x, y } = scales(frame);
  let d = '';
  for (const point of points) {
    const low = lower(point);
    const high = upper(point);
    if (low === null || high === null || high <= low) continue;
    const left = x(point.at - halfWidth);
    d += `M${left} ${y(low)}V${y(high)}H${x(point.at + halfWidth)}V${y(low)}Z`;
  }
  return d;
};

/** The index of the point nearest in time to `at` (points sorted by time), or undefined when there are none. */
export const nearestPoint = (points: readonly { at: number }[], at: number): number | undefined => {
  if (points.length === 0) return undefined;
  let low = 0;
  let high = points.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (points[middle]!.at < at) low = middle + 1;
    else high = middle;
  }
  const before = low > 0 ? points[low - 1] : undefined;
  return before && at - before.at < points[low]!.at - at ? low - 1 : low;
};

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
