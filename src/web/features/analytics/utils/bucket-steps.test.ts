import { describe, expect, it } from 'vitest';
import { bucketSteps } from './bucket-steps.js';

describe('bucketSteps', () => {
  it('places each bucket at its start and holds the last one to its end', () => {
    const buckets = [
      { start: '2026-11-26T10:00:00.000Z', missed: 1 },
      { start: '2026-11-26T10:05:00.000Z', missed: 3 },
    ];
    const points = bucketSteps(buckets, 300);
    expect(points.map((p) => [p.at, p.missed])).toEqual([
      [Date.parse('2026-11-26T10:00:00Z'), 1],
      [Date.parse('2026-11-26T10:05:00Z'), 3],
      [Date.parse('2026-11-26T10:10:00Z'), 3],
    ]);
    // The closing point reads out as the bucket it closes.
    expect(points[2]?.bucket).toBe(buckets[1]);
  });

  it('has nothing to draw without buckets', () => {
    expect(bucketSteps([], 60)).toEqual([]);
  });
});
