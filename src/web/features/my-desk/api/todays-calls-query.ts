/**
 * An agent's calls of the day so far: the list's window query (`fromDate` = the day's start), which
 * the service keeps to the agent's own calls. The live feed keeps ended calls for minutes only, so
 * the day's earlier calls come from here, asked again a few times a minute.
 */
import { queryOptions } from '@tanstack/react-query';
import { listCallsResponseSchema } from '../../../../contract/call-record.js';
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import type { ApiClient } from '../../../lib/api/api-client.js';
import { callKeys, nextPollDelay } from '../../../lib/api/calls-query.js';

const TODAYS_CALLS_POLL_MS = 30_000;

export const todaysCallsQueryOptions = (client: ApiClient, scope: ProviderScope, dayStart: number, enabled: boolean) =>
  queryOptions({
    queryKey: callKeys.since(client.baseURL, scope, dayStart),
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams({ fromDate: new Date(dayStart).toISOString() });
      return (await client.get(`${paths.listCalls(scope)}?${query.toString()}`, listCallsResponseSchema, signal)).calls;
    },
    enabled,
    retry: false,
    refetchInterval: (query) => (enabled ? nextPollDelay(query.state.error, query.state.fetchFailureCount, TODAYS_CALLS_POLL_MS) : false),
  });
