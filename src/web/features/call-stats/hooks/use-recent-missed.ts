/** Missed calls in the last 15 minutes across the providers on screen, from the window query and the live feed. */
import { useQueries } from '@tanstack/react-query';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { useApi } from '../../../lib/api/api-context.js';
import { countMissedSince, RECENT_WINDOW_MS, recentMissedCallsQueryOptions } from '../../../lib/api/recent-calls-query.js';
import { usePolling } from '../../../lib/polling-context.js';

export type RecentMissed =
  | { status: 'pending' }
  | { status: 'error' }
  /** `partial` when some provider's window could not be read: the count is then a lower bound. */
  | { status: 'ready'; count: number; partial: boolean };

export const useRecentMissed = (scopes: readonly ProviderScope[], liveCalls: readonly CallRecord[], now: number): RecentMissed => {
  const client = useApi();
  const { paused } = usePolling();
  const results = useQueries({
    queries: scopes.map((scope) => recentMissedCallsQueryOptions(client, scope, { enabled: !paused })),
  });

  const lists = results.map((result) => result.data?.calls);
  const loaded = lists.filter((list) => list !== undefined).length;
  if (loaded === 0) return results.some((result) => result.isError) ? { status: 'error' } : { status: 'pending' };
  return {
    status: 'ready',
    count: countMissedSince([...lists, liveCalls], now - RECENT_WINDOW_MS),
    partial: loaded < results.length || results.some((result) => result.isError),
  };
};
