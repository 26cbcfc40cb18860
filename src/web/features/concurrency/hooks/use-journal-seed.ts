/**
 * The live chart and "Peak today" filled from the service's journal when the page opens: today
 * since midnight in the displayed zone, and the last hour minute by minute. The page's own
 * samples continue from there; a reload shows the same picture.
 */
import { useQueries } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { bucketSecondsFor, MAX_BUCKETS, type ConcurrencyResponse } from '../../../../contract/analytics.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { useApi } from '../../../lib/api/api-context.js';
import { useQueueScope } from '../../../lib/queue-scope.js';
import { startOfDayIn } from '../../../../contract/time-zone.js';
import { seedSamples, type ConcurrencySample } from '../../../lib/concurrency-samples.js';
import { concurrencyQueryOptions, type AnalyticsWindow } from '../../analytics/api/analytics-queries.js';

/** The chart's longest range, and a little more so its left edge is never empty. */
const MINUTE_BY_MINUTE_MS = 65 * 60_000;
const MINUTE = 60;

/**
 * The windows to ask for: minute buckets back to midnight when that fits one answer, else coarser
 * ones before the last hour. Buckets start at their window's start, so the minute-by-minute one
 * starts on a minute: a page opened at 14:03:27 and a reload at 14:03:41 read the same minutes.
 */
export const seedWindows = (openedAt: number, midnight: number): { window: AnalyticsWindow; bucketSeconds: number }[] => {
  const recentFrom = Math.floor((openedAt - MINUTE_BY_MINUTE_MS) / (MINUTE * 1000)) * MINUTE * 1000;
  if (midnight >= recentFrom || (openedAt - midnight) / 60_000 <= MAX_BUCKETS)
    return [{ window: { from: Math.min(midnight, recentFrom), to: openedAt }, bucketSeconds: MINUTE }];
  return [
    { window: { from: midnight, to: recentFrom }, bucketSeconds: bucketSecondsFor(recentFrom - midnight) },
    { window: { from: recentFrom, to: openedAt }, bucketSeconds: MINUTE },
  ];
};

/**
 * Two samples per bucket, both its peaks: at its start and at its last millisecond, since the
 * peak stands for the whole bucket. A sample at the start alone would leave the last seeded minute
 * ending where it begins, and a page opened late in a minute, whose own first sample then comes
 * more than `GAP_MS` after it, would draw a hole just before "now" as if the feed had been down.
 * For several providers the peaks are added, which can only overstate a moment where their peaks
 * fell at different times within a bucket.
 */
export const samplesFromBuckets = (answers: readonly ConcurrencyResponse[]): ConcurrencySample[] => {
  const byTime = new Map<number, ConcurrencySample>();
  const add = (at: number, inbound: number, outbound: number) => {
    const sample = byTime.get(at) ?? { at, inbound: 0, outbound: 0 };
    sample.inbound += inbound;
    sample.outbound += outbound;
    byTime.set(at, sample);
  };
  for (const answer of answers) {
    const to = Date.parse(answer.toDate);
    for (const bucket of answer.buckets) {
      const start = Date.parse(bucket.start);
      const last = Math.min(start + answer.bucketSeconds * 1000, to) - 1;
      add(start, bucket.peakInbound, bucket.peakOutbound);
      if (last > start) add(last, bucket.peakInbound, bucket.peakOutbound);
    }
  }
  return [...byTime.values()].sort((a, b) => a.at - b.at);
};

/**
 * `enabled` once the live calls are on screen: the journal's history is asked for after the first
 * screen's data, not beside it, where its fetches and parsing held up that first paint.
 */
export const useJournalSeed = (scopes: readonly ProviderScope[], storageKey: string, timeZone: string, enabled: boolean): void => {
  const client = useApi();
  const queues = useQueueScope();
  // Asked once per page and selection: from then on the page's own samples carry the chart.
  const [openedAt] = useState(() => Date.now());
  const windows = seedWindows(openedAt, startOfDayIn(timeZone, openedAt));
  const answers = useQueries({
    queries: scopes.flatMap((scope) =>
      windows.map(({ window, bucketSeconds }) => ({
        ...concurrencyQueryOptions(client, scope, window, bucketSeconds, queues?.param),
        staleTime: Infinity,
        refetchInterval: false as const,
        placeholderData: undefined,
        enabled,
      })),
    ),
    combine: (results) =>
      results.every((result) => result.data) ? results.map((result) => result.data as ConcurrencyResponse) : undefined,
  });
  useEffect(() => {
    if (answers && storageKey !== '') seedSamples(storageKey, samplesFromBuckets(answers));
  }, [answers, storageKey]);
};
