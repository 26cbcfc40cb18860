/** Polling the list of calls: conditional GETs, rows shared by callID, back-off on 429 / 503. */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { callRecordSchema, listCallsResponseSchema, type CallRecord } from '../../../contract/call-record.js';
import { paths, SNAPSHOT_AGE_HEADER, type ProviderScope } from '../../../contract/paths.js';
import type { Problem } from '../../../contract/problem.js';
import type { ApiClient } from './api-client.js';
import { markCallsReceived } from '../perf-marks.js';
import { ApiError } from './api-error.js';
import { providerKey } from './query-keys.js';

export interface CallsData {
  calls: CallRecord[];
  etag?: string;
  /** How old the service's snapshot was when it answered. */
  snapshotAgeMs: number;
  /** When this browser received the answer (epoch ms). */
  receivedAt: number;
  /** The provider's health as the change stream last told it; absent while polling, where errors say it. */
  health?: ProviderHealth;
}

export interface ProviderHealth {
  /** False once the service's copy is too old to serve: the calls shown are no longer current. */
  available: boolean;
  /** Why the provider is failing, as the list would answer it. */
  problem?: Problem;
  /** Age of the service's last good snapshot when it told. */
  snapshotAgeMs?: number;
  /** What works less well while calls still arrive (the provider's event socket is down: its calls are polled). */
  degraded?: string;
  toldAt: number;
}

export const DEFAULT_POLL_MS = 2000;
const MAX_BACKOFF_MS = 30_000;

/** The list of calls: its live poll, and the window queries (`fromDate`) kept apart so a refetch of one leaves the other. */
export const callKeys = {
  all: ['calls'] as const,
  live: (baseURL: string, scope: ProviderScope) => [...callKeys.all, 'live', ...providerKey(baseURL, scope)] as const,
  /** Every provider's missed-calls window on one service. */
  recentMissedAll: (baseURL: string) => [...callKeys.all, 'recent-missed', baseURL] as const,
  recentMissed: (baseURL: string, scope: ProviderScope, windowMs: number) =>
    [...callKeys.all, 'recent-missed', ...providerKey(baseURL, scope), windowMs] as const,
  /** The calls of a day so far, from its start (epoch ms). */
  since: (baseURL: string, scope: ProviderScope, from: number) => [...callKeys.all, 'since', ...providerKey(baseURL, scope), from] as const,
};

/** Age of the data on screen: the snapshot's age at receipt plus the time since. */
export const dataAgeMs = (data: Pick<CallsData, 'snapshotAgeMs' | 'receivedAt'>, now: number): number =>
  data.snapshotAgeMs + Math.max(0, now - data.receivedAt);

const sameCall = (a: CallRecord, b: Record<string, unknown>): boolean => {
  for (const key in b) if (a[key as keyof CallRecord] !== b[key]) return false;
  return Object.keys(a).length === Object.keys(b).length;
};

const isCallsData = (value: unknown): value is CallsData =>
  typeof value === 'object' && value !== null && Array.isArray((value as CallsData).calls);

/**
 * Lists built from the previous one that already keep every unchanged call's object (a change
 * from the stream applied to the list, a poll's records checked against the list before): sharing
 * them again would only walk 10,000 calls for nothing.
 */
const sharedLists = new WeakSet<readonly CallRecord[]>();

export const keepsUnchangedCalls = <T extends readonly CallRecord[]>(calls: T): T => {
  sharedLists.add(calls);
  return calls;
};

/** The list with its records left unchecked: they are checked one by one below. */
const listEnvelopeSchema = listCallsResponseSchema.extend({ calls: z.array(z.unknown()) });

/**
 * Parses the records at the boundary, but only those that changed: a record equal to one
 * already checked on the previous poll keeps that object (which also keeps its row from
 * re-rendering), and a list equal to the previous one is that very array. At 10,000 calls with a
 * few percent changing, this is most of a poll's cost saved. The result shares its calls already:
 * the cache's structural sharing (`shareCallsByID`) leaves it as it is.
 */
export const parseChangedCalls = (raw: unknown[], previous: CallRecord[] | undefined): CallRecord[] => {
  const known = new Map((previous ?? []).map((call) => [call.callID, call]));
  let unchanged = previous?.length === raw.length;
  const calls = raw.map((value, index) => {
    const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const before = typeof record.callID === 'string' ? known.get(record.callID) : undefined;
    if (before && sameCall(before, record)) {
      if (previous?.[index] !== before) unchanged = false;
      return before;
    }
    unchanged = false;
    const parsed = callRecordSchema.safeParse(value);
    if (!parsed.success)
      throw new ApiError(
        'invalid_response',
        `Call ${index + 1} of the list does not match the API: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}.`,
      );
    return parsed.data;
  });
  return keepsUnchangedCalls(unchanged && previous ? previous : calls);
};

/**
 * Structural sharing by callID: an unchanged call keeps its object, so its row does not
 * re-render; an unchanged list keeps its array. (React Query's default matches by position.)
 */
export const shareCallsByID = (previous: unknown, next: unknown): unknown => {
  if (!isCallsData(previous) || !isCallsData(next) || sharedLists.has(next.calls)) return next;
  const byID = new Map(previous.calls.map((call) => [call.callID, call]));
  let unchanged = previous.calls.length === next.calls.length;
  const calls = next.calls.map((call, index) => {
    const before = byID.get(call.callID);
    if (before && (before === call || sameCall(before, call))) {
      if (previous.calls[index] !== before) unchanged = false;
      return before;
    }
    unchanged = false;
    return call;
  });
  return { ...next, calls: unchanged ? previous.calls : calls };
};

/** The next poll: the interval, or longer after 429 / 503 (Retry-After when given, else doubling). */
export const nextPollDelay = (error: unknown, failures: number, intervalMs: number): number => {
  if (!(error instanceof ApiError)) return intervalMs;
  if (error.retryAfterMs !== undefined) return Math.max(intervalMs, error.retryAfterMs);
  if (failures === 0) return intervalMs;
  return Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** Math.min(failures, 5));
};

export interface CallsPolling {
  intervalMs: number;
  /** Keep polling while the tab is hidden (the wallboard does). */
  inBackground: boolean;
  enabled: boolean;
}

export const callsQueryOptions = (client: ApiClient, scope: ProviderScope, polling: CallsPolling) =>
  queryOptions({
    queryKey: callKeys.live(client.baseURL, scope),
    queryFn: async ({ signal, client: queryClient, queryKey }): Promise<CallsData> => {
      // The copy on screen: its ETag makes the request conditional, its records spare re-checking.
      const before = queryClient.getQueryData<CallsData>(queryKey);
      const result = await client.getConditional(
        paths.listCalls(scope),
        listEnvelopeSchema,
        before?.etag,
        signal,
        markCallsReceived,
      );
      const snapshotAgeMs = Number(result.headers.get(SNAPSHOT_AGE_HEADER) ?? 0) || 0;
      const receivedAt = Date.now();
      // A poll answers for the provider's health itself: what the stream last told no longer holds.
      if (result.notModified && before) return { ...before, snapshotAgeMs, receivedAt, health: undefined };
      if (result.notModified) throw new ApiError('invalid_response', 'The service answered 304 to a first request.');
      return { calls: parseChangedCalls(result.data.calls, before?.calls), etag: result.etag, snapshotAgeMs, receivedAt };
    },
    structuralSharing: shareCallsByID,
    enabled: polling.enabled,
    retry: false,
    refetchOnWindowFocus: 'always',
    refetchIntervalInBackground: polling.inBackground,
    refetchInterval: (query) =>
      polling.enabled ? nextPollDelay(query.state.error, query.state.fetchFailureCount, polling.intervalMs) : false,
  });
