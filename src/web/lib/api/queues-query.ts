/**
 * The queues of each provider on screen, with their live and day figures: asked for every two
 * seconds (the refresh rate supervisors expect of a queue view), and only while a page shows them.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { paths, type ProviderScope } from '../../../contract/paths.js';
import { queuesResponseSchema, type QueueChangesEvent, type QueuesResponse } from '../../../contract/queues.js';
import type { ApiClient } from './api-client.js';
import { nextPollDelay } from './calls-query.js';
import { providerKey } from './query-keys.js';

export const QUEUES_POLL_MS = 2000;

export const queueKeys = {
  all: ['queues'] as const,
  provider: (baseURL: string, scope: ProviderScope) => [...queueKeys.all, ...providerKey(baseURL, scope)] as const,
};

/** The figures with a stream's change applied: each queue that changed replaced where it stands, the calls in no queue replaced. */
export const applyQueueChanges = (before: QueuesResponse, change: QueueChangesEvent): QueuesResponse => {
  const upserted = new Map(change.upserted.map((queue) => [queue.queueID, queue]));
  const queues = before.queues.map((queue) => upserted.get(queue.queueID) ?? queue);
  for (const queue of upserted.values()) if (!before.queues.some((held) => held.queueID === queue.queueID)) queues.push(queue);
  return { figuresAt: change.figuresAt, dayStart: change.dayStart, queues, ...(change.unqueued ? { unqueued: change.unqueued } : {}) };
};

/** The queues once, for a page that only needs to know which there are (analytics): asked again after a minute at most. */
export const queueListQueryOptions = (client: ApiClient, scope: ProviderScope) =>
  queryOptions({
    queryKey: queueKeys.provider(client.baseURL, scope),
    queryFn: ({ signal }) => client.get(paths.queues(scope), queuesResponseSchema, signal),
    staleTime: 60_000,
    retry: false,
  });

/** Polled only while the change stream cannot be had: the stream carries the queues otherwise. */
export const queuesQueryOptions = (client: ApiClient, scope: ProviderScope, enabled: boolean) =>
  queryOptions({
    queryKey: queueKeys.provider(client.baseURL, scope),
    queryFn: ({ signal }) => client.get(paths.queues(scope), queuesResponseSchema, signal),
    enabled,
    staleTime: enabled ? 0 : Infinity,
    retry: false,
    placeholderData: keepPreviousData,
    refetchIntervalInBackground: true,
    refetchInterval: (q) => (enabled ? nextPollDelay(q.state.error, q.state.fetchFailureCount, QUEUES_POLL_MS) : false),
  });
