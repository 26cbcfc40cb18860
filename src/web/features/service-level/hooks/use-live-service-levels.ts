/**
 * Service level and its neighbours for the providers on screen, over the last 15 minutes and the day
 * so far (in the displayed zone), from the service's journal. Asked again a moment after the live
 * feed shows an inbound call answered or ended (once the journal holds it), at most every few
 * seconds, and every half minute anyway as the windows slide.
 */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { ServiceLevelTotalsResponse } from '../../../../contract/service-levels.js';
import { useApi } from '../../../lib/api/api-context.js';
import { liveServiceLevelsQueryOptions, serviceLevelKeys, type ServiceLevelDefinition } from '../../../lib/api/service-levels-query.js';
import { startOfDayIn } from '../../../../contract/time-zone.js';
import { perList } from '../../../lib/per-list.js';
import { usePolling } from '../../../lib/polling-context.js';
import { useQueueScope } from '../../../lib/queue-scope.js';
import { combineFigures, type TileFigures } from '../utils/combine-figures.js';

export const RECENT_MS = 15 * 60_000;
/** The journal holds a call the same sync the live feed shows it: a moment later, it answers with it. */
const JOURNAL_CATCH_UP_MS = 1000;
/** However busy the center, the figures are asked for at most this often. */
const MIN_GAP_MS = 5000;

export type LiveServiceLevels =
  | { status: 'pending' }
  | { status: 'error' }
  /** `partial` when some provider did not answer: the figures are then those of the others. */
  | { status: 'ready'; recent: TileFigures; today: TileFigures; partial: boolean };

/** Changes when an inbound call of the live feed is answered, ends, or leaves: what moves the figures. Once per update, for the tiles and the alerts. */
const inboundSignature = perList((calls: readonly CallRecord[]): string => {
  let answered = 0;
  let ended = 0;
  let latest = '';
  for (const call of calls) {
    if (call.isOutbound) continue;
    if (call.answeredAt !== undefined) answered += 1;
    if (call.endedAt !== undefined) {
      ended += 1;
      if (call.endedAt > latest) latest = call.endedAt;
    }
  }
  return `${answered}/${ended}/${latest}`;
});

const figuresOf = (results: readonly { data?: ServiceLevelTotalsResponse; isError: boolean }[]) => {
  const loaded = results.flatMap((result) => (result.data ? [result.data.totals] : []));
  return { figures: loaded.length === 0 ? undefined : combineFigures(loaded), partial: loaded.length < results.length };
};

export const useLiveServiceLevels = (
  scopes: readonly ProviderScope[],
  liveCalls: readonly CallRecord[],
  definition: ServiceLevelDefinition,
  timeZone: string,
  now: number,
): LiveServiceLevels => {
  const client = useApi();
  const queryClient = useQueryClient();
  const { paused } = usePolling();
  const queues = useQueueScope();
  const since = startOfDayIn(timeZone, now);
  const providers = scopes.length;
  // Stable while the providers are: TanStack runs a combine again whenever the function changes.
  const combine = useCallback(
    (results: readonly { data?: ServiceLevelTotalsResponse; isError: boolean }[]): LiveServiceLevels => {
      const recent = figuresOf(results.slice(0, providers));
      const today = figuresOf(results.slice(providers));
      if (!recent.figures || !today.figures) return results.some((result) => result.isError) ? { status: 'error' } : { status: 'pending' };
      return { status: 'ready', recent: recent.figures, today: today.figures, partial: recent.partial || today.partial };
    },
    [providers],
  );
  const combined = useQueries({
    queries: [
      ...scopes.map((scope) => liveServiceLevelsQueryOptions(client, scope, { lastMs: RECENT_MS }, definition, !paused, queues?.param)),
      ...scopes.map((scope) => liveServiceLevelsQueryOptions(client, scope, { since }, definition, !paused, queues?.param)),
    ],
    combine,
  });

  const signature = inboundSignature(liveCalls);
  const seen = useRef(signature);
  const lastAsked = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    // Asked once per change, at most every MIN_GAP_MS: a busy center changes every moment, and a timer
    // set again at each change would never fire.
    if (paused || seen.current === signature || pending.current !== undefined) return;
    seen.current = signature;
    const wait = Math.max(JOURNAL_CATCH_UP_MS, lastAsked.current + MIN_GAP_MS - Date.now());
    pending.current = setTimeout(() => {
      pending.current = undefined;
      lastAsked.current = Date.now();
      void queryClient.refetchQueries({ queryKey: serviceLevelKeys.live(client.baseURL), type: 'active' });
    }, wait);
  }, [signature, paused, queryClient, client.baseURL]);
  useEffect(() => () => clearTimeout(pending.current), []);

  return combined;
};
