/** The provider's subscribers, for the click-to-call picker. */
import { queryOptions } from '@tanstack/react-query';
import { paths, type ProviderScope } from '../../../contract/paths.js';
import { listSubscribersResponseSchema } from '../../../contract/subscriber.js';
import type { ApiClient } from './api-client.js';

export const subscribersQueryOptions = (client: ApiClient, baseURL: string, scope: ProviderScope) =>
  queryOptions({
    queryKey: ['subscribers', baseURL, scope] as const,
    queryFn: ({ signal }) => client.get(paths.subscribers(scope), listSubscribersResponseSchema, signal),
    staleTime: 30_000,
    retry: 1,
  });
