/**
 * Missed calls of the last minutes: the live list keeps ended calls only for the provider's
 * keepEndedMs (two minutes by default), so this asks the list's window query (`fromDate`)
 * instead, a few times a minute, for the missed calls only (`isMissedCall=true`): the whole window
 * of a busy quarter-hour is megabytes, and past 10,000 calls the service refuses it.
 */
import { queryOptions } from '@tanstack/react-query';
import { listCallsResponseSchema, type CallRecord } from '../../../contract/call-record.js';
import { paths, type ProviderScope } from '../../../contract/paths.js';
import { perList } from '../per-list.js';
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
 * The missed calls that the window queries hold, each once, by when it counts as missed (the latest
 * any window says). Built when a window is read again, a few times a minute, not with every change
 * of the live feed: at 10,000 live calls that rebuild was a twentieth of the page's work.
 */
export interface MissedWindows {
  at: ReadonlyMap<string, number>;
  /** The same moments, ascending. */
  sorted: Float64Array;
}

export const missedWindows = (lists: readonly (readonly CallRecord[] | undefined)[]): MissedWindows => {
  const at = new Map<string, number>();
  for (const list of lists) {
    for (const call of list ?? []) {
      if (!call.isMissedCall) continue;
      const when = missedAt(call);
      const before = at.get(call.callID);
      if (before === undefined || when > before) at.set(call.callID, when);
    }
  }
  return { at, sorted: Float64Array.from(at.values()).sort() };
};

/** How many of `sorted` (ascending) are at or after `since`. */
const atOrAfter = (sorted: Float64Array, since: number): number => {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < since) low = middle + 1;
    else high = middle;
  }
  return sorted.length - low;
};

/** The live feed's missed calls, with when each counts as missed: one pass per update, read again each second. */
const liveMissed = perList((live: readonly CallRecord[]) =>
  live.flatMap((call) =>
    call.isMissedCall ? [{ callID: call.callID, at: missedAt(call), ended: call.endedAt !== undefined }] : [],
  ),
);

/**
 * Missed calls from `since` on, each counted once whether the windows, the live feed or both hold
 * it, and counted when any of them puts it in range (the live feed may know of an end a window does
 * not yet). No upper bound: the service's clock may run ahead.
 */
export const countMissedSince = (windows: MissedWindows, live: readonly CallRecord[], since: number): number => {
  let count = atOrAfter(windows.sorted, since);
  let counted: Set<string> | undefined;
  for (const { callID, at } of liveMissed(live)) {
    const held = windows.at.get(callID);
    if ((held !== undefined && held >= since) || at < since || counted?.has(callID)) continue;
    (counted ??= new Set()).add(callID);
    count += 1;
  }
  return count;
};

/** The ended missed calls of the live feed that no window holds yet, as one key (empty when none). */
export const missedOutsideWindows = (windows: MissedWindows, live: readonly CallRecord[]): string => {
  const outside: string[] = [];
  for (const { callID, ended } of liveMissed(live)) if (ended && !windows.at.has(callID)) outside.push(callID);
  return outside.sort().join(' ');
};
