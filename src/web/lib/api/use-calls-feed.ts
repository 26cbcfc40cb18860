/**
 * The live calls of the providers on screen: one polling query per provider, merged. Every
 * component that shows calls reads this one feed; React Query shares the requests.
 */
import { useQueries, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { CallRecord } from '../../../contract/call-record.js';
import type { ProviderScope } from '../../../contract/paths.js';
import { useConnection } from '../connection-context.js';
import { usePolling } from '../polling-context.js';
import { ApiError } from './api-error.js';
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

/** Merges again only when some provider's call array changed, so an unchanged feed keeps its array. */
const lastMerge = () => {
  let inputs: (CallRecord[] | undefined)[] = [];
  let output: CallRecord[] = [];
  return (lists: (CallRecord[] | undefined)[]) => {
    if (lists.length !== inputs.length || lists.some((list, i) => list !== inputs[i])) {
      inputs = lists;
      output = mergeByStart(lists);
    }
    return output;
  };
};

const asApiError = (error: unknown): ApiError | undefined =>
  error === null || error === undefined ? undefined : error instanceof ApiError ? error : new ApiError('http_error', String(error));

export const useCallsFeed = (scopes: ProviderScope[], options: { inBackground?: boolean; intervalMs?: number } = {}): CallsFeed => {
  const { client, connection } = useConnection();
  const { paused } = usePolling();
  const queryClient = useQueryClient();
  const baseURL = connection?.baseURL ?? '';
  const polling = { intervalMs: options.intervalMs ?? DEFAULT_POLL_MS, inBackground: options.inBackground ?? false, enabled: !!client && !paused };

  const results = useQueries({
    queries: scopes.map((scope) =>
      callsQueryOptions(client!, baseURL, scope, polling, () => queryClient.getQueryData<CallsData>(callKeys.provider(baseURL, scope))),
    ),
  }) as UseQueryResult<CallsData, Error>[];

  const [merge] = useState(lastMerge);
  const dataList = results.map((r) => r.data);
  const calls = merge(dataList.map((d) => d?.calls));

  const refetch = useCallback(() => {
    for (const scope of scopes) void queryClient.refetchQueries({ queryKey: callKeys.provider(baseURL, scope) });
  }, [queryClient, baseURL, scopes]);

  const loaded = dataList.filter((d): d is CallsData => d !== undefined);
  const failing = results.find((r) => r.isError);
  const stalest = loaded.reduce<CallsData | undefined>(
    (worst, d) => (!worst || d.receivedAt - d.snapshotAgeMs < worst.receivedAt - worst.snapshotAgeMs ? d : worst),
    undefined,
  );
  return {
    status: loaded.length > 0 ? 'ready' : failing ? 'error' : 'pending',
    calls,
    snapshotAgeMs: stalest?.snapshotAgeMs ?? 0,
    receivedAt: stalest?.receivedAt ?? 0,
    error: asApiError(failing?.error),
    failures: Math.max(0, ...results.map((r) => r.failureCount)),
    isFetching: results.some((r) => r.isFetching),
    refetch,
  };
};
