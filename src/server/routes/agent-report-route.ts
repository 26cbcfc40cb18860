/** The agents report (our extension): how each agent spent a range, from the journal of agent states and the calls. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseQueryDate } from '../../contract/call-record.js';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import {
  AGENT_TIME_DEFINITIONS,
  agentReportQuerySchema,
  agentReportSchema,
  MAX_REPORT_DAYS,
  type AgentReport,
  type AgentTime,
} from '../../contract/reports.js';
import { startOfDayIn } from '../../contract/time-zone.js';
import { tokenKey } from '../auth/concurrency-slots.js';
import type { AgentTimeRow } from '../history/agent-time-query.js';
import { ApiProblem } from '../http/api-problem.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { zodProblem } from '../http/zod-problem.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import type { ProviderRuntime } from '../runtime/provider-runtimes.js';
import { prepareAnalytics, type AnalyticsRoutesOptions } from './analytics-routes.js';
import { QUEUE_ID_PARAMETER, resolveQueueSelection } from './queue-filter.js';

export interface AgentReportRouteOptions extends Omit<AnalyticsRoutesOptions, 'historyFill'> {
  /** The service's time zone: a calendar date in the query is its midnight there. */
  timeZone: string;
}

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

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
    { name: 'fromDate', in: 'query', schema: { type: 'string' }, description: 'An ISO 8601 date-time, or a calendar date (its midnight in the service\'s time zone).' },
    { name: 'toDate', in: 'query', schema: { type: 'string' }, description: 'An ISO 8601 date-time, or a calendar date (its midnight in the service\'s time zone).' },
    {
      ...QUEUE_ID_PARAMETER,
      description:
        'Extension: only the agents who are members of this queue, or of several (comma-separated), as the queues are configured now; ' +
        '`none` for the agents in no queue. A queue the provider\'s config does not have is a 404 naming it.',
    },
  ],
  responses: { '200': { description: 'Each agent\'s time and calls in the range', json: agentReportSchema } },
  problems: ['forbidden', 'not_found', 'invalid_request', 'too_many_heavy_queries', 'service_busy'],
  otherMethods: () => 'Reports are read-only.',
};

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The calendar date of `at` in `zone`, as YYYY-MM-DD. */
const dateIn = (zone: string, at: number): string => {
  let format = dayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(zone, format);
  }
  return format.format(new Date(at));
};

/** Midnight of a calendar date in `zone`: the start of the day that holds the date's noon there (its UTC noon is within a day of it). */
const midnightIn = (zone: string, date: string): number => {
  const noonUTC = Date.parse(`${date}T12:00:00Z`);
  for (const shift of [0, -HOUR_MS * 12, HOUR_MS * 12]) {
    const start = startOfDayIn(zone, noonUTC + shift);
    if (dateIn(zone, start) === date) return start;
  }
  return startOfDayIn(zone, noonUTC);
};

const dateOf = (text: string, zone: string): number => (text.length === 10 ? midnightIn(zone, text) : (parseQueryDate(text) as number));

/** The range asked for, with its defaults; 400s naming `fromDate` when it is empty, reversed or too long. */
const resolveRange = (query: { fromDate?: string; toDate?: string }, zone: string, now: number) => {
  const to = query.toDate === undefined ? now : dateOf(query.toDate, zone);
  const from = query.fromDate === undefined ? startOfDayIn(zone, Math.min(now, to - 1)) : dateOf(query.fromDate, zone);
  if (from >= to)
    throw new ApiProblem('invalid_request', `fromDate (${iso(from)}) is not before toDate (${iso(to)}).`, {
      errors: [{ field: 'fromDate', message: 'must be before toDate' }],
    });
  // A range of whole days may hold a day of 25 hours.
  if (to - from > MAX_REPORT_DAYS * DAY_MS + HOUR_MS)
    throw new ApiProblem('invalid_request', `The range from fromDate (${iso(from)}) to toDate (${iso(to)}) is longer than ${MAX_REPORT_DAYS} days.`, {
      errors: [{ field: 'fromDate', message: `must be at most ${MAX_REPORT_DAYS} days before toDate` }],
    });
  return { from, to };
};

/** Whether an agent is one the selection asks for: a member of a queue it names, or (with `none`) of no queue. */
const memberFilter = (runtime: ProviderRuntime, selection: QueueSelection): ((subscriberID: string) => boolean) => {
  const queues = runtime.queueDirectory.queues;
  const named = new Set(queues.filter((queue) => selection.ids.includes(queue.id)).flatMap((queue) => queue.members));
  const anyQueue = new Set(queues.flatMap((queue) => queue.members));
  return (subscriberID) => named.has(subscriberID) || (selection.none && !anyQueue.has(subscriberID));
};

const seconds = (ms: number) => ms / 1000;
const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 1000 : null);

const toAgentTime = (row: AgentTimeRow): AgentTime => {
  const ms = (state: string) => row.stateMs[state] ?? 0;
  const engaged = ms('available') + ms('ringing') + ms('on-call');
  return {
    subscriberID: row.subscriberID,
    firstName: row.firstName ?? '',
    lastName: row.lastName ?? '',
    extension: row.extension ?? '',
    unknownSeconds: seconds(ms('unknown')),
    offlineSeconds: seconds(ms('offline')),
    inactiveSeconds: seconds(ms('inactive')),
    availableSeconds: seconds(ms('available')),
    ringingSeconds: seconds(ms('ringing')),
    onCallSeconds: seconds(ms('on-call')),
    loggedInSeconds: seconds(ms('inactive') + engaged),
    answeredCalls: row.answeredCalls,
    unansweredCalls: row.unansweredCalls,
    outboundPlaced: row.outboundPlaced,
    talkSeconds: seconds(row.talkMs),
    averageHandleSeconds: row.handledCalls === 0 ? null : Math.round(row.talkMs / row.handledCalls) / 1000,
    occupancy: ratio(ms('on-call'), engaged),
  };
};

const byName = (a: AgentTime, b: AgentTime) =>
  a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName) || (a.subscriberID < b.subscriberID ? -1 : a.subscriberID > b.subscriberID ? 1 : 0);

export const agentReportRoute = async (app: FastifyInstance, { registry, history, heavyQueries, clock, timeZone }: AgentReportRouteOptions) => {
  app.get(routePatterns.agentReport, { config: { doc: agentReportDoc } }, async (request: ScopeRequest): Promise<AgentReport> => {
    const runtime = prepareAnalytics(request, registry);
    const query = agentReportQuerySchema.safeParse(request.query);
    if (!query.success) throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
    const now = clock.now();
    const range = resolveRange(query.data, timeZone, now);
    const selection = resolveQueueSelection(runtime, query.data.queueID);
    const wanted = selection ? memberFilter(runtime, selection) : () => true;
    // The first sync journals the calls live now, so a fresh start's answer includes them.
    await runtime.sync.ready();
    const rows = await heavyQueries.run(request.principal, () => history.agentTimeRolled(runtime.scope, { ...range, now }, tokenKey(request.principal)));
    return {
      fromDate: iso(range.from),
      // Time not yet passed is not counted: the answer's range ends now.
      toDate: iso(Math.max(range.from, Math.min(range.to, now))),
      agents: rows
        .filter((row) => wanted(row.subscriberID))
        .map(toAgentTime)
        .sort(byName),
    };
  });
};
