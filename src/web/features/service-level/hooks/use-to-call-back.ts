/**
 * The callers to call back for the providers on screen: the journal's missed callers of the last
 * 24 hours, brought up to date with the live feed at each of its changes (a caller giving up, a
 * callback placed, a call answered). The journal is asked again once it holds a caller the feed
 * showed giving up, and every minute as the window slides.
 */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { MissedCall } from '../../../../contract/service-levels.js';
import { useApi } from '../../../lib/api/api-context.js';
import { missedCallsQueryOptions, serviceLevelKeys } from '../../../lib/api/service-levels-query.js';
import { usePolling } from '../../../lib/polling-context.js';
import { useQueueScope } from '../../../lib/queue-scope.js';
import { newlyMissedKey, toCallBack, type CallBackList } from '../utils/to-call-back.js';

export const CALL_BACK_WINDOW_MS = 24 * 3_600_000;
const JOURNAL_CATCH_UP_MS = 1000;

/** Stable, so the combined answer keeps its identity until an answer changes (TanStack runs it again when the function changes). */
const combineJournal = (results: readonly { data?: { missedCalls: MissedCall[] }; isError: boolean }[]) => {
  const loaded = results.filter((result) => result.data !== undefined);
  return {
    missed: loaded.flatMap((result) => result.data?.missedCalls ?? []),
    loaded: loaded.length,
    failed: results.some((result) => result.isError),
  };
};

export type CallBacks = { status: 'pending' } | { status: 'error' } | ({ status: 'ready'; partial: boolean } & CallBackList);

export const useToCallBack = (scopes: readonly ProviderScope[], liveCalls: readonly CallRecord[], shortAbandonSeconds: number): CallBacks => {
  const client = useApi();
  const queryClient = useQueryClient();
  const { paused } = usePolling();
  const queues = useQueueScope();
  const journal = useQueries({
    queries: scopes.map((scope) => missedCallsQueryOptions(client, scope, CALL_BACK_WINDOW_MS, shortAbandonSeconds, !paused, queues?.param)),
    combine: combineJournal,
  });

  const list = useMemo(() => toCallBack(journal.missed, liveCalls, shortAbandonSeconds * 1000), [journal.missed, liveCalls, shortAbandonSeconds]);

  // A caller the feed showed giving up, which the journal's answer does not hold yet: asked again once it does.
  const newlyMissed = useMemo(() => newlyMissedKey(journal.missed, liveCalls), [journal.missed, liveCalls]);
  useEffect(() => {
    if (newlyMissed === '' || paused) return;
    const timer = setTimeout(() => void queryClient.refetchQueries({ queryKey: serviceLevelKeys.missedLive(client.baseURL), type: 'active' }), JOURNAL_CATCH_UP_MS);
    return () => clearTimeout(timer);
  }, [newlyMissed, paused, queryClient, client.baseURL]);

  if (journal.loaded === 0) return journal.failed ? { status: 'error' } : { status: 'pending' };
  return { status: 'ready', partial: journal.loaded < scopes.length || journal.failed, ...list };
};
