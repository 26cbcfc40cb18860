/**
 * The interval and agents reports of a provider as the journal answers them: what the endpoints
 * serve and what the scheduled mail attaches, built the same way for both.
 */
import type { AgentTime, AgentReport, IntervalMinutes } from '../../contract/reports.js';
import type { AgentTimeRow } from '../history/agent-time-query.js';
import type { IntervalReportRequest } from '../history/interval-report.js';
import { queueParametersInForce, UNQUEUED_PARAMETERS_MS } from '../queues/queue-config.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import type { ProviderRuntime } from '../runtime/provider-runtimes.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** The interval report's read for a provider: its queues as configured now beside the parameters' history the read takes from the journal. */
export const intervalReportRequest = (
  runtime: ProviderRuntime,
  asked: {
    from: number;
    to: number;
    now: number;
    intervalMinutes: IntervalMinutes;
    timeZone: string;
    queues: QueueSelection | undefined;
  },
): IntervalReportRequest => {
  const { queues, ...rest } = asked;
  return {
    ...rest,
    configured: runtime.queueDirectory.queues.map(queueParametersInForce),
    ...UNQUEUED_PARAMETERS_MS,
    ...(queues ? { queues } : {}),
  };
};

/** Whether an agent is one the selection asks for: a member of a queue it names, or (with `none`) of no queue. */
const memberFilter = (runtime: ProviderRuntime, selection: QueueSelection): ((subscriberID: string) => boolean) => {
  const queues = runtime.queueDirectory.queues;
  const named = new Set(queues.filter((queue) => selection.ids.includes(queue.id)).flatMap((queue) => queue.members));
  const anyQueue = new Set(queues.flatMap((queue) => queue.members));
  const own = new Set(selection.subscribers);
  return (subscriberID) => named.has(subscriberID) || own.has(subscriberID) || (selection.none && !anyQueue.has(subscriberID));
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
  a.lastName.localeCompare(b.lastName) ||
  a.firstName.localeCompare(b.firstName) ||
  (a.subscriberID < b.subscriberID ? -1 : a.subscriberID > b.subscriberID ? 1 : 0);

/** The report of the agents a selection asks for, from the journal's rows for the range. */
export const agentReportOf = (
  runtime: ProviderRuntime,
  rows: readonly AgentTimeRow[],
  range: { from: number; to: number },
  now: number,
  selection: QueueSelection | undefined,
): AgentReport => {
  const wanted = selection ? memberFilter(runtime, selection) : () => true;
  return {
    fromDate: iso(range.from),
    // Time not yet passed is not counted: the answer's range ends now.
    toDate: iso(Math.max(range.from, Math.min(range.to, now))),
    agents: rows
      .filter((row) => wanted(row.subscriberID))
      .map(toAgentTime)
      .sort(byName),
  };
};
