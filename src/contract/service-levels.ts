/**
 * Service level and the figures beside it (our extension), from the call journal, and the missed
 * callers to call back. The definitions are stated once, here, and shown on screen and in the
 * OpenAPI document from the same text.
 */
import { z } from 'zod';
import { historyFillSchema } from './analytics.js';
import { queryDateSchema, remoteNumberSchema, timestampSchema } from './call-record.js';
import { queueFilterSchema } from './queue-filter.js';

export const DEFAULT_ANSWER_WITHIN_SECONDS = 20;
export const DEFAULT_SHORT_ABANDON_SECONDS = 5;
/** The answer-time distribution's bounds, in seconds; past the last, `later`. */
export const ANSWER_TIME_BOUNDS = [10, 20, 30, 60, 120] as const;
/** The most missed calls one answer lists, newest first; `totalMissedCalls` counts them all. */
export const MAX_MISSED_CALLS = 1000;

/** Each figure's definition, in the words the dashboard and the API description use. */
export const SERVICE_LEVEL_DEFINITIONS = {
  offered: 'Inbound calls that started in the window (a call counts in the window its start falls in).',
  answered: 'Offered calls that were answered.',
  answeredWithin: 'Answered calls answered within answerWithinSeconds of their start (exactly that long counts).',
  shortAbandoned: 'Offered calls never answered that ended less than shortAbandonSeconds after they started: left out of service level and abandon rate.',
  abandoned: 'Offered calls never answered that ended, and are not short abandons.',
  waiting: 'Offered calls neither answered nor ended: still ringing or queued when asked.',
  serviceLevel: 'answeredWithin ÷ (answered + abandoned); null when there are none.',
  abandonRate: 'abandoned ÷ (answered + abandoned); null when there are none.',
  averageAnswerSeconds: 'Mean time from start to answer of the answered calls; null when none.',
  longestAnswerSeconds: 'Longest time from start to answer of the answered calls; null when none.',
  averageTalkSeconds: 'Mean time from answer to end of the answered inbound calls that ended; null when none.',
  outboundPlaced: 'Outbound calls that started in the window.',
  outboundConnected: 'Of those, the ones answered.',
  averageOutboundTalkSeconds: 'Mean time from answer to end of the answered outbound calls that ended; null when none.',
  answerTimes: `Answered calls by time to answer: within 10, 20, 30, 60 and 120 s (each bound counts all the calls under it), and later.`,
} as const;

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1).nullable();
const seconds = z.number().nonnegative().nullable();

const wholeSeconds = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]{1,4}$/, `must be a whole number of seconds from ${min} to ${max}`)
    .refine((text) => Number(text) >= min && Number(text) <= max, `must be a whole number of seconds from ${min} to ${max}`);

export const serviceLevelsQuerySchema = z.strictObject({
  fromDate: queryDateSchema.optional(),
  toDate: queryDateSchema.optional(),
  bucketSeconds: z
    .string()
    .regex(/^[1-9][0-9]{0,6}$/, 'must be a whole number of seconds from 1 to 9999999')
    .optional(),
  answerWithinSeconds: wholeSeconds(1, 600).optional(),
  shortAbandonSeconds: wholeSeconds(0, 60).optional(),
  subscribers: z.enum(['include', 'omit'], { error: 'must be "include" or "omit"' }).optional(),
  queueID: queueFilterSchema.optional(),
  groupBy: z.enum(['queue'], { error: 'must be "queue"' }).optional(),
});
export type ServiceLevelsQuery = z.infer<typeof serviceLevelsQuerySchema>;

export const answerTimesSchema = z.object({
  within10: count,
  within20: count,
  within30: count,
  within60: count,
  within120: count,
  later: count,
});
export type AnswerTimes = z.infer<typeof answerTimesSchema>;

const describe = <T extends z.ZodType>(schema: T, name: keyof typeof SERVICE_LEVEL_DEFINITIONS) =>
  schema.meta({ description: SERVICE_LEVEL_DEFINITIONS[name] });

export const serviceLevelFiguresSchema = z.object({
  offered: describe(count, 'offered'),
  answered: describe(count, 'answered'),
  answeredWithin: describe(count, 'answeredWithin'),
  shortAbandoned: describe(count, 'shortAbandoned'),
  abandoned: describe(count, 'abandoned'),
  waiting: describe(count, 'waiting'),
  serviceLevel: describe(share, 'serviceLevel'),
  abandonRate: describe(share, 'abandonRate'),
  averageAnswerSeconds: describe(seconds, 'averageAnswerSeconds'),
  longestAnswerSeconds: describe(seconds, 'longestAnswerSeconds'),
  averageTalkSeconds: describe(seconds, 'averageTalkSeconds'),
  outboundPlaced: describe(count, 'outboundPlaced'),
  outboundConnected: describe(count, 'outboundConnected'),
  averageOutboundTalkSeconds: describe(seconds, 'averageOutboundTalkSeconds'),
  answerTimes: describe(answerTimesSchema, 'answerTimes'),
});
export type ServiceLevelFigures = z.infer<typeof serviceLevelFiguresSchema>;

export const serviceLevelBucketSchema = serviceLevelFiguresSchema.extend({
  /** The bucket covers the calls that started in [start, start + bucketSeconds), cut at toDate. */
  start: timestampSchema,
});
export type ServiceLevelBucket = z.infer<typeof serviceLevelBucketSchema>;

export const subscriberServiceLevelSchema = serviceLevelFiguresSchema.extend({
  subscriberID: z.string(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  extension: z.string().optional(),
});
export type SubscriberServiceLevel = z.infer<typeof subscriberServiceLevelSchema>;

/** One queue's figures over the window (with `groupBy=queue`), with its own parameters; `queueID` null for the calls in no queue. */
export const queueServiceLevelSchema = z
  .object({
    queueID: z.string().nullable(),
    /** Its configured name; a queue no longer configured is named by its ID. */
    name: z.string(),
    answerWithinSeconds: z.number().int().min(1).max(600),
    shortAbandonSeconds: z.number().int().min(0).max(60),
    /** Its configured target; null for the calls in no queue and for a queue no longer configured. */
    serviceLevelTarget: z.number().min(0).max(1).nullable(),
    totals: serviceLevelFiguresSchema,
    buckets: z.array(serviceLevelBucketSchema),
  })
  .meta({ id: 'QueueServiceLevel' });
export type QueueServiceLevel = z.infer<typeof queueServiceLevelSchema>;

export const serviceLevelsResponseSchema = z
  .object({
    fromDate: timestampSchema,
    toDate: timestampSchema,
    bucketSeconds: z.number().int().positive(),
    answerWithinSeconds: z.number().int().min(1).max(600),
    shortAbandonSeconds: z.number().int().min(0).max(60),
    totals: serviceLevelFiguresSchema,
    /** Oldest first, one per bucket of the window, empty ones included. */
    buckets: z.array(serviceLevelBucketSchema),
    /** Every subscriber an inbound call rang or reached, or who placed an outbound call, in the window; most offered first. */
    subscribers: z.array(subscriberServiceLevelSchema),
    /** With `groupBy=queue`: each configured queue in the config's order, then the calls in no queue (and any queue no longer configured). */
    queues: z.array(queueServiceLevelSchema).optional(),
    historyFill: historyFillSchema.optional(),
  })
  .meta({ id: 'ServiceLevelsResponse' });
export type ServiceLevelsResponse = z.infer<typeof serviceLevelsResponseSchema>;

/** What the endpoint answers: `subscribers` is absent when the request said `subscribers=omit`. */
export const serviceLevelsAnswerSchema = serviceLevelsResponseSchema
  .partial({ subscribers: true })
  .meta({ id: 'ServiceLevelsAnswer' });
export type ServiceLevelsAnswer = z.infer<typeof serviceLevelsAnswerSchema>;

/** The answer to `subscribers=omit`: the totals and buckets only. */
export const serviceLevelTotalsResponseSchema = serviceLevelsResponseSchema.omit({ subscribers: true });
export type ServiceLevelTotalsResponse = z.infer<typeof serviceLevelTotalsResponseSchema>;

export const missedCallsQuerySchema = z.strictObject({
  fromDate: queryDateSchema.optional(),
  toDate: queryDateSchema.optional(),
  shortAbandonSeconds: wholeSeconds(0, 60).optional(),
  queueID: queueFilterSchema.optional(),
});
export type MissedCallsQuery = z.infer<typeof missedCallsQuerySchema>;

export const missedCallSchema = z.object({
  callID: z.string(),
  /** Empty when the caller withheld their number: nobody can call them back. */
  remoteNumber: remoteNumberSchema,
  remoteName: z.string().optional(),
  startedAt: timestampSchema,
  endedAt: timestampSchema,
  /** The agent the call rang, if it reached one before the caller gave up. */
  subscriberID: z.string().optional(),
  subscriberFirstName: z.string().optional(),
  subscriberLastName: z.string().optional(),
  /** The first outbound call to the same number after this one ended, placed by anyone. */
  calledBackAt: timestampSchema.optional(),
  callbackCallID: z.string().optional(),
  /** Outbound calls to the number since this one ended. */
  attempts: count,
  /** When the caller was reached: the first answered call with them after this one began, theirs or ours. */
  reachedAt: timestampSchema.optional(),
});
export type MissedCall = z.infer<typeof missedCallSchema>;

export const missedCallsResponseSchema = z
  .object({
    fromDate: timestampSchema,
    toDate: timestampSchema,
    shortAbandonSeconds: z.number().int().min(0).max(60),
    /** The abandoned calls of the window (short abandons left out), newest first, at most MAX_MISSED_CALLS. */
    missedCalls: z.array(missedCallSchema),
    /** All the abandoned calls of the window, listed or not. */
    totalMissedCalls: count,
    /** The share of the listed calls called back within 60 minutes of their end; null when none is listed. */
    calledBackWithinHour: share,
  })
  .meta({ id: 'MissedCallsResponse' });
export type MissedCallsResponse = z.infer<typeof missedCallsResponseSchema>;
