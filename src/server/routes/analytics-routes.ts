/** Analytics from the call journal (our extension): bucketed concurrency and calls per subscriber. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  concurrencyQuerySchema,
  concurrencyResponseSchema,
  MAX_BUCKETS,
  subscriberActivityQuerySchema,
  subscriberActivityResponseSchema,
  type ConcurrencyResponse,
  type HistoryFill,
  type SubscriberActivityResponse,
} from '../../contract/analytics.js';
import { MAX_WINDOW_DAYS } from '../../contract/call-record.js';
import { tokenKey, type ConcurrencySlots } from '../auth/concurrency-slots.js';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import type { Clock } from '../clock.js';
import type { ConcurrencyBucketRow } from '../history/concurrency-query.js';
import type { HistoryStore } from '../history/history-store.js';
import type { ParameterDoc, RouteDoc } from '../http/route-catalog.js';
import { zodProblem } from '../http/zod-problem.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { QUEUE_ID_PARAMETER, resolveQueueSelection } from './queue-filter.js';
import { bucketSecondsOf, requireNonEmpty, resolveWindow } from './query-window.js';
import { requirePermission, resolveProvider } from './resolve-provider.js';

export interface AnalyticsRoutesOptions {
  registry: ProviderRuntimes;
  history: HistoryStore;
  /** Each token's heavy queries under way: every analytics answer is one. */
  heavyQueries: ConcurrencySlots;
  clock: Clock;
  /** How far each backfilled provider's past is filled, when the service backfills. */
  historyFill?: { report(scope: ProviderScope): HistoryFill | undefined };
}

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const iso = (ms: number) => new Date(ms).toISOString();

const toBucket = (row: ConcurrencyBucketRow) => ({
  start: iso(row.start),
  peak: row.peak,
  average: row.spanMs > 0 ? Math.round((row.busyMs / row.spanMs) * 100) / 100 : 0,
  peakInbound: row.peakInbound,
  peakOutbound: row.peakOutbound,
  started: row.started,
  missed: row.missed,
});

/** Checks shared by the analytics routes: permission, then visibility. */
export const prepareAnalytics = (request: ScopeRequest, registry: ProviderRuntimes) => {
  requirePermission(request.principal, 'calls:read');
  return resolveProvider(registry, request.principal, request.params);
};

export const windowParameters: ParameterDoc[] = ['fromDate', 'toDate'].map((name) => ({
  name,
  in: 'query',
  schema: { type: 'string', format: 'date-time' },
}));

const concurrencyDoc: RouteDoc = {
  operationId: 'getConcurrency',
  summary: 'Concurrent calls over a window, bucketed (extension)',
  description:
    'Computed in the database from the call journal. Each bucket gives the most calls live at once (in total and by ' +
    'direction), the time-weighted average, and the calls that started in it and how many of those were missed. A missing ' +
    '`toDate` means now and a missing `fromDate` 24 hours before `toDate`. Without `bucketSeconds` the smallest of 1, 2, 5, ' +
    `10, 15, 30 minutes, 1, 2, 3, 6, 12 or 24 hours that leaves at most ${MAX_BUCKETS} buckets is used; asking for more than ` +
    `${MAX_BUCKETS} buckets, or a window longer than ${MAX_WINDOW_DAYS} days, is a 400 naming the parameter. For a provider ` +
    'whose past the service backfilled (first seen with an empty journal), `historyFill` says how far that past is filled: ' +
    'newest first, complete from `filledFrom` to `to`; while `status` is `filling`, buckets before `filledFrom` may lack calls. ' +
    'Analytics are heavy queries, run apart from the live lists: each token may have a few running or waiting at once ' +
    '(`limits.heavyQueriesPerToken`, 16 by default); past that the answer is a 429 `too_many_heavy_queries` (`Retry-After: 1`).',
  parameters: [...windowParameters, { name: 'bucketSeconds', in: 'query', schema: { type: 'integer', minimum: 1 } }, QUEUE_ID_PARAMETER],
  responses: { '200': { description: 'The buckets, oldest first', json: concurrencyResponseSchema } },
  problems: ['forbidden', 'not_found', 'invalid_request', 'too_many_heavy_queries', 'service_busy'],
  otherMethods: () => 'Analytics are read-only.',
};

const subscriberActivityDoc: RouteDoc = {
  operationId: 'getSubscriberActivity',
  summary: 'Calls per subscriber over a window (extension)',
  description:
    'Calls that started in the window, per subscriber they reached, busiest first; same window rules, and the same limit on ' +
    'heavy queries, as the concurrency endpoint.',
  parameters: windowParameters,
  responses: { '200': { description: 'Subscribers, most calls first', json: subscriberActivityResponseSchema } },
  problems: ['forbidden', 'not_found', 'invalid_request', 'too_many_heavy_queries', 'service_busy'],
  otherMethods: () => 'Analytics are read-only.',
};

export const analyticsRoutes = async (app: FastifyInstance, { registry, history, heavyQueries, clock, historyFill }: AnalyticsRoutesOptions) => {
  app.get(routePatterns.concurrency, { config: { doc: concurrencyDoc } }, async (request: ScopeRequest): Promise<ConcurrencyResponse> => {
    const runtime = prepareAnalytics(request, registry);
    const query = concurrencyQuerySchema.safeParse(request.query);
    if (!query.success) throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
    const window = resolveWindow(query.data, clock.now());
    requireNonEmpty(window);
    const bucketSeconds = bucketSecondsOf(query.data.bucketSeconds, window);
    const queues = resolveQueueSelection(runtime, query.data.queueID, request.principal);
    // The first sync journals the calls live now, so a fresh start's answer includes them.
    await runtime.sync.ready();
    const rows = await heavyQueries.run(request.principal, () =>
      history.concurrency(runtime.scope, { ...window, bucketMs: bucketSeconds * 1000, now: clock.now(), ...(queues ? { queues } : {}) }, tokenKey(request.principal)),
    );
    const fill = historyFill?.report(runtime.scope);
    return { fromDate: iso(window.from), toDate: iso(window.to), bucketSeconds, buckets: rows.map(toBucket), ...(fill ? { historyFill: fill } : {}) };
  });

  app.get(routePatterns.subscriberActivity, { config: { doc: subscriberActivityDoc } }, async (request: ScopeRequest): Promise<SubscriberActivityResponse> => {
    const runtime = prepareAnalytics(request, registry);
    const query = subscriberActivityQuerySchema.safeParse(request.query);
    if (!query.success) throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
    const window = resolveWindow(query.data, clock.now());
    const queues = resolveQueueSelection(runtime, undefined, request.principal);
    await runtime.sync.ready();
    const rows = await heavyQueries.run(request.principal, () =>
      history.subscriberActivity(runtime.scope, window.from, window.to, clock.now(), tokenKey(request.principal), queues),
    );
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
