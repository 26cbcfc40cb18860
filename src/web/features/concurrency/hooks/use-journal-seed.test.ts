import { describe, expect, it } from 'vitest';
import { MAX_BUCKETS } from '../../../../contract/analytics.js';
import { seedWindows } from './use-journal-seed.js';

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
