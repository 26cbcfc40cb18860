/**
 * The live calls of the providers on screen: one polling query per provider, merged. Every
 * component that shows calls reads this one feed; React Query shares the requests.
 */
import { useQueries, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { CallRecord } from '../../../contract/call-record.js';
import type { ProviderScope } from '../../../contract/paths.js';
import { usePolling } from '../polling-context.js';
import { useApi } from './api-context.js';
import type { ApiError } from './api-error.js';
import { callKeys, callsQueryOptions, DEFAULT_POLL_MS, type CallsData } from './calls-query.js';

export interface CallsFeed {
  status: 'pending' | 'ready' | 'error';
  /** All calls of the providers on screen, oldest start first. Same array while nothing changed. */
  calls: CallRecord[];
  /** Oldest data on screen: the least fresh provider decides. */
  snapshotAgeMs: number;
  receivedAt: number;
  /** The latest failure while polling, if the last poll failed; data stays on screen. */
  error: ApiError | undefined;
  /** Polls in a row that failed. */
  failures: number;
  isFetching: boolean;
  refetch: () => void;
}

const byStart = (a: CallRecord, b: CallRecord) =>
  a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.callID < b.callID ? -1 : 1;

const mergeByStart = (lists: (CallRecord[] | undefined)[]): CallRecord[] => {
  const present = lists.filter((list): list is CallRecord[] => list !== undefined);
  if (present.length === 1) return present[0] ?? [];
  return present.flat().sort(byStart);
};

/**
 * The providers' polls as one feed. React Query shares this result structurally with the
 * previous one, so a merge of unchanged lists hands back the previous `calls` array; being a
 * module-level function, it re-runs only when some poll's result changed.
 */
const combineFeed = (results: UseQueryResult<CallsData>[]): Omit<CallsFeed, 'refetch'> => {
  const loaded = results.flatMap((r) => (r.data ? [r.data] : []));
  const failing = results.find((r) => r.isError);
  const stalest = loaded.reduce<CallsData | undefined>(
    (worst, d) => (!worst || d.receivedAt - d.snapshotAgeMs < worst.receivedAt - worst.snapshotAgeMs ? d : worst),
    undefined,
  );
  return {
    status: loaded.length > 0 ? 'ready' : failing ? 'error' : 'pending',
    calls: mergeByStart(results.map((r) => r.data?.calls)),
    snapshotAgeMs: stalest?.snapshotAgeMs ?? 0,
    receivedAt: stalest?.receivedAt ?? 0,
    error: failing?.error ?? undefined,
    failures: Math.max(0, ...results.map((r) => r.failureCount)),
    isFetching: results.some((r) => r.isFetching),
  };
};

export const useCallsFeed = (scopes: ProviderScope[], options: { inBackground?: boolean; intervalMs?: number } = {}): CallsFeed => {
  const client = useApi();
  const { paused } = usePolling();
  const queryClient = useQueryClient();
  const polling = { intervalMs: options.intervalMs ?? DEFAULT_POLL_MS, inBackground: options.inBackground ?? false, enabled: !paused };

  const feed = useQueries({
    queries: scopes.map((scope) => callsQueryOptions(client, scope, polling)),
    combine: combineFeed,
  });

  const refetch = useCallback(() => {
    for (const scope of scopes) void queryClient.refetchQueries({ queryKey: callKeys.live(client.baseURL, scope) });
  }, [queryClient, client, scopes]);

  const { status, calls, snapshotAgeMs, receivedAt, error, failures, isFetching } = feed;
  return { status, calls, snapshotAgeMs, receivedAt, error, failures, isFetching, refetch };
};
