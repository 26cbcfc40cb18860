/**
 * The queues of each provider on screen, with their live and day figures: asked for every two
 * seconds (the refresh rate supervisors expect of a queue view), and only while a page shows them.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { paths, type ProviderScope } from '../../../contract/paths.js';
import { queuesResponseSchema } from '../../../contract/queues.js';
import type { ApiClient } from './api-client.js';
import { nextPollDelay } from './calls-query.js';
import { providerKey } from './query-keys.js';

export const QUEUES_POLL_MS = 2000;

export const queueKeys = {
  all: ['queues'] as const,
  provider: (baseURL: string, scope: ProviderScope) => [...queueKeys.all, ...providerKey(baseURL, scope)] as const,
};

export const queuesQueryOptions = (client: ApiClient, scope: ProviderScope, enabled: boolean) =>
  queryOptions({
    queryKey: queueKeys.provider(client.baseURL, scope),
    queryFn: ({ signal }) => client.get(paths.queues(scope), queuesResponseSchema, signal),
    enabled,
    retry: false,
    placeholderData: keepPreviousData,
    refetchIntervalInBackground: true,
    refetchInterval: (q) => (enabled ? nextPollDelay(q.state.error, q.state.fetchFailureCount, QUEUES_POLL_MS) : false),
  });
