/**
 * The live calls of the providers on screen, merged: pushed by the change stream into one query
 * per provider, or, where the stream cannot be had, polled into the same queries. Every
 * component that shows calls reads this one feed.
 */
import { useQueries, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { CallRecord } from '../../../contract/call-record.js';
import type { ProviderScope } from '../../../contract/paths.js';
import { usePolling } from '../polling-context.js';
import { useDocumentVisible } from '../use-document-visible.js';
import { useApi } from './api-context.js';
import type { ApiError } from './api-error.js';
import { mergeSorted } from './apply-call-changes.js';
import { identityOfLists } from './list-identity.js';
import type { StreamMode } from './call-stream.js';
import { callKeys, callsQueryOptions, DEFAULT_POLL_MS, type CallsData, type ProviderHealth } from './calls-query.js';
import { useCallStream } from './use-call-stream.js';

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
  /** How the calls arrive: pushed by the stream, or polled while it cannot be had. */
  mode: StreamMode;
  /** Why the dashboard polls instead of streaming. */
  streamReason?: string;
  /** When the stream last proved alive (heartbeats included); 0 while polling. */
  streamAliveAt: number;
  /** A provider whose service-side copy is too old to serve, or failing, as the stream told. */
  unhealthy?: ProviderHealth;
  /** What works less well for a provider whose calls still arrive, as the stream told (its event socket is down, say). */
  degraded?: string;
}

/**
 * The providers' lists as they are, held in a class instance: React Query shares a `combine`
 * result with the previous one by walking plain objects and arrays deeply, which at 10,000 calls
 * costs milliseconds per change and, where rows shift, hands out copies of calls that did not
 * change. An instance is compared by reference only; the merge is memoized on the lists below.
 */
class ProviderLists {
  constructor(readonly lists: readonly (CallRecord[] | undefined)[]) {}
}

/** One provider's list is the feed itself; several are merged in one pass (each is sorted already). */
const mergeLists = ({ lists }: ProviderLists): CallRecord[] => {
  const present = lists.filter((list): list is CallRecord[] => list !== undefined);
  return present.length === 1 ? (present[0] ?? []) : mergeSorted(present);
};

const worstHealth = (loaded: CallsData[]): ProviderHealth | undefined =>
  loaded.map((d) => d.health).find((h) => h && !h.available) ?? loaded.map((d) => d.health).find((h) => h?.problem);

/** The providers' queries as one feed; a module-level function, so it re-runs only when some query's result changed. */
const combineFeed = (
  results: UseQueryResult<CallsData>[],
): Omit<CallsFeed, 'refetch' | 'mode' | 'streamReason' | 'streamAliveAt' | 'calls' | 'degraded'> & { lists: ProviderLists; degraded: string | undefined } => {
  const loaded = results.flatMap((r) => (r.data ? [r.data] : []));
  const failing = results.find((r) => r.isError);
  const stalest = loaded.reduce<CallsData | undefined>(
    (worst, d) => (!worst || d.receivedAt - d.snapshotAgeMs < worst.receivedAt - worst.snapshotAgeMs ? d : worst),
    undefined,
  );
  return {
    status: loaded.length > 0 ? 'ready' : failing ? 'error' : 'pending',
    lists: new ProviderLists(results.map((r) => r.data?.calls)),
    snapshotAgeMs: stalest?.snapshotAgeMs ?? 0,
    receivedAt: stalest?.receivedAt ?? 0,
    error: failing?.error ?? undefined,
    failures: Math.max(0, ...results.map((r) => r.failureCount)),
    isFetching: results.some((r) => r.isFetching),
    unhealthy: worstHealth(loaded),
    degraded: loaded.find((d) => d.health?.degraded !== undefined)?.health?.degraded,
  };
};

export const useCallsFeed = (
  scopes: ProviderScope[],
  options: { inBackground?: boolean; intervalMs?: number } = {},
): CallsFeed => {
  const client = useApi();
  const { paused } = usePolling();
  const queryClient = useQueryClient();
  const inBackground = options.inBackground ?? false;
  // A hidden tab lets go of its stream (a wallboard keeps it) and resumes from its cursor when shown.
  const visible = useDocumentVisible();
  const stream = useCallStream(client, scopes, !paused && (visible || inBackground));
  const polling = {
    intervalMs: options.intervalMs ?? DEFAULT_POLL_MS,
    inBackground,
    enabled: !paused && stream.mode === 'polling',
  };

  const feed = useQueries({
    queries: scopes.map((scope) => callsQueryOptions(client, scope, polling)),
    combine: combineFeed,
  });

  const refetch = useCallback(() => {
    for (const scope of scopes) void queryClient.refetchQueries({ queryKey: callKeys.live(client.baseURL, scope) });
  }, [queryClient, client, scopes]);

  const { status, lists, snapshotAgeMs, receivedAt, error, failures, isFetching, unhealthy, degraded } = feed;
  const listsIdentity = identityOfLists(lists.lists);
  // The lists say what the merge depends on; their identity string changes exactly when one does.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const calls = useMemo(() => mergeLists(lists), [listsIdentity]);
  const streaming = stream.mode === 'streaming';
  return {
    status,
    calls,
    snapshotAgeMs,
    receivedAt,
    error,
    failures,
    isFetching,
    refetch,
    mode: stream.mode,
    streamReason: stream.reason,
    streamAliveAt: streaming ? stream.lastByteAt : 0,
    unhealthy,
    ...(streaming && degraded !== undefined ? { degraded } : {}),
  };
};
