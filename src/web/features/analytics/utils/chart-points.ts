/** Small helpers shared by the analytics charts and tables. */
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';

/** The bucket holding the range's highest peak (the earliest, on a tie). */
export const peakBucket = (buckets: readonly ConcurrencyBucket[]): ConcurrencyBucket | undefined =>
  buckets.reduce<ConcurrencyBucket | undefined>((best, b) => (b.peak > 0 && (!best || b.peak > best.peak) ? b : best), undefined);
