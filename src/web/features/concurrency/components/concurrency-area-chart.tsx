/** The drawing of the live concurrency chart (recharts): stacked inbound and outbound steps, the peak marked. */
import { memo, useEffect, useId, useMemo, useState } from 'react';
import { Area, AreaChart, CartesianGrid, ReferenceDot, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { chartAxes, GRID, valueTicks } from '../../../components/charts/chart-axes.js';
import { ChartFrame } from '../../../components/charts/chart-frame.js';
import { ChartReadout, READOUT_CURSOR, READOUT_KEYS_LABEL, READOUT_WRAPPER, type Readout } from '../../../components/charts/chart-readout.js';
import { HatchPattern, SERIES, seriesLabel, stackedSeriesArea, svgID } from '../../../components/charts/series-style.js';
import { sampleTotal, type ConcurrencySample } from '../../../lib/concurrency-samples.js';
import { formatClockTime, formatShortTime } from '../../../lib/format.js';
import { tickLabel, tickStepMinutes, zonedTicks } from '../../../lib/time-ticks.js';
import { axisTop, type ChartPoint } from '../utils/chart-series.js';

export interface ConcurrencyAreaChartProps {
  points: ChartPoint[];
  from: number;
  to: number;
  /** Minutes between time labels at the least: a narrow chart labels round times further apart. */
  minTickStepMinutes: number;
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

const MARGIN = { top: 12, right: 16, bottom: 4, left: 0 };
/** A time label ("19:06") is about three ems wide; one every five ems leaves room between them. */
const LABEL_SPACING_EM = 5;

/** Minutes between time labels: `minMinutes` where they fit, a rounder step where the chart is too narrow (a phone). */
export const timeLabelStep = (minMinutes: number, spanMs: number, widthPx: number | undefined, fontPx: number): number =>
  widthPx === undefined ? minMinutes : Math.max(minMinutes, tickStepMinutes(spanMs, Math.max(2, Math.floor(widthPx / (LABEL_SPACING_EM * fontPx)))));

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

const readoutOf =
  (timeZone: string): Readout<ChartPoint> =>
  (point) => ({
    heading: formatClockTime(point.at, timeZone),
    rows: SERIES.map((series) => ({ name: seriesLabel[series], value: String(point[series] ?? 'no sample') })),
  });

/** Whether two sets of props draw the same: the same points by value (a sample taken past the drawn step makes new but equal ones). */
export const sameDrawing = (a: ConcurrencyAreaChartProps, b: ConcurrencyAreaChartProps): boolean =>
  a.from === b.from &&
  a.to === b.to &&
  a.minTickStepMinutes === b.minTickStepMinutes &&
  a.timeZone === b.timeZone &&
  a.size === b.size &&
  a.peak?.at === b.peak?.at &&
  a.peak?.inbound === b.peak?.inbound &&
  a.peak?.outbound === b.peak?.outbound &&
  a.points.length === b.points.length &&
  a.points.every((point, i) => {
    const other = b.points[i] as ChartPoint;
    return point.at === other.at && point.inbound === other.inbound && point.outbound === other.outbound;
  });

export const ConcurrencyAreaChart = memo(({ points, from, to, minTickStepMinutes, peak, timeZone, size }: ConcurrencyAreaChartProps) => {
  const hatchID = svgID(useId(), 'outbound-hatch');
  const m = metrics[size];
  const remPx = useRemPx();
  const [width, setWidth] = useState<number | undefined>(undefined);
  const tickStep = timeLabelStep(minTickStepMinutes, to - from, width, m.fontRem * remPx);
  const ticks = useMemo(() => zonedTicks(from, to, timeZone, tickStep), [from, to, timeZone, tickStep]);
  // On a wall the rem follows the screen (32px on 4K): lines and the dot grow with the text.
  const px = size === 'wall' ? remPx / 16 : 1;
  const peakTotal = peak ? sampleTotal(peak) : 0;
  const yTop = axisTop(peakTotal);
  const axes = useMemo(
    () =>
      chartAxes({
        from,
        to,
        timeTicks: ticks,
        timeFormat: (at) => tickLabel(at, timeZone, tickStep),
        yTop,
        yTicks: valueTicks(yTop),
        fontRem: m.fontRem,
        remPx,
      }),
    [from, to, ticks, timeZone, tickStep, yTop, m.fontRem, remPx],
  );
  const areas = useMemo(
    () => SERIES.map((series) => stackedSeriesArea(series, series, hatchID, m.strokeWidth * px)),
    [hatchID, m.strokeWidth, px],
  );
  const readout = useMemo(() => (size === 'normal' ? <ChartReadout readout={readoutOf(timeZone)} /> : undefined), [size, timeZone]);
  // The label sits on the side away from the peak's dot.
  const peakLabel = peak && {
    value: `Peak ${peakTotal} at ${formatShortTime(peak.at, timeZone)}`,
    position: peak.at - from > (to - from) / 2 ? ('insideTopLeft' as const) : ('insideTopRight' as const),
    fill: 'var(--ink)',
    fontSize: m.peakFont,
    fontWeight: 600,
    // Unwrapped: recharts measures a label's words in the page's layout only to wrap them.
    width: undefined,
  };

  return (
    <ChartFrame onWidth={setWidth}>
      {({ width, height }) => (
        <AreaChart
          width={width}
          height={height}
          data={points}
          margin={MARGIN}
          accessibilityLayer={readout !== undefined}
          {...(readout ? { 'aria-label': READOUT_KEYS_LABEL } : { 'aria-hidden': true })}
        >
          <defs>
            <HatchPattern id={hatchID} />
          </defs>
          <CartesianGrid {...GRID} />
          <XAxis {...axes.x} />
          <YAxis {...axes.y} />
          {areas.map((area) => (
            <Area key={area.dataKey} {...area} />
          ))}
          {peak ? <ReferenceLine y={peakTotal} stroke="var(--ink)" strokeDasharray="2 4" label={peakLabel} /> : null}
          {peak ? <ReferenceDot x={peak.at} y={peakTotal} r={m.dot * px} fill="var(--ink)" stroke="var(--panel)" strokeWidth={2 * px} /> : null}
          {readout ? <Tooltip content={readout} cursor={READOUT_CURSOR} wrapperStyle={READOUT_WRAPPER} isAnimationActive={false} /> : null}
        </AreaChart>
      )}
    </ChartFrame>
  );
}, sameDrawing);
ConcurrencyAreaChart.displayName = 'ConcurrencyAreaChart';
