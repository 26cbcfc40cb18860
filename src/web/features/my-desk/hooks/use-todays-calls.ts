/**
 * An agent's calls of the day: the day's window queries, brought up to date with the live feed at
 * each of its changes (a call that rings now shows at once; one that ends keeps its row).
 */
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { useApi } from '../../../lib/api/api-context.js';
import { byStart } from '../../../lib/api/apply-call-changes.js';
import { identityOfLists } from '../../../lib/api/list-identity.js';
import { callTimes } from '../../../lib/call-times.js';
import { usePolling } from '../../../lib/polling-context.js';
import { todaysCallsQueryOptions } from '../api/todays-calls-query.js';

interface TodaysCalls {
  /** Until the first answer of the day's calls (or its failure). */
  loading: boolean;
  /** Oldest start first, as every list of calls here. */
  calls: CallRecord[];
  /** Some provider's earlier calls could not be read: the list may miss some. */
  partial: boolean;
}

/** Stable, so the combined answer keeps its identity until an answer changes. */
const combineDay = (results: readonly { data?: CallRecord[]; isError: boolean; isPending: boolean }[]) => ({
  lists: results.map((result) => result.data),
  settled: results.every((result) => !result.isPending || result.isError),
  failed: results.some((result) => result.isError),
});

/** The calls that started since the day began, and those live now; where both hold a call, the live feed's is the newer. */
const callsOfDay = (lists: readonly (readonly CallRecord[] | undefined)[], live: readonly CallRecord[], dayStart: number): CallRecord[] => {
  const byID = new Map<string, CallRecord>();
  for (const list of lists) for (const call of list ?? []) byID.set(call.callID, call);
  for (const call of live) byID.set(call.callID, call);
  return [...byID.values()].filter((call) => call.endedAt === undefined || callTimes(call).startedAt >= dayStart).sort(byStart);
};

/** `dayStart` undefined: not known yet, nothing asked. */
export const useTodaysCalls = (scopes: readonly ProviderScope[], live: readonly CallRecord[], dayStart: number | undefined): TodaysCalls => {
  const client = useApi();
  const { paused } = usePolling();
  const day = useQueries({
    queries: scopes.map((scope) => todaysCallsQueryOptions(client, scope, dayStart ?? 0, dayStart !== undefined && !paused)),
    combine: combineDay,
  });
  const { lists } = day;
  const listsIdentity = identityOfLists(lists);
  // The lists say what the merge depends on; their identity string changes exactly when one does.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const calls = useMemo(() => (dayStart === undefined ? [] : callsOfDay(lists, live, dayStart)), [listsIdentity, live, dayStart]);
  return { loading: dayStart === undefined || !day.settled, calls, partial: day.failed };
};
