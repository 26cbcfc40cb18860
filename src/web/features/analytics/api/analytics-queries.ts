/** Query options for the analytics endpoints; answers are parsed with the contract's schemas. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { concurrencyResponseSchema, subscriberActivityResponseSchema, type ConcurrencyResponse } from '../../../../contract/analytics.js';
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import type { ApiClient } from '../../../lib/api/api-client.js';
import { providerKey } from '../../../lib/api/query-keys.js';

export interface AnalyticsWindow {
  from: number;
  to: number;
  /** The bucket to ask for; without it the service picks one. */
  bucketSeconds?: number;
}

const windowQuery = (window: AnalyticsWindow, extra: Record<string, string> = {}) =>
  `?${new URLSearchParams({ fromDate: new Date(window.from).toISOString(), toDate: new Date(window.to).toISOString(), ...extra })}`;

/** History changes once a minute at most on this page; the previous answer stays on screen meanwhile. */
const common = { staleTime: 60_000, refetchInterval: 60_000, placeholderData: keepPreviousData, retry: 1 } as const;

export const analyticsKeys = {
  all: ['analytics'] as const,
  provider: (baseURL: string, scope: ProviderScope) => [...analyticsKeys.all, ...providerKey(baseURL, scope)] as const,
  concurrency: (baseURL: string, scope: ProviderScope, window: AnalyticsWindow, bucketSeconds?: number, queueID?: string) =>
    [...analyticsKeys.provider(baseURL, scope), 'concurrency', window.from, window.to, bucketSeconds ?? 'auto', queueID ?? 'all queues'] as const,
  subscribers: (baseURL: string, scope: ProviderScope, window: AnalyticsWindow) =>
    [...analyticsKeys.provider(baseURL, scope), 'subscriber-activity', window.from, window.to] as const,
};

/** While the service fills the provider's past, the page follows it every few seconds. */
const followWhileFilling = ({ state }: { state: { data?: ConcurrencyResponse } }) =>
  state.data?.historyFill?.status === 'filling' ? 10_000 : common.refetchInterval;

export const concurrencyQueryOptions = (client: ApiClient, scope: ProviderScope, window: AnalyticsWindow, bucketSeconds?: number, queueID?: string) =>
  queryOptions({
    ...common,
    refetchInterval: followWhileFilling,
    queryKey: analyticsKeys.concurrency(client.baseURL, scope, window, bucketSeconds, queueID),
    queryFn: ({ signal }) =>
      client.get(
        `${paths.concurrency(scope)}${windowQuery(window, { ...(bucketSeconds ? { bucketSeconds: String(bucketSeconds) } : {}), ...(queueID ? { queueID } : {}) })}`,
        concurrencyResponseSchema,
        signal,
      ),
  });

export const subscriberActivityQueryOptions = (client: ApiClient, scope: ProviderScope, window: AnalyticsWindow) =>
  queryOptions({
    ...common,
    queryKey: analyticsKeys.subscribers(client.baseURL, scope, window),
    queryFn: ({ signal }) => client.get(`${paths.subscriberActivity(scope)}${windowQuery(window)}`, subscriberActivityResponseSchema, signal),
  });
