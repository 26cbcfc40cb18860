/** The interval report (our extension): each queue's figures per interval of the day, with the parameters in force then. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import {
  INTERVAL_DEFINITIONS,
  intervalReportQuerySchema,
  intervalReportSchema,
  MAX_REPORT_DAYS,
  type IntervalMinutes,
} from '../../contract/reports.js';
import { tokenKey } from '../auth/concurrency-slots.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { zodProblem } from '../http/zod-problem.js';
import { prepareAnalytics, type AnalyticsRoutesOptions } from './analytics-routes.js';
import { QUEUE_ID_PARAMETER, resolveQueueSelection } from './queue-filter.js';
import { reportRangeOf } from './report-range.js';
import { intervalReportRequest } from '../reports/journal-reports.js';

export interface IntervalReportRouteOptions extends Omit<AnalyticsRoutesOptions, 'historyFill'> {
  /** The service's time zone: where intervals start on the hour and a calendar date begins. */
  timeZone: string;
}

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

/** Quarter hours unless asked: the finest of the three, the one staffing plans are made in. */
const DEFAULT_INTERVAL_MINUTES: IntervalMinutes = 15;

const definitions = Object.entries(INTERVAL_DEFINITIONS)
  .map(([name, text]) => `\`${name}\`: ${text}`)
  .join(' ');

const intervalReportDoc: RouteDoc = {
  operationId: 'getIntervalReport',
  summary: "Each queue's service level, waits, peak calls and staffing per interval (extension)",
  description:
    'One row per interval and queue, every interval of every selected queue (empty ones included), then the calls in no queue; ' +
    'without `queueID`, a queue no longer configured that was offered calls in the range is listed before them. The service-level ' +
    `figures keep their names and definitions from the service-levels endpoint. ${definitions} ` +
    "`fromDate` defaults to today's midnight and `toDate` to now; a calendar date (2026-03-29) is that day's midnight in the " +
    `service's time zone. At most ${MAX_REPORT_DAYS} days. Computed in a reader thread from the call journal, the journal of agent ` +
    'states and the history of queue parameters; a heavy query, under the same limit as the analytics.',
  parameters: [
    {
      name: 'fromDate',
      in: 'query',
      schema: { type: 'string' },
      description: 'An ISO 8601 date-time, or a calendar date: its midnight in the time zone.',
    },
    { name: 'toDate', in: 'query', schema: { type: 'string' }, description: 'As fromDate; the range ends before it.' },
    {
      name: 'intervalMinutes',
      in: 'query',
      description: `The length of an interval: 15, 30 or 60 (${DEFAULT_INTERVAL_MINUTES} by default).`,
      schema: { type: 'integer', enum: [15, 30, 60] },
    },
    QUEUE_ID_PARAMETER,
  ],
  responses: { '200': { description: 'The rows, by start and then by queue', json: intervalReportSchema } },
  problems: ['forbidden', 'not_found', 'invalid_request', 'too_many_heavy_queries', 'service_busy'],
  otherMethods: () => 'Reports are read-only.',
};

export const intervalReportRoute = async (
  app: FastifyInstance,
  { registry, history, heavyQueries, clock, timeZone }: IntervalReportRouteOptions,
) => {
  app.get(
    routePatterns.intervalReport,
    { config: { doc: intervalReportDoc } },
    async (request: ScopeRequest, reply: FastifyReply) => {
      const runtime = prepareAnalytics(request, registry);
      const query = intervalReportQuerySchema.safeParse(request.query);
      if (!query.success)
        throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
      const now = clock.now();
      const range = reportRangeOf(query.data, timeZone, now);
      const queues = resolveQueueSelection(runtime, query.data.queueID, request.principal);
      // The first sync journals the calls live now, so a fresh start's answer includes them.
      await runtime.sync.ready();
      const body = await heavyQueries.run(request.principal, () =>
        history.intervalReport(
          runtime.scope,
          intervalReportRequest(runtime, {
            ...range,
            now,
            intervalMinutes: Number(query.data.intervalMinutes ?? DEFAULT_INTERVAL_MINUTES) as IntervalMinutes,
            timeZone,
            queues,
          }),
          tokenKey(request.principal),
        ),
      );
      return reply.type('application/json; charset=utf-8').send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    },
  );
};
