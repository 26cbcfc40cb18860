/**
 * The change stream (our extension): Server-Sent Events carrying, per provider, a snapshot of its
 * list and then only what changed, so a dashboard is pushed each change instead of re-polling.
 */
import { z } from 'zod';
import { agentChangesEventSchema, agentsSnapshotEventSchema, type AgentChangesEvent, type AgentsSnapshotEvent } from './agents.js';
import { callRecordSchema } from './call-record.js';
import { problemSchema } from './problem.js';
import { queueChangesEventSchema, queuesSnapshotEventSchema, type QueueChangesEvent, type QueuesSnapshotEvent } from './queues.js';

/** Query parameter naming the providers a stream follows, comma-separated. */
export const STREAM_PROVIDERS_PARAM = 'providers';
/** Query parameter naming what a stream carries besides the calls, comma-separated: `agents` (the agent board), `queues` (the queues' figures). */
export const STREAM_INCLUDE_PARAM = 'include';
export const STREAM_INCLUDES = ['agents', 'queues'] as const;
export type StreamInclude = (typeof STREAM_INCLUDES)[number];
/** The most providers one stream follows. */
export const MAX_STREAM_PROVIDERS = 20;
/** Milliseconds a client waits before reconnecting, sent as the stream's `retry:` field. */
export const STREAM_RETRY_MS = 2000;
/**
 * A comment line this often keeps proxies from closing an idle stream and tells the client the
 * stream is alive: no byte for STREAM_DEAD_AFTER_MS means a dead stream, shown as not live.
 */
export const STREAM_HEARTBEAT_MS = 5_000;
export const STREAM_DEAD_AFTER_MS = 3 * STREAM_HEARTBEAT_MS;

/** The whole list of one provider: replace what you hold for it. */
export const snapshotEventSchema = z.object({
  providerID: z.string().min(1),
  /** The provider's position in its change log: opaque, compared by equality only. */
  cursor: z.string().min(1),
  calls: z.array(callRecordSchema),
  /** Age of the provider snapshot these calls come from, in milliseconds. */
  snapshotAgeMs: z.number().int().nonnegative(),
}).meta({ id: 'StreamSnapshotEvent' });
export type SnapshotEvent = z.infer<typeof snapshotEventSchema>;

/** What changed in one sync: replace or add each upserted record, drop each removed call ID. */
export const changesEventSchema = z.object({
  providerID: z.string().min(1),
  cursor: z.string().min(1),
  upserted: z.array(callRecordSchema),
  removed: z.array(z.string().min(1)),
}).meta({ id: 'StreamChangesEvent' });
export type ChangesEvent = z.infer<typeof changesEventSchema>;

/**
 * The provider's health: sent when it starts failing (still served from its last snapshot), when
 * that snapshot grows too old to serve (`available: false`), and when it recovers.
 */
export const statusEventSchema = z.object({
  providerID: z.string().min(1),
  available: z.boolean(),
  /** Age of the last good snapshot; absent before the first one. */
  snapshotAgeMs: z.number().int().nonnegative().optional(),
  /** Why the provider is failing, as the list would answer it; absent once it recovered. */
  problem: problemSchema.optional(),
  /**
   * What works less well while the calls still arrive, in a sentence: the provider's event socket is
   * down, so its calls are polled and changes show later. Absent while all is well.
   */
  degraded: z.string().optional(),
}).meta({ id: 'StreamStatusEvent' });
export type StatusEvent = z.infer<typeof statusEventSchema>;

export const streamEventSchemas = {
  snapshot: snapshotEventSchema,
  changes: changesEventSchema,
  status: statusEventSchema,
  agents: agentsSnapshotEventSchema,
  'agent-changes': agentChangesEventSchema,
  queues: queuesSnapshotEventSchema,
  'queue-changes': queueChangesEventSchema,
} as const;
export type StreamEventName = keyof typeof streamEventSchemas;

export type StreamEvent =
  | { event: 'snapshot'; data: SnapshotEvent }
  | { event: 'changes'; data: ChangesEvent }
  | { event: 'status'; data: StatusEvent }
  | { event: 'agents'; data: AgentsSnapshotEvent }
  | { event: 'agent-changes'; data: AgentChangesEvent }
  | { event: 'queues'; data: QueuesSnapshotEvent }
  | { event: 'queue-changes'; data: QueueChangesEvent };

/** Validates the `providers` query: 1 to MAX_STREAM_PROVIDERS distinct IDs; every problem names `providers`. */
export const streamQuerySchema = z.strictObject({
  [STREAM_PROVIDERS_PARAM]: z
    .string({ error: 'is required: the comma-separated IDs of the providers to follow' })
    .transform((text, ctx) => {
      const ids = text.split(',').map((id) => id.trim());
      const problem =
        text.trim() === ''
          ? 'must name at least one provider'
          : ids.includes('')
            ? 'must not contain an empty provider ID'
            : ids.length > MAX_STREAM_PROVIDERS
              ? `must name at most ${MAX_STREAM_PROVIDERS} providers`
              : new Set(ids).size !== ids.length
                ? 'must not name a provider twice'
                : undefined;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
      return ids;
    }),
  [STREAM_INCLUDE_PARAM]: z
    .string()
    .transform((text, ctx) => {
      const names = text.split(',').map((name) => name.trim());
      const unknown = names.find((name) => !(STREAM_INCLUDES as readonly string[]).includes(name));
      if (unknown !== undefined)
        ctx.addIssue({ code: 'custom', message: `names "${unknown}", which is not one of ${STREAM_INCLUDES.map((n) => `"${n}"`).join(', ')}` });
      return new Set(names as StreamInclude[]);
    })
    .optional(),
});
