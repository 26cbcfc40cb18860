/** The call record and the list-calls response of spec sections 2.1 and 2.2. */
import { z } from 'zod';
import { queueFilterSchema } from './queue-filter.js';

/** ISO 8601 UTC with milliseconds, the one timestamp format the service emits. */
export const timestampSchema = z.iso.datetime({ precision: 3 });

/** Digits only (spec 4.2 rule 1); empty when the remote party withheld its number. */
export const remoteNumberSchema = z.string().regex(/^[0-9]{0,15}$/, 'digits only, at most 15');

export const callRecordSchema = z.object({
  callID: z.string().min(1),
  providerCallID: z.string().min(1),
  providerID: z.string().min(1),
  providerName: z.string(),
  isOutbound: z.boolean(),
  isMissedCall: z.boolean(),
  remoteNumber: remoteNumberSchema,
  remoteName: z.string().optional(),
  startedAt: timestampSchema,
  answeredAt: timestampSchema.optional(),
  endedAt: timestampSchema.optional(),
  chosenContactID: z.string().optional(),
  subscriberID: z.string().optional(),
  subscriberFirstName: z.string().optional(),
  subscriberLastName: z.string().optional(),
  subscriberEmail: z.string().optional(),
  subscriberExtension: z.string().optional(),
  subscriberNumber: z.string().optional(),
  subscriberAnsweredAt: timestampSchema.optional().meta({
    description:
      "Extension. Outbound: when the subscriber's own device was connected: at the start for a call they dialed (or one dialed " +
      'straight to the remote number), when they picked up for a click-to-call that rang them first. Absent while their device rings.',
  }),
  endedBy: z.string().optional().meta({
    description:
      'Extension. The call was ended through this service (`DELETE` of the call): by the token of this name, or by the signed-in person of this email.',
  }),
  calledNumber: z.string().optional().meta({
    description:
      'Extension. Inbound: the number the caller dialed (digits only, or an extension as dialed), where the phone system tells it.',
  }),
  queueID: z.string().optional().meta({
    description:
      "Extension. The configured queue the call was offered to: the phone system's own queue where it tells one and a queue lists it " +
      "in `providerQueues`, else the dialed number matched against a queue's `numbers`. A call keeps the first queue it was known in; outbound calls have none.",
  }),
  queueName: z.string().optional().meta({ description: "Extension. The queue's configured name." }),
}).meta({ id: 'CallRecord' });
export type CallRecord = z.infer<typeof callRecordSchema>;

export const listCallsResponseSchema = z.object({
  calls: z.array(callRecordSchema),
  fromDate: timestampSchema.optional(),
  toDate: timestampSchema.optional(),
  totalCalls: z.number().int().nonnegative(),
}).meta({ id: 'ListCallsResponse' });
export type ListCallsResponse = z.infer<typeof listCallsResponseSchema>;

/** How far back a window query reaches when `fromDate` is omitted. */
export const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The longest window a list or analytics query may span. */
export const MAX_WINDOW_DAYS = 31;
export const MAX_WINDOW_MS = MAX_WINDOW_DAYS * DEFAULT_WINDOW_MS;
/** The most calls one window list answers; past it the client must narrow the window. */
export const MAX_WINDOW_CALLS = 10_000;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Epoch ms of an ISO 8601 date-time or date, or undefined when it names no real moment
 * (JavaScript's own parser accepts 30 February; this does not).
 */
export const parseQueryDate = (text: string): number | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const ms = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
  return Number.isNaN(ms) ? undefined : ms;
};

/** A query date: an ISO 8601 date-time (any offset, any precision) or a calendar date (UTC midnight). */
export const queryDateSchema = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'must be an ISO 8601 date-time such as 2026-11-22T05:27:53.942Z, or a date such as 2026-11-22',
  })
  .refine((text) => parseQueryDate(text) !== undefined, 'names a day that does not exist');

export const listCallsQuerySchema = z.strictObject({
  fromDate: queryDateSchema.optional(),
  toDate: queryDateSchema.optional(),
  /**
   * Extension, for window lists: only the calls whose `isMissedCall` is this. The missed calls of a
   * busy quarter-hour are a few dozen of its thousands of calls.
   */
  isMissedCall: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  /** Extension: only the calls of these queues (comma-separated), or `none` for the calls in no queue. */
  queueID: queueFilterSchema.optional(),
});
export type ListCallsQuery = z.infer<typeof listCallsQuerySchema>;
