/** Missed calls in the last 15 minutes across the providers on screen, from the window query and the live feed. */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { useApi } from '../../../lib/api/api-context.js';
import { callKeys } from '../../../lib/api/calls-query.js';
import {
  countMissedSince,
  missedOutsideWindows,
  missedWindows,
  RECENT_WINDOW_MS,
  recentMissedCallsQueryOptions,
  type MissedWindows,
  type RecentMissedCalls,
} from '../../../lib/api/recent-calls-query.js';
import { usePolling } from '../../../lib/polling-context.js';

export type RecentMissed =
  | { status: 'pending' }
  | { status: 'error' }
  /** `partial` when some provider's window could not be read: the count is then a lower bound. */
  | { status: 'ready'; count: number; partial: boolean };

/** How long after the live feed shows a call ended the service's journal holds it: the same sync writes it. */
export const JOURNAL_CATCH_UP_MS = 1000;

interface Windows {
  windows: MissedWindows;
  loaded: number;
  failed: boolean;
}

/** Stable, so TanStack combines the windows again only when one of them changed, not on every render. */
const combineWindows = (results: readonly { data?: RecentMissedCalls; isError: boolean }[]): Windows => ({
  windows: missedWindows(results.map((result) => result.data?.calls)),
  loaded: results.filter((result) => result.data !== undefined).length,
  failed: results.some((result) => result.isError),
});

export const useRecentMissed = (
  scopes: readonly ProviderScope[],
  liveCalls: readonly CallRecord[],
  now: number,
): RecentMissed => {
  const client = useApi();
  const queryClient = useQueryClient();
  const { paused } = usePolling();
  const { windows, loaded, failed } = useQueries({
    queries: scopes.map((scope) => recentMissedCallsQueryOptions(client, scope, { enabled: !paused })),
    combine: combineWindows,
  });

  // A missed call leaves the live list keepEndedMs after its end, which may come before the next
  // window poll: the windows are read again once the journal holds it, so the count never drops back.
  const outside = useMemo(() => missedOutsideWindows(windows, liveCalls), [windows, liveCalls]);
  useEffect(() => {
    if (outside === '') return;
    const timer = setTimeout(
      () => void queryClient.refetchQueries({ queryKey: callKeys.recentMissedAll(client.baseURL), type: 'active' }),
      JOURNAL_CATCH_UP_MS,
    );
    return () => clearTimeout(timer);
  }, [outside, queryClient, client.baseURL]);

  const count = useMemo(() => countMissedSince(windows, liveCalls, now - RECENT_WINDOW_MS), [windows, liveCalls, now]);
  if (loaded === 0) return failed ? { status: 'error' } : { status: 'pending' };
  return { status: 'ready', count, partial: loaded < scopes.length || failed };
};
