/** Service level, speed of answer, abandonment and talk time over a window, and the missed callers to call back (our extension). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_BUCKETS } from '../../contract/analytics.js';
import { MAX_WINDOW_DAYS } from '../../contract/call-record.js';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import {
  DEFAULT_ANSWER_WITHIN_SECONDS,
  DEFAULT_SHORT_ABANDON_SECONDS,
  MAX_MISSED_CALLS,
  missedCallsQuerySchema,
  missedCallsResponseSchema,
  SERVICE_LEVEL_DEFINITIONS,
  serviceLevelsQuerySchema,
  serviceLevelsAnswerSchema,
  type MissedCall,
  type QueueServiceLevel,
  type MissedCallsResponse,
  type ServiceLevelsAnswer,
} from '../../contract/service-levels.js';
import { tokenKey } from '../auth/concurrency-slots.js';
import type { MissedCallRow } from '../history/missed-calls-query.js';
import { addSums, emptySums, figuresOf } from '../history/service-level-figures.js';
import type { QueueServiceLevelRows, ServiceLevelSums } from '../history/service-level-query.js';
import type { ProviderRuntime } from '../runtime/provider-runtimes.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { zodProblem } from '../http/zod-problem.js';
import { prepareAnalytics, windowParameters, type AnalyticsRoutesOptions } from './analytics-routes.js';
import { bucketSecondsOf, requireNonEmpty, resolveWindow } from './query-window.js';
import { QUEUE_ID_PARAMETER, resolveQueueSelection, singleQueue } from './queue-filter.js';
import { queueParametersMs, UNQUEUED_PARAMETERS_MS } from '../queues/queue-config.js';
import type { QueueSelection } from '../queues/queue-selection.js';

/** The same collaborators as the other analytics answers. */
export type ServiceLevelRoutesOptions = AnalyticsRoutesOptions;

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR_MS = 3_600_000;

const definitions = Object.entries(SERVICE_LEVEL_DEFINITIONS)
  .map(([name, text]) => `\`${name}\`: ${text}`)
  .join(' ');

const secondsParameter = (name: string, min: number, max: number, fallback: number, description: string) => ({
  name,
  in: 'query' as const,
  description: `${description} (${min} to ${max}; ${fallback} by default).`,
  schema: { type: 'integer', minimum: min, maximum: max },
});

const serviceLevelsDoc: RouteDoc = {
  operationId: 'getServiceLevels',
  summary: 'Service level, speed of answer, abandonment and talk time over a window (extension)',
  description:
    'Computed in the database from the call journal, for the window as a whole (`totals`), per bucket of start time, and per ' +
    'subscriber (an inbound call counts for the subscriber it rang or reached, an outbound one for whoever placed it). ' +
    `Inbound is \`isOutbound\` false. ${definitions} Same window rules as the concurrency endpoint: a missing \`toDate\` means now, ` +
    `a missing \`fromDate\` 24 hours before it, at most ${MAX_WINDOW_DAYS} days and ${MAX_BUCKETS} buckets; the same limit on heavy queries.`,
  parameters: [
    ...windowParameters,
    { name: 'bucketSeconds', in: 'query', schema: { type: 'integer', minimum: 1 } },
    secondsParameter('answerWithinSeconds', 1, 600, DEFAULT_ANSWER_WITHIN_SECONDS, 'A call answered within this many seconds of its start meets the service level'),
    secondsParameter('shortAbandonSeconds', 0, 60, DEFAULT_SHORT_ABANDON_SECONDS, 'A caller who gives up sooner than this is a short abandon, left out of service level and abandon rate'),
    {
      name: 'subscribers',
      in: 'query',
      description:
        '`omit` leaves out the per-subscriber figures (the response has no `subscribers`): a live view that shows only the totals ' +
        'need not read a row for each of a large center\'s agents. `include` by default.',
      schema: { type: 'string', enum: ['include', 'omit'] },
    },
    { ...QUEUE_ID_PARAMETER, description: `${QUEUE_ID_PARAMETER.description} With one queue, its own answerWithinSeconds and shortAbandonSeconds are the defaults.` },
    {
      name: 'groupBy',
      in: 'query',
      description:
        '`queue` adds `queues`: the same figures per queue, totals and buckets, each queue with its own answerWithinSeconds and ' +
        'shortAbandonSeconds (the calls in no queue with the defaults), counted in the same heavy query.',
      schema: { type: 'string', enum: ['queue'] },
    },
  ],
  responses: { '200': { description: 'The figures, for the window, per bucket (oldest first) and per subscriber (most offered first, unless omitted)', json: serviceLevelsAnswerSchema } },
  problems: ['forbidden', 'not_found', 'invalid_request', 'too_many_heavy_queries', 'service_busy'],
  otherMethods: () => 'Analytics are read-only.',
};

const missedCallsDoc: RouteDoc = {
  operationId: 'getMissedCalls',
  summary: 'The callers who gave up, and whether they were called back (extension)',
  description:
    `The abandoned calls of the window (${SERVICE_LEVEL_DEFINITIONS.abandoned.toLowerCase()} Short abandons are left out), newest first, at most ` +
    `${MAX_MISSED_CALLS} (\`totalMissedCalls\` counts them all). For each: \`calledBackAt\` and \`callbackCallID\`, the first outbound call to ` +
    'the same number after it ended, placed by anyone; `attempts`, the outbound calls to the number since; `reachedAt`, when the caller ' +
    'was reached: the first answered call with that number after it began, a callback or the caller ringing again. ' +
    '`calledBackWithinHour`: the share of the listed calls called back within 60 minutes of their end. A withheld number is never matched. ' +
    'Same window rules and heavy-query limit as the other analytics.',
  parameters: [
    ...windowParameters,
    secondsParameter('shortAbandonSeconds', 0, 60, DEFAULT_SHORT_ABANDON_SECONDS, 'Callers who gave up sooner than this are left out'),
    { ...QUEUE_ID_PARAMETER, description: `${QUEUE_ID_PARAMETER.description} With one queue, its own shortAbandonSeconds is the default.` },
  ],
  responses: { '200': { description: 'The missed calls, newest first', json: missedCallsResponseSchema } },
  problems: ['forbidden', 'not_found', 'invalid_request', 'too_many_heavy_queries', 'service_busy'],
  otherMethods: () => 'Analytics are read-only.',
};

const toMissedCall = (row: MissedCallRow): MissedCall => {
  const { startedAt, endedAt, calledBackAt, reachedAt, ...rest } = row;
  return {
    ...rest,
    startedAt: iso(startedAt),
    endedAt: iso(endedAt),
    ...(calledBackAt === undefined ? {} : { calledBackAt: iso(calledBackAt) }),
    ...(reachedAt === undefined ? {} : { reachedAt: iso(reachedAt) }),
  };
};

/** Each configured queue's figures in the config's order (with none, zeros), then the calls in no queue and any queue no longer configured. */
const queueFigures = (
  runtime: ProviderRuntime,
  rows: QueueServiceLevelRows,
  window: { from: number; to: number },
  bucketSeconds: number,
  selection: QueueSelection | undefined,
): QueueServiceLevel[] => {
  const bucketCount = Math.ceil((window.to - window.from) / (bucketSeconds * 1000));
  const configured = runtime.queueDirectory.queues;
  const others = [...new Set(rows.map((row) => row.queueID))].filter((id) => id === null || !configured.some((q) => q.id === id));
  const entries = [
    ...configured.map((q) => ({ queueID: q.id as string | null, name: q.name, aw: q.answerWithinSeconds, sa: q.shortAbandonSeconds, target: q.serviceLevelTarget as number | null })),
    ...others.map((id) => ({ queueID: id, name: id ?? 'No queue', aw: DEFAULT_ANSWER_WITHIN_SECONDS, sa: DEFAULT_SHORT_ABANDON_SECONDS, target: null })),
  ];
  // `queueID=` narrows the groups as it narrows the totals: the named queues, and the calls in no queue with `none`.
  const wanted = selection ? entries.filter(({ queueID }) => (queueID === null ? selection.none : selection.ids.includes(queueID))) : entries;
  return wanted.map(({ queueID, name, aw, sa, target }) => {
    const mine = rows.filter((row) => row.queueID === queueID);
    const byIndex = new Map(mine.map((row) => [row.index, row]));
    return {
      queueID,
      name,
      answerWithinSeconds: aw,
      shortAbandonSeconds: sa,
      serviceLevelTarget: target,
      totals: figuresOf(mine.reduce<ServiceLevelSums>((sum, row) => addSums(sum, row), emptySums())),
      buckets: Array.from({ length: bucketCount }, (_, index) => ({ start: iso(window.from + index * bucketSeconds * 1000), ...figuresOf(byIndex.get(index) ?? emptySums()) })),
    };
  });
};

export const serviceLevelRoutes = async (app: FastifyInstance, { registry, history, heavyQueries, clock, historyFill }: ServiceLevelRoutesOptions) => {
  app.get(routePatterns.serviceLevels, { config: { doc: serviceLevelsDoc } }, async (request: ScopeRequest): Promise<ServiceLevelsAnswer> => {
    const runtime = prepareAnalytics(request, registry);
    const query = serviceLevelsQuerySchema.safeParse(request.query);
    if (!query.success) throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
    const window = resolveWindow(query.data, clock.now());
    requireNonEmpty(window);
    const bucketSeconds = bucketSecondsOf(query.data.bucketSeconds, window);
    const queues = resolveQueueSelection(runtime, query.data.queueID, request.principal);
    // One queue's figures are taken with its own parameters, unless the query sets them.
    const queue = singleQueue(runtime, queues);
    const answerWithinSeconds = Number(query.data.answerWithinSeconds ?? queue?.answerWithinSeconds ?? DEFAULT_ANSWER_WITHIN_SECONDS);
    const shortAbandonSeconds = Number(query.data.shortAbandonSeconds ?? queue?.shortAbandonSeconds ?? DEFAULT_SHORT_ABANDON_SECONDS);
    const withSubscribers = query.data.subscribers !== 'omit';
    // The first sync journals the calls live now, so a fresh start's answer includes them.
    await runtime.sync.ready();
    const lane = tokenKey(request.principal);
    // The figures and, with `groupBy=queue`, the same figures per queue: one heavy query of the token's, its two reads side by side.
    const [rows, byQueue] = await heavyQueries.run(request.principal, () =>
      Promise.all([
        history.serviceLevels(
          runtime.scope,
          {
            ...window,
            bucketMs: bucketSeconds * 1000,
            answerWithinMs: answerWithinSeconds * 1000,
            shortAbandonMs: shortAbandonSeconds * 1000,
            subscribers: withSubscribers,
            ...(queues ? { queues } : {}),
          },
          lane,
        ),
        query.data.groupBy === 'queue'
          ? history.serviceLevelsByQueue(
              runtime.scope,
              {
                ...window,
                bucketMs: bucketSeconds * 1000,
                ...UNQUEUED_PARAMETERS_MS,
                queues: runtime.queueDirectory.queues.map(queueParametersMs),
              },
              lane,
            )
          : undefined,
      ]),
    );
    const byIndex = new Map(rows.buckets.map((bucket) => [bucket.index, bucket]));
    const bucketCount = Math.ceil((window.to - window.from) / (bucketSeconds * 1000));
    const buckets = Array.from({ length: bucketCount }, (_, index) => ({
      start: iso(window.from + index * bucketSeconds * 1000),
      ...figuresOf(byIndex.get(index) ?? emptySums()),
    }));
    const subscribers = [...rows.subscribers]
      .sort((a, b) => b.offered - a.offered || b.outboundPlaced - a.outboundPlaced || (a.subscriberID < b.subscriberID ? -1 : 1))
      .map(({ subscriberID, firstName, lastName, extension, ...sums }) => ({
        subscriberID,
        ...(firstName === undefined ? {} : { firstName }),
        ...(lastName === undefined ? {} : { lastName }),
        ...(extension === undefined ? {} : { extension }),
        ...figuresOf({ ...emptySums(), ...sums }),
      }));
    const fill = historyFill?.report(runtime.scope);
    return {
      ...(byQueue ? { queues: queueFigures(runtime, byQueue, window, bucketSeconds, queues) } : {}),
      fromDate: iso(window.from),
      toDate: iso(window.to),
      bucketSeconds,
      answerWithinSeconds,
      shortAbandonSeconds,
      totals: figuresOf(rows.buckets.reduce(addSums, emptySums())),
      buckets,
      ...(withSubscribers ? { subscribers } : {}),
      ...(fill ? { historyFill: fill } : {}),
    };
  });

  app.get(routePatterns.missedCalls, { config: { doc: missedCallsDoc } }, async (request: ScopeRequest): Promise<MissedCallsResponse> => {
    const runtime = prepareAnalytics(request, registry);
    const query = missedCallsQuerySchema.safeParse(request.query);
    if (!query.success) throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
    const window = resolveWindow(query.data, clock.now());
    const queues = resolveQueueSelection(runtime, query.data.queueID, request.principal);
    const shortAbandonSeconds = Number(query.data.shortAbandonSeconds ?? singleQueue(runtime, queues)?.shortAbandonSeconds ?? DEFAULT_SHORT_ABANDON_SECONDS);
    await runtime.sync.ready();
    const found = await heavyQueries.run(request.principal, () =>
      history.missedCalls(
        runtime.scope,
        { ...window, shortAbandonMs: shortAbandonSeconds * 1000, limit: MAX_MISSED_CALLS, ...(queues ? { queues } : {}) },
        tokenKey(request.principal),
      ),
    );
    const calledBack = found.rows.filter((row) => row.calledBackAt !== undefined && row.calledBackAt - row.endedAt <= HOUR_MS).length;
    return {
      fromDate: iso(window.from),
      toDate: iso(window.to),
      shortAbandonSeconds,
      missedCalls: found.rows.map(toMissedCall),
      totalMissedCalls: found.total,
      calledBackWithinHour: found.rows.length === 0 ? null : Math.round((calledBack / found.rows.length) * 1000) / 1000,
    };
  });
};
