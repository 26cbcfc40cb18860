/** The analytics endpoints (our extension): bucketed concurrency and calls per subscriber over a window. */
import { z } from 'zod';
import { queueFilterSchema } from './queue-filter.js';
import { queryDateSchema, timestampSchema } from './call-record.js';

/** The most buckets one concurrency answer holds. */
export const MAX_BUCKETS = 500;

/** Bucket sizes chosen from the window when none is asked for: the smallest that fits MAX_BUCKETS. */
const NICE_BUCKET_SECONDS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400] as const;

export const bucketSecondsFor = (windowMs: number): number =>
  NICE_BUCKET_SECONDS.find((seconds) => Math.ceil(windowMs / (seconds * 1000)) <= MAX_BUCKETS) ?? 86_400;

export const concurrencyQuerySchema = z.strictObject({
  fromDate: queryDateSchema.optional(),
  toDate: queryDateSchema.optional(),
  bucketSeconds: z
    .string()
    .regex(/^[1-9][0-9]{0,6}$/, 'must be a whole number of seconds from 1 to 9999999')
    .optional(),
  queueID: queueFilterSchema.optional(),
});
export type ConcurrencyQuery = z.infer<typeof concurrencyQuerySchema>;

const count = z.number().int().nonnegative();

export const concurrencyBucketSchema = z.object({
  /** The bucket covers [start, start + bucketSeconds), cut at toDate. */
  start: timestampSchema,
  /** Most calls live at once within the bucket. */
  peak: count,
  /** Time-weighted mean of the calls live during the bucket. */
  average: z.number().nonnegative(),
  peakInbound: count,
  peakOutbound: count,
  /** Calls that started within the bucket. */
  started: count,
  /** Of those, inbound calls nobody answered. */
  missed: count,
});
export type ConcurrencyBucket = z.infer<typeof concurrencyBucketSchema>;

/** How far the service has filled a provider's past into its journal (a provider first seen with no history). */
export const historyFillSchema = z.object({
  /**
   * `filling`: still going, newest first; `complete`; `capped`: stopped at the service's budget of
   * backfilled calls, so the history begins at `filledFrom`; `failed`: stopped on an error, and
   * resumes at the service's next start.
   */
  status: z.enum(['filling', 'complete', 'capped', 'failed']),
  /** The past being filled: from here... */
  from: timestampSchema,
  /** ...to where the provider's own journal begins. */
  to: timestampSchema,
  /** The history is complete from here to `to`. */
  filledFrom: timestampSchema,
  /** Calls written so far. */
  calls: count,
});
export type HistoryFill = z.infer<typeof historyFillSchema>;

export const concurrencyResponseSchema = z.object({
  fromDate: timestampSchema,
  toDate: timestampSchema,
  bucketSeconds: z.number().int().positive(),
  buckets: z.array(concurrencyBucketSchema),
  /** Present when the service backfilled this provider's past: buckets before `filledFrom` may be missing calls. */
  historyFill: historyFillSchema.optional(),
}).meta({ id: 'ConcurrencyResponse' });
export type ConcurrencyResponse = z.infer<typeof concurrencyResponseSchema>;

export const subscriberActivityQuerySchema = z.strictObject({
  fromDate: queryDateSchema.optional(),
  toDate: queryDateSchema.optional(),
});
export type SubscriberActivityQuery = z.infer<typeof subscriberActivityQuerySchema>;

export const subscriberActivitySchema = z.object({
  subscriberID: z.string(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  extension: z.string().optional(),
  /** Calls that started within the window and reached this subscriber. */
  calls: count,
  inbound: count,
  outbound: count,
  /** Inbound calls that rang this subscriber and were never answered. */
  missed: count,
  talkSeconds: count,
});
export type SubscriberActivity = z.infer<typeof subscriberActivitySchema>;

export const subscriberActivityResponseSchema = z.object({
  fromDate: timestampSchema,
  toDate: timestampSchema,
  /** Most calls first. */
  subscribers: z.array(subscriberActivitySchema),
}).meta({ id: 'SubscriberActivityResponse' });
export type SubscriberActivityResponse = z.infer<typeof subscriberActivityResponseSchema>;
