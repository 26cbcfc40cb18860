/**
 * What the journal knows of a caller while their call rings: the calls of the last week (the
 * list's window query, which keeps an agent to their own calls), asked once a minute at most, and
 * kept to the caller's number by the component that reads it.
 */
import { queryOptions } from '@tanstack/react-query';
import { listCallsResponseSchema } from '../../../../contract/call-record.js';
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import type { ApiClient } from '../../../lib/api/api-client.js';
import { callKeys } from '../../../lib/api/calls-query.js';
import { providerKey } from '../../../lib/api/query-keys.js';

export const CALLER_WINDOW_MS = 7 * 24 * 3_600_000;

export const callerCallsQueryOptions = (client: ApiClient, scope: ProviderScope) =>
  queryOptions({
    queryKey: [...callKeys.all, 'last-week', ...providerKey(client.baseURL, scope)] as const,
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams({ fromDate: new Date(Date.now() - CALLER_WINDOW_MS).toISOString() });
      return (await client.get(`${paths.listCalls(scope)}?${query.toString()}`, listCallsResponseSchema, signal)).calls;
    },
    staleTime: 60_000,
    retry: false,
  });
