/** The provider's subscribers, for the click-to-call picker. */
import { queryOptions } from '@tanstack/react-query';
import { paths, type ProviderScope } from '../../../contract/paths.js';
import { listSubscribersResponseSchema } from '../../../contract/subscriber.js';
import type { ApiClient } from './api-client.js';
import { providerKey } from './query-keys.js';

export const subscriberKeys = {
  all: ['subscribers'] as const,
  provider: (baseURL: string, scope: ProviderScope) => [...subscriberKeys.all, ...providerKey(baseURL, scope)] as const,
};

export const subscribersQueryOptions = (client: ApiClient, scope: ProviderScope) =>
  queryOptions({
    queryKey: subscriberKeys.provider(client.baseURL, scope),
    queryFn: ({ signal }) => client.get(paths.subscribers(scope), listSubscribersResponseSchema, signal),
    staleTime: 30_000,
    retry: 1,
  });
