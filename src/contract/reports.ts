/**
 * Reports (our extension): each interval of each queue with the parameters in force when its calls
 * were offered, how agents spent their time, and the whole history of calls out as a file. The
 * definitions are stated once, here, for the dashboard and the API description alike.
 */
import { z } from 'zod';
import { queryDateSchema, timestampSchema } from './call-record.js';
import { queueFilterSchema } from './queue-filter.js';
import { serviceLevelFiguresSchema } from './service-levels.js';

/** The interval lengths a report is cut into, in minutes. */
export const INTERVAL_MINUTES = [15, 30, 60] as const;
export type IntervalMinutes = (typeof INTERVAL_MINUTES)[number];
/** The longest range one interval or agents report covers. */
export const MAX_REPORT_DAYS = 31;
/** The longest range one export covers: the retention's upper bound. */
export const MAX_EXPORT_DAYS = 3650;

export const INTERVAL_DEFINITIONS = {
  start:
    "Where the interval begins. Intervals start on the hour in the service's time zone (`timeZone` in its config) and every intervalMinutes after, " +
    'so a day with a clock change has 23 or 25 hours of them; the first and last are cut at fromDate and toDate.',
  queueID: 'The queue whose calls the row counts; null for the calls in no queue: the inbound calls no queue took, and every outbound call.',
  parameters:
    "Each call is counted with its queue's answerWithinSeconds and shortAbandonSeconds in force when it was offered (started); " +
    'answerWithinSeconds, shortAbandonSeconds and serviceLevelTarget on the row are those in force at the interval\'s start. Changing a target never rewrites the past. ' +
    'A call offered before the first parameters the journal holds counts with those first ones; a queue the journal holds none of, with its parameters now; ' +
    'a queue no longer configured keeps its last. The calls in no queue count with the defaults (20 s, 5 s) and have no target (null).',
  longestWaitSeconds:
    "Longest wait of the interval's offered calls: from start to answer, to the end of a call never answered, or to the report's time for a call still waiting; 0 when none was offered.",
  peakConcurrentCalls:
    "Most of the queue's calls (inbound and outbound) live at one moment of the interval: a call is live from its start until its end (or the report's time), " +
    'so one live across intervals counts in each.',
  agentsStaffed:
    "Time-weighted mean over the interval, up to the report's time, of the queue's members (those listed when the interval began) whose state was not offline, inactive or unknown, " +
    'from the journal of agent states (an agent is unknown before their first change), to two decimals; 0 for an interval wholly after the report\'s time; null for the calls in no queue.',
  agentsNeeded:
    "Erlang C on the interval: offeredPerHour = offered × 3600 ÷ the interval's length in seconds (intervalMinutes × 60, less where fromDate or toDate cuts it), " +
    'averageHandleSeconds = averageTalkSeconds of the interval, ' +
    'with the serviceLevelTarget and answerWithinSeconds in force; the smallest whole n > A (A = offeredPerHour ÷ 3600 × averageHandleSeconds) ' +
    'whose predicted service level reaches the target. 0 with no call offered; null when no answered call ended (no handle time), and for the calls in no queue.',
} as const;

export const AGENT_TIME_DEFINITIONS = {
  states:
    'Time in each state of the agent board (offline, inactive, available, ringing, on-call) within the range, from the journal of every change of state. ' +
    'unknownSeconds is the time the service did not know the agent: before it first saw them, while it was stopped, after they left the provider. ' +
    'The six add up to the range exactly.',
  loggedInSeconds: 'Time not offline: inactive + available + ringing + on-call.',
  answeredCalls: 'Inbound calls that started in the range, rang the agent and were answered by them.',
  unansweredCalls: 'Inbound calls that started in the range, rang the agent and ended unanswered (a call still ringing is not counted yet).',
  outboundPlaced: 'Outbound calls the agent placed that started in the range.',
  talkSeconds: "From answer to end of the agent's answered calls, inbound and outbound, that started in the range and ended.",
  averageHandleSeconds: 'talkSeconds ÷ the answered calls that ended (inbound and outbound); null when none.',
  occupancy: 'onCallSeconds ÷ (availableSeconds + ringingSeconds + onCallSeconds); null when that is 0.',
} as const;

export const EXPORT_DEFINITIONS = {
  range: 'Every call that started in [fromDate, toDate), oldest first, with every field of its record.',
  retention:
    'A range that begins before the journal keeps calls (history.retentionDays) says so: the header Callboard-Retention-Cut and, in CSV, a first line starting with "#".',
} as const;

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1).nullable();
const seconds = z.number().nonnegative();
const describe = <T extends z.ZodType>(schema: T, text: string) => schema.meta({ description: text });

const INTERVAL_RULE = `must be ${INTERVAL_MINUTES.slice(0, -1).join(', ')} or ${INTERVAL_MINUTES.at(-1)}`;
/** `intervalMinutes=` as the query writes it. */
const intervalMinutesSchema = z.enum(INTERVAL_MINUTES.map(String) as [string, ...string[]], { error: INTERVAL_RULE });

/** `fromDate` defaults to the start of today, `toDate` to now; a calendar date is midnight in the service's time zone. */
export const intervalReportQuerySchema = z.strictObject({
  fromDate: queryDateSchema.optional(),
  toDate: queryDateSchema.optional(),
  intervalMinutes: intervalMinutesSchema.optional(),
  queueID: queueFilterSchema.optional(),
});
export type IntervalReportQuery = z.infer<typeof intervalReportQuerySchema>;

export const intervalRowSchema = serviceLevelFiguresSchema
  .extend({
    start: describe(timestampSchema, INTERVAL_DEFINITIONS.start),
    queueID: describe(z.string().nullable(), INTERVAL_DEFINITIONS.queueID),
    answerWithinSeconds: describe(z.number().int().min(1).max(600), INTERVAL_DEFINITIONS.parameters),
    shortAbandonSeconds: z.number().int().min(0).max(60),
    serviceLevelTarget: describe(z.number().min(0).max(1).nullable(), INTERVAL_DEFINITIONS.parameters),
    longestWaitSeconds: describe(seconds, INTERVAL_DEFINITIONS.longestWaitSeconds),
    peakConcurrentCalls: describe(count, INTERVAL_DEFINITIONS.peakConcurrentCalls),
    agentsStaffed: describe(z.number().nonnegative().nullable(), INTERVAL_DEFINITIONS.agentsStaffed),
    agentsNeeded: describe(count.nullable(), INTERVAL_DEFINITIONS.agentsNeeded),
  })
  .meta({ id: 'IntervalReportRow' });
export type IntervalRow = z.infer<typeof intervalRowSchema>;

export const reportQueueSchema = z.object({
  queueID: z.string().nullable(),
  /** Its name as last configured; a queue no longer configured is named by its ID; "No queue" for null. */
  name: z.string(),
});
export type ReportQueue = z.infer<typeof reportQueueSchema>;

export const intervalReportSchema = z
  .object({
    fromDate: timestampSchema,
    toDate: timestampSchema,
    intervalMinutes: z.literal(INTERVAL_MINUTES),
    timeZone: z.string(),
    /** The queues the rows speak of, in the config's order, then the calls in no queue. */
    queues: z.array(reportQueueSchema),
    /** By start, then by the queues' order; every interval of every queue, empty ones included. */
    rows: z.array(intervalRowSchema),
  })
  .meta({ id: 'IntervalReport' });
export type IntervalReport = z.infer<typeof intervalReportSchema>;

/** `queueID=`: only the members of these queues (as listed now). */
export const agentReportQuerySchema = z.strictObject({
  fromDate: queryDateSchema.optional(),
  toDate: queryDateSchema.optional(),
  queueID: queueFilterSchema.optional(),
});
export type AgentReportQuery = z.infer<typeof agentReportQuerySchema>;

export const agentTimeSchema = z
  .object({
    subscriberID: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    extension: z.string(),
    unknownSeconds: describe(seconds, AGENT_TIME_DEFINITIONS.states),
    offlineSeconds: describe(seconds, AGENT_TIME_DEFINITIONS.states),
    inactiveSeconds: describe(seconds, AGENT_TIME_DEFINITIONS.states),
    availableSeconds: describe(seconds, AGENT_TIME_DEFINITIONS.states),
    ringingSeconds: describe(seconds, AGENT_TIME_DEFINITIONS.states),
    onCallSeconds: describe(seconds, AGENT_TIME_DEFINITIONS.states),
    loggedInSeconds: describe(seconds, AGENT_TIME_DEFINITIONS.loggedInSeconds),
    answeredCalls: describe(count, AGENT_TIME_DEFINITIONS.answeredCalls),
    unansweredCalls: describe(count, AGENT_TIME_DEFINITIONS.unansweredCalls),
    outboundPlaced: describe(count, AGENT_TIME_DEFINITIONS.outboundPlaced),
    talkSeconds: describe(seconds, AGENT_TIME_DEFINITIONS.talkSeconds),
    averageHandleSeconds: describe(seconds.nullable(), AGENT_TIME_DEFINITIONS.averageHandleSeconds),
    occupancy: describe(share, AGENT_TIME_DEFINITIONS.occupancy),
  })
  .meta({ id: 'AgentTime' });
export type AgentTime = z.infer<typeof agentTimeSchema>;

export const agentReportSchema = z
  .object({
    fromDate: timestampSchema,
    /** Where the figures stop: the toDate asked for, or now if that is earlier. */
    toDate: timestampSchema,
    /** By last name, first name, then subscriber ID. */
    agents: z.array(agentTimeSchema),
  })
  .meta({ id: 'AgentReport' });
export type AgentReport = z.infer<typeof agentReportSchema>;

/** An interval row's figures in a file's order (all but start, queueID and answerTimes), each named: the compiler says when one is missing. */
const INTERVAL_FIGURES_LISTED = {
  answerWithinSeconds: true,
  shortAbandonSeconds: true,
  serviceLevelTarget: true,
  offered: true,
  answered: true,
  answeredWithin: true,
  shortAbandoned: true,
  abandoned: true,
  waiting: true,
  serviceLevel: true,
  abandonRate: true,
  averageAnswerSeconds: true,
  longestAnswerSeconds: true,
  averageTalkSeconds: true,
  outboundPlaced: true,
  outboundConnected: true,
  averageOutboundTalkSeconds: true,
  longestWaitSeconds: true,
  peakConcurrentCalls: true,
  agentsStaffed: true,
  agentsNeeded: true,
} as const satisfies Record<Exclude<keyof IntervalRow, 'start' | 'queueID' | 'answerTimes'>, true>;
export const INTERVAL_FIGURE_COLUMNS = Object.keys(INTERVAL_FIGURES_LISTED) as (keyof typeof INTERVAL_FIGURES_LISTED)[];

/** Every field of an agent's time, in a file's order, each named. */
const AGENT_TIME_LISTED = {
  subscriberID: true,
  firstName: true,
  lastName: true,
  extension: true,
  unknownSeconds: true,
  offlineSeconds: true,
  inactiveSeconds: true,
  availableSeconds: true,
  ringingSeconds: true,
  onCallSeconds: true,
  loggedInSeconds: true,
  answeredCalls: true,
  unansweredCalls: true,
  outboundPlaced: true,
  talkSeconds: true,
  averageHandleSeconds: true,
  occupancy: true,
} as const satisfies Record<keyof AgentTime, true>;
export const AGENT_TIME_COLUMNS = Object.keys(AGENT_TIME_LISTED) as (keyof AgentTime)[];

/** Both dates are required: an export names its range. */
export const callExportQuerySchema = z.strictObject({
  fromDate: queryDateSchema,
  toDate: queryDateSchema,
  queueID: queueFilterSchema.optional(),
  format: z.enum(['csv', 'ndjson'], { error: 'must be "csv" or "ndjson"' }).optional(),
});
export type CallExportQuery = z.infer<typeof callExportQuerySchema>;

/** Response header of an export whose range begins before the retention: the first moment the journal still holds. */
export const RETENTION_CUT_HEADER = 'callboard-retention-cut';
/** Response header of a count-only export request (`HEAD`): the calls the export holds. */
export const EXPORT_COUNT_HEADER = 'callboard-export-calls';
