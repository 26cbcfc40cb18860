import { describe, expect, it } from 'vitest';
import { MAX_BUCKETS, type ConcurrencyResponse } from '../../../../contract/analytics.js';
import { readSamples, recordSample, seedSamples } from '../../../lib/concurrency-samples.js';
import { chartPoints } from '../utils/chart-series.js';
import { samplesFromBuckets, seedWindows } from './use-journal-seed.js';

const at = (time: string) => Date.parse(`2026-03-10T${time}Z`);
const midnight = at('00:00:00');

describe('seedWindows', () => {
  it('asks for minutes since midnight in one answer while they fit', () => {
    expect(seedWindows(at('06:12:27'), midnight)).toEqual([{ window: { from: midnight, to: at('06:12:27') }, bucketSeconds: 60 }]);
  });

  it('asks for the last hour apart from the day before it, the hour starting on a minute', () => {
    const windows = seedWindows(at('14:03:27'), midnight);
    expect(windows).toEqual([
      { window: { from: midnight, to: at('12:58:00') }, bucketSeconds: 120 },
      { window: { from: at('12:58:00'), to: at('14:03:27') }, bucketSeconds: 60 },
    ]);
    for (const { window, bucketSeconds } of windows)
      expect(Math.ceil((window.to - window.from) / (bucketSeconds * 1000))).toBeLessThanOrEqual(MAX_BUCKETS);
  });

  it('gives a reload within the same hour the same minute buckets', () => {
    const starts = (openedAt: number) => {
      const recent = seedWindows(openedAt, midnight).at(-1)?.window.from ?? Number.NaN;
      return Array.from({ length: 60 }, (_, minute) => new Date(recent + minute * 60_000).toISOString().slice(11, 19));
    };
    const first = starts(at('17:40:05'));
    expect(first.every((start) => start.endsWith(':00'))).toBe(true);
    expect(starts(at('17:40:55'))).toEqual(first);
  });
});

/** A journal answer of minute buckets, each `[start time, peak inbound, peak outbound]`. */
const answer = (toDate: string, buckets: [string, number, number][], bucketSeconds = 60): ConcurrencyResponse => ({
  fromDate: new Date(at(buckets[0]?.[0] ?? '00:00:00')).toISOString(),
  toDate: new Date(at(toDate)).toISOString(),
  bucketSeconds,
  buckets: buckets.map(([start, peakInbound, peakOutbound]) => ({
    start: new Date(at(start)).toISOString(),
    peak: peakInbound + peakOutbound,
    average: 0,
    peakInbound,
    peakOutbound,
    started: 0,
    missed: 0,
  })),
});

describe('samplesFromBuckets', () => {
  it("holds each bucket's peaks to its last millisecond, the last bucket cut where the answer ends", () => {
    const samples = samplesFromBuckets([answer('14:02:27', [['14:01:00', 3, 1], ['14:02:00', 5, 0]])]);
    expect(samples).toEqual([
      { at: at('14:01:00'), inbound: 3, outbound: 1 },
      { at: at('14:01:59.999'), inbound: 3, outbound: 1 },
      { at: at('14:02:00'), inbound: 5, outbound: 0 },
      { at: at('14:02:26.999'), inbound: 5, outbound: 0 },
    ]);
  });

  it('adds the peaks of several providers moment by moment', () => {
    const samples = samplesFromBuckets([answer('14:02:00', [['14:01:00', 3, 1]]), answer('14:02:00', [['14:01:00', 2, 2]])]);
    expect(samples).toEqual([
      { at: at('14:01:00'), inbound: 5, outbound: 3 },
      { at: at('14:01:59.999'), inbound: 5, outbound: 3 },
    ]);
  });

  it("leaves no hole between the journal's last full minute and a page opened late in the next one", () => {
    const key = 'seed-test/late-in-the-minute';
    const openedAt = at('14:03:41');
    // The page's own first sample comes at once; the journal's answer after it, its 14:03 minute then covered by the page.
    recordSample(key, { at: openedAt, inbound: 4, outbound: 0 }, openedAt);
    const seeds = samplesFromBuckets([answer('14:03:41', [['14:01:00', 3, 0], ['14:02:00', 4, 0], ['14:03:00', 4, 0]])]);
    seedSamples(key, seeds, openedAt);
    const points = chartPoints(readSamples(key, openedAt), at('14:00:00'), openedAt);
    expect(points.filter((point) => point.inbound === null)).toEqual([]);
    expect(points.at(-1)).toEqual({ at: openedAt, inbound: 4, outbound: 0 });
  });
});
