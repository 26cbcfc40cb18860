/**
 * Missed calls of the last minutes: the live list keeps ended calls only for the provider's
 * keepEndedMs (two minutes by default), so this asks the list's window query (`fromDate`)
 * instead, a few times a minute, for the missed calls only (`isMissedCall=true`): the whole window
 * of a busy quarter-hour is megabytes, and past 10,000 calls the service refuses it.
 */
import { queryOptions } from '@tanstack/react-query';
import { listCallsResponseSchema, type CallRecord } from '../../../contract/call-record.js';
import { paths, type ProviderScope } from '../../../contract/paths.js';
import type { ApiClient } from './api-client.js';
import { callKeys, nextPollDelay } from './calls-query.js';

export const RECENT_WINDOW_MS = 15 * 60_000;
export const RECENT_POLL_MS = 30_000;

export interface RecentMissedCalls {
  /** Missed calls live at any moment since `fromDate`; ended ones have `endedAt`. */
  calls: CallRecord[];
  fromDate: number;
  receivedAt: number;
}

/** The window's missed calls for one provider (kept to those again here, should a service not know the filter). */
export const recentMissedCallsQueryOptions = (
  client: ApiClient,
  scope: ProviderScope,
  options: { enabled: boolean; windowMs?: number },
) => {
  const windowMs = options.windowMs ?? RECENT_WINDOW_MS;
  return queryOptions({
    queryKey: callKeys.recentMissed(client.baseURL, scope, windowMs),
    queryFn: async ({ signal }): Promise<RecentMissedCalls> => {
      const fromDate = Date.now() - windowMs;
      const query = new URLSearchParams({ fromDate: new Date(fromDate).toISOString(), isMissedCall: 'true' });
      const data = await client.get(`${paths.listCalls(scope)}?${query.toString()}`, listCallsResponseSchema, signal);
      return { calls: data.calls.filter((call) => call.isMissedCall), fromDate, receivedAt: Date.now() };
    },
    enabled: options.enabled,
    retry: false,
    // A wall screen is often a background tab; two requests a minute cost nothing.
    refetchIntervalInBackground: true,
    refetchInterval: (query) =>
      options.enabled ? nextPollDelay(query.state.error, query.state.fetchFailureCount, RECENT_POLL_MS) : false,
  });
};

/** When a missed call counts as missed: when it ended, or (not yet known) when it began ringing. */
const missedAt = (call: Pick<CallRecord, 'endedAt' | 'startedAt'>): number => Date.parse(call.endedAt ?? call.startedAt);

/**
 * Missed calls from `since` on, each counted once however many lists hold it (every provider's
 * window query and the live feed overlap). No upper bound: the service's clock may run ahead.
 */
export const countMissedSince = (lists: readonly (readonly CallRecord[] | undefined)[], since: number): number => {
  const seen = new Set<string>();
  for (const list of lists) {
    for (const call of list ?? []) {
      if (!call.isMissedCall || seen.has(call.callID)) continue;
      const at = missedAt(call);
      if (at >= since) seen.add(call.callID);
    }
  }
  return seen.size;
};
