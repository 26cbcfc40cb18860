/** Analytics from the call journal (our extension): bucketed concurrency and calls per subscriber. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  bucketSecondsFor,
  concurrencyQuerySchema,
  MAX_BUCKETS,
  subscriberActivityQuerySchema,
  type ConcurrencyResponse,
  type HistoryFill,
  type SubscriberActivityResponse,
} from '../../contract/analytics.js';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import type { Clock } from '../clock.js';
import type { ConcurrencyBucketRow } from '../history/concurrency-query.js';
import type { HistoryStore } from '../history/history-store.js';
import { ApiProblem } from '../http/api-problem.js';
import { zodProblem } from '../http/zod-problem.js';
import type { ProviderRegistry } from '../providers/provider-registry.js';
import { resolveWindow, type QueryWindow } from './query-window.js';
import { requirePermission, resolveProvider } from './resolve-provider.js';

export interface AnalyticsRoutesOptions {
  registry: ProviderRegistry;
  history: HistoryStore;
  clock: Clock;
  /** How far each backfilled provider's past is filled, when the service backfills. */
  historyFill?: { report(scope: ProviderScope): HistoryFill | undefined };
}

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const iso = (ms: number) => new Date(ms).toISOString();

const bucketSecondsOf = (asked: string | undefined, window: QueryWindow): number => {
  const seconds = asked === undefined ? bucketSecondsFor(window.to - window.from) : Number(asked);
  if (Math.ceil((window.to - window.from) / (seconds * 1000)) > MAX_BUCKETS)
    throw new ApiProblem('invalid_request', `bucketSeconds (${seconds}) would cut this window into more than ${MAX_BUCKETS} buckets.`, {
      errors: [{ field: 'bucketSeconds', message: `must leave at most ${MAX_BUCKETS} buckets in the window` }],
    });
  return seconds;
};

const toBucket = (row: ConcurrencyBucketRow) => ({
  start: iso(row.start),
  peak: row.peak,
  average: row.spanMs > 0 ? Math.round((row.busyMs / row.spanMs) * 100) / 100 : 0,
  peakInbound: row.peakInbound,
  peakOutbound: row.peakOutbound,
  started: row.started,
  missed: row.missed,
});

/** Checks shared by both routes: permission, visibility, then the query. */
const prepare = (request: ScopeRequest, registry: ProviderRegistry) => {
  requirePermission(request.principal, 'calls:read');
  return resolveProvider(registry, request.principal, request.params);
};

export const analyticsRoutes = async (app: FastifyInstance, { registry, history, clock, historyFill }: AnalyticsRoutesOptions) => {
  app.get(routePatterns.concurrency, async (request: ScopeRequest): Promise<ConcurrencyResponse> => {
    const runtime = prepare(request, registry);
    const query = concurrencyQuerySchema.safeParse(request.query);
    if (!query.success) throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
    const window = resolveWindow(query.data, clock.now());
    if (window.from === window.to)
      throw new ApiProblem('invalid_request', 'fromDate equals toDate: the window is empty.', {
        errors: [{ field: 'fromDate', message: 'must be before toDate' }],
      });
    const bucketSeconds = bucketSecondsOf(query.data.bucketSeconds, window);
    // The first sync journals the calls live now, so a fresh start's answer includes them.
    await runtime.sync.ready();
    const rows = await history.concurrency(runtime.scope, { ...window, bucketMs: bucketSeconds * 1000, now: clock.now() });
    const fill = historyFill?.report(runtime.scope);
    return { fromDate: iso(window.from), toDate: iso(window.to), bucketSeconds, buckets: rows.map(toBucket), ...(fill ? { historyFill: fill } : {}) };
  });

  app.get(routePatterns.subscriberActivity, async (request: ScopeRequest): Promise<SubscriberActivityResponse> => {
    const runtime = prepare(request, registry);
    const query = subscriberActivityQuerySchema.safeParse(request.query);
    if (!query.success) throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
    const window = resolveWindow(query.data, clock.now());
    await runtime.sync.ready();
    const rows = await history.subscriberActivity(runtime.scope, window.from, window.to, clock.now());
    const subscribers = rows.map(({ subscriberID, firstName, lastName, extension, calls, outbound, missed, talkMs }) => ({
      subscriberID,
      ...(firstName === undefined ? {} : { firstName }),
      ...(lastName === undefined ? {} : { lastName }),
      ...(extension === undefined ? {} : { extension }),
      calls,
      inbound: calls - outbound,
      outbound,
      missed,
      talkSeconds: Math.round(talkMs / 1000),
    }));
    return { fromDate: iso(window.from), toDate: iso(window.to), subscribers };
  });
};
