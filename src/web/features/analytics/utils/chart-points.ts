/** Small helpers shared by the analytics charts and tables. */
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { formatShortTime } from '../../../lib/format.js';
import { weekdayNames, zonedParts } from '../../../lib/zoned-time.js';

/** The bucket holding the range's highest peak (the earliest, on a tie). */
export const peakBucket = (buckets: readonly ConcurrencyBucket[]): ConcurrencyBucket | undefined =>
  buckets.reduce<ConcurrencyBucket | undefined>((best, b) => (b.peak > 0 && (!best || b.peak > best.peak) ? b : best), undefined);

/** "14:00" within a day; "Mon 14:00" over longer ranges. */
export const axisLabel = (at: number, spanMs: number, zone: string): string =>
  spanMs <= 86_400_000 ? formatShortTime(at, zone) : `${weekdayNames[zonedParts(at, zone).weekday]} ${formatShortTime(at, zone)}`;
