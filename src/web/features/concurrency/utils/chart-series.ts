/** The concurrency chart's data, apart from its drawing: range, downsampled points, gaps, peak, ticks and words. */
import { peakSample, sampleTotal, type ConcurrencySample } from '../../../lib/concurrency-samples.js';
import { formatShortTime } from '../../../lib/format.js';

export const RANGE_MINUTES = [15, 60] as const;
export type RangeMinutes = (typeof RANGE_MINUTES)[number];
export const DEFAULT_RANGE: RangeMinutes = 15;

export const parseRange = (text: string | null): RangeMinutes => (text === '60' ? 60 : DEFAULT_RANGE);

/** More points than this cannot be told apart on any screen, and cost every poll a re-render. */
export const MAX_CHART_POINTS = 500;
/** No poll answered for this long: the feed was down or the page closed, and the chart shows a hole rather than a made-up line. */
export const GAP_MS = 90_000;

/** A drawn point; null counts break the areas where no sample exists. */
export interface ChartPoint {
  at: number;
  inbound: number | null;
  outbound: number | null;
}

/** Index of the first sample at or after `at` (samples are sorted). */
const firstIndexFrom = (samples: readonly ConcurrencySample[], at: number): number => {
  let low = 0;
  let high = samples.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((samples[middle] as ConcurrencySample).at < at) low = middle + 1;
    else high = middle;
  }
  return low;
};

export const samplesBetween = (samples: readonly ConcurrencySample[], from: number, to: number): ConcurrencySample[] =>
  samples.slice(firstIndexFrom(samples, from), firstIndexFrom(samples, to + 1));

/**
 * At most `maxPoints` samples: the range cut into that many equal buckets, each keeping its
 * busiest sample, so no peak is ever averaged away.
 */
export const downsample = (
  samples: readonly ConcurrencySample[],
  from: number,
  to: number,
  maxPoints = MAX_CHART_POINTS,
): ConcurrencySample[] => {
  const inRange = samplesBetween(samples, from, to);
  if (inRange.length <= maxPoints) return inRange;
  const width = (to - from) / maxPoints;
  const kept: ConcurrencySample[] = [];
  let bucket = -1;
  for (const sample of inRange) {
    const index = Math.min(maxPoints - 1, Math.floor((sample.at - from) / width));
    if (index !== bucket) {
      kept.push(sample);
      bucket = index;
    } else if (sampleTotal(sample) > sampleTotal(kept[kept.length - 1] as ConcurrencySample)) {
      kept[kept.length - 1] = sample;
    }
  }
  return kept;
};

/** The downsampled samples as drawn points, with a break wherever no sample came for `GAP_MS`. */
export const chartPoints = (
  samples: readonly ConcurrencySample[],
  from: number,
  to: number,
  maxPoints = MAX_CHART_POINTS,
): ChartPoint[] => {
  const points: ChartPoint[] = [];
  let previous: ConcurrencySample | undefined;
  for (const sample of downsample(samples, from, to, maxPoints)) {
    if (previous && sample.at - previous.at > GAP_MS) points.push({ at: previous.at + 1, inbound: null, outbound: null });
    points.push({ at: sample.at, inbound: sample.inbound, outbound: sample.outbound });
    previous = sample;
  }
  return points;
};

/** A y-axis top with room above the peak for its label. */
export const axisTop = (peak: number): number => Math.max(4, Math.ceil((peak * 1.25 + 1) / 2) * 2);

export interface MinuteRow {
  minute: number;
  busiest: ConcurrencySample;
}

/** The busiest sample of each minute, newest first: the chart as a table. */
export const busiestPerMinute = (samples: readonly ConcurrencySample[]): MinuteRow[] => {
  const rows: MinuteRow[] = [];
  for (const sample of samples) {
    const minute = Math.floor(sample.at / 60_000) * 60_000;
    const last = rows[rows.length - 1];
    if (last && last.minute === minute) {
      if (sampleTotal(sample) > sampleTotal(last.busiest)) last.busiest = sample;
    } else rows.push({ minute, busiest: sample });
  }
  return rows.reverse();
};

export interface ConcurrencyView {
  points: ChartPoint[];
  /** The latest sample of the range: what "now" is. */
  latest: ConcurrencySample | undefined;
  peak: ConcurrencySample | undefined;
  inRange: ConcurrencySample[];
}

export const concurrencyView = (samples: readonly ConcurrencySample[], from: number, to: number): ConcurrencyView => {
  const inRange = samplesBetween(samples, from, to);
  return {
    points: chartPoints(samples, from, to),
    latest: inRange[inRange.length - 1],
    peak: peakSample(inRange, from, to),
    inRange,
  };
};

/** "Now 12 (8 in, 4 out) · Peak 23 at 14:05": the chart in one sentence, for everyone. */
export const describeConcurrency = (view: Pick<ConcurrencyView, 'latest' | 'peak'>, timeZone: string): string => {
  if (!view.latest || !view.peak) return 'No samples yet: one is taken at every update.';
  const { latest, peak } = view;
  return `Now ${sampleTotal(latest)} (${latest.inbound} in, ${latest.outbound} out) · Peak ${sampleTotal(peak)} at ${formatShortTime(peak.at, timeZone)}`;
};
