/** Answers of the reports endpoints for component tests, parsed with the contract's schemas so they cannot drift from it; override what the test is about. */
import {
  agentReportSchema,
  agentTimeSchema,
  intervalReportSchema,
  intervalRowSchema,
  type AgentReport,
  type AgentTime,
  type IntervalReport,
  type IntervalRow,
} from '../../contract/reports.js';
import { queuesResponseSchema, type QueuesResponse } from '../../contract/queues.js';
import { figures } from './service-levels.js';

export const intervalRow = (overrides: Partial<IntervalRow> & Pick<IntervalRow, 'start' | 'queueID'>): IntervalRow =>
  intervalRowSchema.parse({
    ...figures(),
    answerWithinSeconds: 20,
    shortAbandonSeconds: 5,
    serviceLevelTarget: overrides.queueID === null ? null : 0.8,
    longestWaitSeconds: 0,
    peakConcurrentCalls: 0,
    agentsStaffed: overrides.queueID === null ? null : 0,
    agentsNeeded: overrides.queueID === null ? null : 0,
    ...overrides,
  });

const QUEUE_NAMES: Record<string, string> = { sales: 'Sales', support: 'Support', billing: 'Billing' };

/** The report of `rows`; its queues are those the rows name, in the order they first appear (the calls in no queue last). */
export const intervalReport = (overrides: Partial<IntervalReport> & Pick<IntervalReport, 'rows'>): IntervalReport => {
  const ids = [...new Set(overrides.rows.map((row) => row.queueID))].sort((a, b) => (a === null ? 1 : b === null ? -1 : 0));
  return intervalReportSchema.parse({
    fromDate: overrides.rows[0]?.start ?? '2026-11-26T00:00:00.000Z',
    toDate: '2026-11-27T00:00:00.000Z',
    intervalMinutes: 30,
    timeZone: 'UTC',
    queues: ids.map((queueID) => ({ queueID, name: queueID === null ? 'No queue' : (QUEUE_NAMES[queueID] ?? queueID) })),
    ...overrides,
  });
};

export const agentTime = (
  overrides: Partial<AgentTime> & Pick<AgentTime, 'subscriberID' | 'firstName' | 'lastName'>,
): AgentTime => {
  const states = {
    unknownSeconds: 0,
    offlineSeconds: 0,
    inactiveSeconds: 0,
    availableSeconds: 0,
    ringingSeconds: 0,
    onCallSeconds: 0,
    ...overrides,
  };
  return agentTimeSchema.parse({
    extension: '100',
    answeredCalls: 0,
    unansweredCalls: 0,
    outboundPlaced: 0,
    talkSeconds: 0,
    averageHandleSeconds: null,
    occupancy: null,
    loggedInSeconds: states.inactiveSeconds + states.availableSeconds + states.ringingSeconds + states.onCallSeconds,
    ...states,
  });
};

export const agentReport = (
  agents: AgentTime[],
  range = { fromDate: '2026-11-26T00:00:00.000Z', toDate: '2026-11-27T00:00:00.000Z' },
): AgentReport => agentReportSchema.parse({ ...range, agents });

const quietPeriod = {
  offered: 0,
  answered: 0,
  answeredWithin: 0,
  shortAbandoned: 0,
  abandoned: 0,
  waiting: 0,
  serviceLevel: null,
  abandonRate: null,
  averageAnswerSeconds: null,
  longestAnswerSeconds: null,
  averageTalkSeconds: null,
};

/** The live queues' answer for a page that only needs to know which queues there are (the reports' queue choice). */
export const queuesAnswer = (queues: { queueID: string; name: string }[]): QueuesResponse =>
  queuesResponseSchema.parse({
    figuresAt: '2026-11-26T15:00:00.000Z',
    dayStart: '2026-11-26T00:00:00.000Z',
    queues: queues.map(({ queueID, name }) => ({
      queueID,
      name,
      numbers: [],
      providerQueues: [],
      members: [],
      answerWithinSeconds: 20,
      shortAbandonSeconds: 5,
      serviceLevelTarget: 0.8,
      now: {
        waiting: 0,
        longestWaitSeconds: 0,
        talking: 0,
        agents: { staffed: 0, available: 0, ringing: 0, onCall: 0, inactive: 0, offline: 0 },
      },
      today: quietPeriod,
      last15Minutes: quietPeriod,
      agentsNeeded: null,
    })),
    unqueued: { now: { waiting: 0, longestWaitSeconds: 0, talking: 0 }, today: quietPeriod },
  });
