/**
 * Queues (our extension): a provider's queues as configured, and the figures of each, live and of
 * the day. A queue's figures are the service-level figures (`SERVICE_LEVEL_DEFINITIONS`) restricted
 * to its calls and taken with its own parameters; the definitions of the rest are stated here once,
 * for the dashboard and the API description alike.
 */
import { z } from 'zod';
import { DEFAULT_ANSWER_WITHIN_SECONDS, DEFAULT_SHORT_ABANDON_SECONDS, SERVICE_LEVEL_DEFINITIONS } from './service-levels.js';
import { timestampSchema } from './call-record.js';

export const DEFAULT_SERVICE_LEVEL_TARGET = 0.8;
/** `agentsNeeded` looks at this many minutes before `figuresAt`. */
export const AGENTS_NEEDED_MINUTES = 30;
export { NO_QUEUE, QUEUE_ID_PATTERN, QUEUE_ID_RULE, queueFilterSchema } from './queue-filter.js';

export const QUEUE_DEFINITIONS = {
  waiting: "The queue's live inbound calls neither answered nor ended.",
  longestWaitSeconds: 'figuresAt − startedAt of the oldest waiting call; 0 when none waits.',
  oldestWaitingSince: 'startedAt of the oldest waiting call; absent when none waits.',
  talking: "The queue's answered calls not ended yet.",
  agents:
    "The queue's members by their state on the agent board (an agent of two queues counts in both); staffed: members not offline.",
  today: "The service-level figures of the queue's calls that started from dayStart (midnight in the service's time zone) to figuresAt.",
  last15Minutes: "The same figures for the calls that started in the 15 minutes before figuresAt.",
  agentsNeeded:
    `Erlang C over the ${AGENTS_NEEDED_MINUTES} minutes before figuresAt: offeredPerHour is the queue's inbound calls started then × 2; ` +
    'averageHandleSeconds the mean of endedAt − answeredAt of its answered calls that ended then, else today\'s averageTalkSeconds, ' +
    'else the figure is null. With A = offeredPerHour ÷ 3600 × averageHandleSeconds, agents is the smallest whole n > A whose ' +
    'predicted service level 1 − C(n, A) · e^(−(n − A) · answerWithinSeconds ÷ averageHandleSeconds) reaches serviceLevelTarget; ' +
    'serviceLevel is that prediction. No call offered then: agents is 0.',
} as const;

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1).nullable();
const seconds = z.number().nonnegative().nullable();
const describe = <T extends z.ZodType>(schema: T, text: string) => schema.meta({ description: text });

/** A queue as configured: its ID, name, how calls reach it, its members and its own parameters. */
export const queueSettingsSchema = z.object({
  queueID: z.string(),
  name: z.string(),
  numbers: z.array(z.string()),
  providerQueues: z.array(z.string()),
  members: z.array(z.string()),
  answerWithinSeconds: z.number().int().min(1).max(600),
  shortAbandonSeconds: z.number().int().min(0).max(60),
  serviceLevelTarget: z.number().min(0.01).max(1),
});
export type QueueSettings = z.infer<typeof queueSettingsSchema>;

/** The service-level figures a queue reports over a stretch of time. */
export const queuePeriodSchema = z.object({
  offered: describe(count, SERVICE_LEVEL_DEFINITIONS.offered),
  answered: describe(count, SERVICE_LEVEL_DEFINITIONS.answered),
  answeredWithin: describe(count, SERVICE_LEVEL_DEFINITIONS.answeredWithin),
  shortAbandoned: describe(count, SERVICE_LEVEL_DEFINITIONS.shortAbandoned),
  abandoned: describe(count, SERVICE_LEVEL_DEFINITIONS.abandoned),
  waiting: describe(count, SERVICE_LEVEL_DEFINITIONS.waiting),
  serviceLevel: describe(share, SERVICE_LEVEL_DEFINITIONS.serviceLevel),
  abandonRate: describe(share, SERVICE_LEVEL_DEFINITIONS.abandonRate),
  averageAnswerSeconds: describe(seconds, SERVICE_LEVEL_DEFINITIONS.averageAnswerSeconds),
  longestAnswerSeconds: describe(seconds, SERVICE_LEVEL_DEFINITIONS.longestAnswerSeconds),
  averageTalkSeconds: describe(seconds, SERVICE_LEVEL_DEFINITIONS.averageTalkSeconds),
});
export type QueuePeriod = z.infer<typeof queuePeriodSchema>;

export const queueAgentsSchema = z
  .object({ staffed: count, available: count, ringing: count, onCall: count, inactive: count, offline: count })
  .meta({ description: QUEUE_DEFINITIONS.agents });
export type QueueAgents = z.infer<typeof queueAgentsSchema>;

export const queueNowSchema = z.object({
  waiting: describe(count, QUEUE_DEFINITIONS.waiting),
  longestWaitSeconds: describe(z.number().int().nonnegative(), QUEUE_DEFINITIONS.longestWaitSeconds),
  oldestWaitingSince: describe(timestampSchema.optional(), QUEUE_DEFINITIONS.oldestWaitingSince),
  talking: describe(count, QUEUE_DEFINITIONS.talking),
  agents: queueAgentsSchema,
});
export type QueueNow = z.infer<typeof queueNowSchema>;

export const agentsNeededSchema = z
  .object({
    agents: count,
    /** The service level `agents` predict; null when no call was offered (no prediction to make). */
    serviceLevel: share,
    offeredPerHour: z.number().nonnegative(),
    averageHandleSeconds: z.number().positive(),
    basedOnMinutes: z.number().int().positive(),
  })
  .nullable()
  .meta({ description: QUEUE_DEFINITIONS.agentsNeeded });
export type AgentsNeeded = z.infer<typeof agentsNeededSchema>;

export const queueFiguresSchema = queueSettingsSchema.extend({
  now: queueNowSchema,
  today: queuePeriodSchema.meta({ description: QUEUE_DEFINITIONS.today }),
  last15Minutes: queuePeriodSchema.meta({ description: QUEUE_DEFINITIONS.last15Minutes }),
  agentsNeeded: agentsNeededSchema,
});
export type QueueFigures = z.infer<typeof queueFiguresSchema>;

export const unqueuedFiguresSchema = z.object({
  now: queueNowSchema.pick({ waiting: true, longestWaitSeconds: true, oldestWaitingSince: true, talking: true }),
  today: queuePeriodSchema,
});
export type UnqueuedFigures = z.infer<typeof unqueuedFiguresSchema>;

export const queuesResponseSchema = z
  .object({
    figuresAt: timestampSchema,
    dayStart: timestampSchema,
    /** In the config's order. */
    queues: z.array(queueFiguresSchema),
    /** The provider's inbound calls in no queue (a direct call to an agent, a number no queue lists); absent for someone who sees only some queues. */
    unqueued: unqueuedFiguresSchema.optional(),
  })
  .meta({ id: 'QueuesResponse' });
export type QueuesResponse = z.infer<typeof queuesResponseSchema>;

export const queueParameterDefaults = {
  answerWithinSeconds: DEFAULT_ANSWER_WITHIN_SECONDS,
  shortAbandonSeconds: DEFAULT_SHORT_ABANDON_SECONDS,
  serviceLevelTarget: DEFAULT_SERVICE_LEVEL_TARGET,
} as const;

/** The stream's whole figures of one provider's queues (with `include=queues`): replace what you hold for it. */
export const queuesSnapshotEventSchema = queuesResponseSchema
  .extend({ providerID: z.string().min(1), cursor: z.string().min(1) })
  .meta({ id: 'StreamQueuesEvent' });
export type QueuesSnapshotEvent = z.infer<typeof queuesSnapshotEventSchema>;

/**
 * The queues whose figures changed, in full (replace each by its ID), and the calls in no queue.
 * `longestWaitSeconds` alone moving with the clock is no change: it is `figuresAt − oldestWaitingSince`.
 */
export const queueChangesEventSchema = z
  .object({
    providerID: z.string().min(1),
    cursor: z.string().min(1),
    figuresAt: timestampSchema,
    dayStart: timestampSchema,
    upserted: z.array(queueFiguresSchema),
    unqueued: unqueuedFiguresSchema.optional(),
  })
  .meta({ id: 'StreamQueueChangesEvent' });
export type QueueChangesEvent = z.infer<typeof queueChangesEventSchema>;
