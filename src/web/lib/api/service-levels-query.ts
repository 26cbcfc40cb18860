/**
 * Service level and the missed callers, from the service's journal: for the live view's tiles (the
 * last minutes and the day so far, asked again as calls answer and end) and for analytics (a window).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { paths, type ProviderScope } from '../../../contract/paths.js';
import { z } from 'zod';
import { missedCallsResponseSchema, queueServiceLevelSchema, serviceLevelsResponseSchema, serviceLevelTotalsResponseSchema } from '../../../contract/service-levels.js';
import type { ApiClient } from './api-client.js';
import { nextPollDelay } from './calls-query.js';
import { providerKey } from './query-keys.js';

/** The definition's two parameters, as the service takes them. */
export interface ServiceLevelDefinition {
  answerWithinSeconds: number;
  shortAbandonSeconds: number;
}

/** A window that ends now: since a fixed instant (the day's start), or the last `lastMs`. */
export type LiveWindow = { since: number } | { lastMs: number };

/** Asked again this often without a call answered or ended meanwhile (the window slides with the clock). */
export const LIVE_FIGURES_POLL_MS = 30_000;

export const serviceLevelKeys = {
  all: ['service-levels'] as const,
  live: (baseURL: string) => [...serviceLevelKeys.all, 'live', baseURL] as const,
  liveWindow: (baseURL: string, scope: ProviderScope, window: LiveWindow, definition: ServiceLevelDefinition, queueID: string | undefined) =>
    [
      ...serviceLevelKeys.live(baseURL),
      ...providerKey(baseURL, scope),
      'since' in window ? `since ${window.since}` : `last ${window.lastMs}`,
      definition.answerWithinSeconds,
      definition.shortAbandonSeconds,
      queueID ?? 'all queues',
    ] as const,
  window: (baseURL: string, scope: ProviderScope, from: number, to: number, bucketSeconds: number | undefined, definition: ServiceLevelDefinition) =>
    [...serviceLevelKeys.all, 'window', ...providerKey(baseURL, scope), from, to, bucketSeconds ?? 'auto', definition.answerWithinSeconds, definition.shortAbandonSeconds] as const,
  missedLive: (baseURL: string) => [...serviceLevelKeys.all, 'missed', baseURL] as const,
  missed: (baseURL: string, scope: ProviderScope, windowMs: number, shortAbandonSeconds: number, queueID: string | undefined) =>
    [...serviceLevelKeys.missedLive(baseURL), ...providerKey(baseURL, scope), windowMs, shortAbandonSeconds, queueID ?? 'all queues'] as const,
};

const query = (params: Record<string, string | number | undefined>) =>
  `?${new URLSearchParams(Object.entries(params).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])))}`;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The figures of a window ending now, as one bucket, without the per-subscriber rows (at a large
 * center those are megabytes the tiles never show); asked again every half minute, and when calls
 * answer or end (see the hook).
 */
export const liveServiceLevelsQueryOptions = (
  client: ApiClient,
  scope: ProviderScope,
  window: LiveWindow,
  definition: ServiceLevelDefinition,
  enabled: boolean,
  /** Only these queues' calls (`queueID=`). */
  queueID?: string,
) =>
  queryOptions({
    queryKey: serviceLevelKeys.liveWindow(client.baseURL, scope, window, definition, queueID),
    queryFn: ({ signal }) => {
      const to = Date.now();
      const from = 'since' in window ? Math.min(window.since, to - 1000) : to - window.lastMs;
      const seconds = Math.max(1, Math.ceil((to - from) / 1000));
      return client.get(
        `${paths.serviceLevels(scope)}${query({ fromDate: iso(from), toDate: iso(to), bucketSeconds: seconds, ...definition, subscribers: 'omit', queueID })}`,
        serviceLevelTotalsResponseSchema,
        signal,
      );
    },
    enabled,
    retry: false,
    placeholderData: keepPreviousData,
    refetchIntervalInBackground: true,
    refetchInterval: (q) => (enabled ? nextPollDelay(q.state.error, q.state.fetchFailureCount, LIVE_FIGURES_POLL_MS) : false),
  });

/** The figures of a fixed window, bucketed, for analytics. */
export const serviceLevelsQueryOptions = (
  client: ApiClient,
  scope: ProviderScope,
  window: { from: number; to: number; bucketSeconds?: number },
  definition: ServiceLevelDefinition,
) =>
  queryOptions({
    queryKey: serviceLevelKeys.window(client.baseURL, scope, window.from, window.to, window.bucketSeconds, definition),
    queryFn: ({ signal }) =>
      client.get(
        `${paths.serviceLevels(scope)}${query({ fromDate: iso(window.from), toDate: iso(window.to), bucketSeconds: window.bucketSeconds, ...definition })}`,
        serviceLevelsResponseSchema,
        signal,
      ),
    staleTime: 60_000,
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
    retry: 1,
  });

/** Each queue's figures over a fixed window, bucketed, each with its own parameters (`groupBy=queue`), for analytics. */
export const queueServiceLevelsQueryOptions = (client: ApiClient, scope: ProviderScope, window: { from: number; to: number; bucketSeconds?: number }) =>
  queryOptions({
    queryKey: [...serviceLevelKeys.all, 'by queue', ...providerKey(client.baseURL, scope), window.from, window.to, window.bucketSeconds ?? 'auto'] as const,
    queryFn: ({ signal }) =>
      client.get(
        `${paths.serviceLevels(scope)}${query({ fromDate: iso(window.from), toDate: iso(window.to), bucketSeconds: window.bucketSeconds, groupBy: 'queue', subscribers: 'omit' })}`,
        serviceLevelTotalsResponseSchema.extend({ queues: z.array(queueServiceLevelSchema) }),
        signal,
      ),
    staleTime: 60_000,
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
    retry: 1,
  });

/** The missed callers of the last `windowMs`, newest first, with who called them back. */
export const missedCallsQueryOptions = (
  client: ApiClient,
  scope: ProviderScope,
  windowMs: number,
  shortAbandonSeconds: number,
  enabled: boolean,
  /** Only these queues' callers (`queueID=`). */
  queueID?: string,
) =>
  queryOptions({
    queryKey: serviceLevelKeys.missed(client.baseURL, scope, windowMs, shortAbandonSeconds, queueID),
    queryFn: ({ signal }) => {
      const to = Date.now();
      return client.get(
        `${paths.missedCalls(scope)}${query({ fromDate: iso(to - windowMs), toDate: iso(to), shortAbandonSeconds, queueID })}`,
        missedCallsResponseSchema,
        signal,
      );
    },
    enabled,
    retry: false,
    placeholderData: keepPreviousData,
    refetchIntervalInBackground: true,
    refetchInterval: (q) => (enabled ? nextPollDelay(q.state.error, q.state.fetchFailureCount, LIVE_FIGURES_POLL_MS * 2) : false),
  });
