/**
 * The simulator process's HTTP API, version 1: its paths and the zod schemas of its bodies, read by
 * both sides (the process that serves a simulated center and the service's remote client). Times
 * are epoch milliseconds of the process's clock, which owns the center's time.
 */
import { z } from 'zod';
import { callRecordSchema } from '../../../../contract/call-record.js';
import { agentStateSchema } from '../../../../contract/agents.js';
import { makeCallRequestSchema } from '../../../../contract/make-call.js';
import { subscriberSchema } from '../../../../contract/subscriber.js';
import type { PastAgentState, PastCalls, ProviderCall } from '../../phone-system.js';

export { nextPlacedCallSchema, simulatorFailureSchema } from '../../../../contract/simulator-control.js';

export const wirePaths = {
  /** GET: the center's settings (seed, agents, dial mode...), defaults filled in. */
  center: '/v1/center',
  /** GET: live and recently ended calls; POST: place a call. */
  calls: '/v1/calls',
  /** GET: the directory with each subscriber's phone and account status. */
  subscribers: '/v1/subscribers',
  /** GET ?since=&from=&to=: the past of a range, newline-delimited JSON batches. */
  past: '/v1/past',
  /** GET: a long-lived newline-delimited JSON stream with a line whenever the calls may have changed. */
  changes: '/v1/changes',
  /** PUT: make every request fail, stall or recover (processes started with --control). */
  failure: '/v1/control/failure',
  /** PUT: how the next placed call goes (processes started with --control). */
  nextPlacedCall: '/v1/control/next-placed-call',
} as const;

export const NDJSON = 'application/x-ndjson';

const epochMs = z.number().int().nonnegative();

export const wireCallSchema = callRecordSchema
  .omit({ providerID: true, providerName: true })
  .extend({
    startedAt: epochMs,
    answeredAt: epochMs.optional(),
    endedAt: epochMs.optional(),
    subscriberAnsweredAt: epochMs.optional(),
  }) satisfies z.ZodType<ProviderCall>;

export const listCallsBodySchema = z.object({ calls: z.array(wireCallSchema) });

export const placeCallBodySchema = makeCallRequestSchema;

export const subscribersBodySchema = z.object({ subscribers: z.array(subscriberSchema) });

const queryMs = z.coerce.number({ error: 'must be epoch milliseconds' }).int('must be whole milliseconds');

/** The past's range, as query parameters; PastRange's rule: `since` <= `from` < `to`. */
export const pastQuerySchema = z
  .strictObject({ since: queryMs, from: queryMs, to: queryMs })
  .refine((range) => range.from < range.to, { path: ['to'], message: 'must be after from' })
  .refine((range) => range.since <= range.from, { path: ['since'], message: 'must not be after from' });

/** What went wrong, by a code the client maps back to the error the simulator raised. */
export const wireErrorSchema = z.object({ code: z.string(), message: z.string() });
export type WireError = z.infer<typeof wireErrorSchema>;

export const errorBodySchema = z.object({ error: wireErrorSchema });

const wireAgentStateSchema = z.object({
  subscriberID: z.string(),
  at: epochMs,
  state: agentStateSchema,
  firstName: z.string(),
  lastName: z.string(),
  extension: z.string(),
}) satisfies z.ZodType<PastAgentState>;

/** One line of the past: a batch, or the error that ended it. */
export const pastLineSchema = z.union([
  z.object({ calls: z.array(wireCallSchema), through: epochMs, agentStates: z.array(wireAgentStateSchema).optional() }) satisfies z.ZodType<PastCalls>,
  errorBodySchema,
]);

/** One line of the change stream: `change` (sent first on every connection, too) or `keepalive`. */
export const changeLineSchema = z.object({ event: z.enum(['change', 'keepalive']) });
export type ChangeLine = z.infer<typeof changeLineSchema>;

export const centerBodySchema = z.object({
  name: z.string(),
  seed: z.number().int(),
  dialMode: z.enum(['two-step', 'direct']),
  agents: z.number().int(),
  traffic: z.number(),
  speed: z.number(),
  keepEndedMs: z.number().int(),
  emailDomain: z.string(),
  recordedCalls: z.number().int(),
  /** Whether the control routes are served. */
  control: z.boolean(),
});
export type CenterBody = z.infer<typeof centerBodySchema>;
