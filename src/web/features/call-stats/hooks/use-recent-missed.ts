/** Missed calls in the last 15 minutes across the providers on screen, from the window query and the live feed. */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { useApi } from '../../../lib/api/api-context.js';
import { callKeys } from '../../../lib/api/calls-query.js';
import { countMissedSince, RECENT_WINDOW_MS, recentMissedCallsQueryOptions } from '../../../lib/api/recent-calls-query.js';
import { usePolling } from '../../../lib/polling-context.js';

export type RecentMissed =
  | { status: 'pending' }
  | { status: 'error' }
  /** `partial` when some provider's window could not be read: the count is then a lower bound. */
  | { status: 'ready'; count: number; partial: boolean };

/** How long after the live feed shows a call ended the service's journal holds it: the same sync writes it. */
export const JOURNAL_CATCH_UP_MS = 1000;

/** The ended missed calls of the live feed that no window holds yet, as one key. */
const missedOutsideWindows = (lists: readonly (readonly CallRecord[] | undefined)[], liveCalls: readonly CallRecord[]): string => {
  const held = new Set(lists.flatMap((list) => (list ?? []).map((call) => call.callID)));
  return liveCalls
    .filter((call) => call.isMissedCall && call.endedAt !== undefined && !held.has(call.callID))
    .map((call) => call.callID)
    .sort()
    .join(' ');
};

export const useRecentMissed = (scopes: readonly ProviderScope[], liveCalls: readonly CallRecord[], now: number): RecentMissed => {
  const client = useApi();
  const queryClient = useQueryClient();
  const { paused } = usePolling();
  const results = useQueries({
    queries: scopes.map((scope) => recentMissedCallsQueryOptions(client, scope, { enabled: !paused })),
  });

  const lists = results.map((result) => result.data?.calls);
  // A missed call leaves the live list keepEndedMs after its end, which may come before the next
  // window poll: the windows are read again once the journal holds it, so the count never drops back.
  const outside = missedOutsideWindows(lists, liveCalls);
  useEffect(() => {
    if (outside === '') return;
    const timer = setTimeout(
      () => void queryClient.refetchQueries({ queryKey: callKeys.recentMissedAll(client.baseURL), type: 'active' }),
      JOURNAL_CATCH_UP_MS,
    );
    return () => clearTimeout(timer);
  }, [outside, queryClient, client.baseURL]);

  const loaded = lists.filter((list) => list !== undefined).length;
  if (loaded === 0) return results.some((result) => result.isError) ? { status: 'error' } : { status: 'pending' };
  return {
    status: 'ready',
    count: countMissedSince([...lists, liveCalls], now - RECENT_WINDOW_MS),
    partial: loaded < results.length || results.some((result) => result.isError),
  };
};
