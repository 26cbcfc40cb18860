/** Calls started per hour of the week, in the displayed time zone, from hourly concurrency buckets. */
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { zonedParts } from '../../../lib/zoned-time.js';

export interface HourOfWeekGrid {
  /** [weekday 0 = Monday][hour 0-23] → calls started. */
  cells: number[][];
  max: number;
}

export const busiestHours = (buckets: readonly ConcurrencyBucket[], zone: string): HourOfWeekGrid => {
  const cells = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const bucket of buckets) {
    const { weekday, hour } = zonedParts(Date.parse(bucket.start), zone);
    const row = cells[weekday];
    if (row) row[hour] = (row[hour] ?? 0) + bucket.started;
  }
  return { cells, max: Math.max(0, ...cells.flat()) };
};
