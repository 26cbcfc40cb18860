/** The agents report (our extension): how each agent spent a range, from the journal of agent states and the calls. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import {
  AGENT_TIME_DEFINITIONS,
  agentReportQuerySchema,
  agentReportSchema,
  MAX_REPORT_DAYS,
  type AgentReport,
} from '../../contract/reports.js';
import { tokenKey } from '../auth/concurrency-slots.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { zodProblem } from '../http/zod-problem.js';
import { prepareAnalytics, type AnalyticsRoutesOptions } from './analytics-routes.js';
import { QUEUE_ID_PARAMETER, resolveQueueSelection } from './queue-filter.js';
import { reportRangeOf } from './report-range.js';
import { agentReportOf } from '../reports/journal-reports.js';

export interface AgentReportRouteOptions extends Omit<AnalyticsRoutesOptions, 'historyFill'> {
  /** The service's time zone: a calendar date in the query is its midnight there. */
  timeZone: string;
}

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const definitions = Object.entries(AGENT_TIME_DEFINITIONS)
  .map(([name, text]) => `\`${name}\`: ${text}`)
  .join(' ');

const agentReportDoc: RouteDoc = {
  operationId: 'getAgentReport',
  summary: 'How each agent spent a range: time per state, calls answered, missed and placed, talk time, occupancy (extension)',
  description:
    'Every agent with a state or a call in the range, by last name, first name and subscriber ID; their names as last known. ' +
    `${definitions} The range is counted up to toDate or now, whichever is earlier: the answer's \`toDate\` says which. ` +
    `\`fromDate\` defaults to today's midnight and \`toDate\` to now; a calendar date is midnight in the service's time zone (\`timeZone\` in its config). ` +
    `At most ${MAX_REPORT_DAYS} days; the same limit on heavy queries as the analytics.`,
  parameters: [
    {
      name: 'fromDate',
      in: 'query',
      schema: { type: 'string' },
      description: "An ISO 8601 date-time, or a calendar date (its midnight in the service's time zone).",
    },
    {
      name: 'toDate',
      in: 'query',
      schema: { type: 'string' },
      description: "An ISO 8601 date-time, or a calendar date (its midnight in the service's time zone).",
    },
    {
      ...QUEUE_ID_PARAMETER,
      description:
        'Extension: only the agents who are members of this queue, or of several (comma-separated), as the queues are configured now; ' +
        "`none` for the agents in no queue. A queue the provider's config does not have is a 404 naming it.",
    },
  ],
  responses: { '200': { description: "Each agent's time and calls in the range", json: agentReportSchema } },
  problems: ['forbidden', 'not_found', 'invalid_request', 'too_many_heavy_queries', 'service_busy'],
  otherMethods: () => 'Reports are read-only.',
};

export const agentReportRoute = async (
  app: FastifyInstance,
  { registry, history, heavyQueries, clock, timeZone }: AgentReportRouteOptions,
) => {
  app.get(routePatterns.agentReport, { config: { doc: agentReportDoc } }, async (request: ScopeRequest): Promise<AgentReport> => {
    const runtime = prepareAnalytics(request, registry);
    const query = agentReportQuerySchema.safeParse(request.query);
    if (!query.success)
      throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
    const now = clock.now();
    const range = reportRangeOf(query.data, timeZone, now);
    const selection = resolveQueueSelection(runtime, query.data.queueID, request.principal);
    // The first sync journals the calls live now, so a fresh start's answer includes them.
    await runtime.sync.ready();
    const rows = await heavyQueries.run(request.principal, () =>
      history.agentTimeRolled(runtime.scope, { ...range, now }, tokenKey(request.principal)),
    );
    return agentReportOf(runtime, rows, range, now, selection);
  });
};
