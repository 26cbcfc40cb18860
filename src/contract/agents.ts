/**
 * The agent board (our extension): each subscriber's state as the service derives it from the
 * provider's subscribers (registered, active) and its live calls, with today's figures from the
 * call journal. Nothing is invented: a state the provider cannot tell is not shown.
 */
import { z } from 'zod';
import { remoteNumberSchema, timestampSchema } from './call-record.js';
import { queueFilterSchema } from './queue-filter.js';

/** `queueID=`: only the members of these queues (comma-separated), or `none` for the agents in no queue. */
export const listAgentsQuerySchema = z.strictObject({ queueID: queueFilterSchema.optional() });

export const AGENT_STATES = ['offline', 'inactive', 'available', 'ringing', 'on-call'] as const;
export const agentStateSchema = z.enum(AGENT_STATES);
export type AgentState = z.infer<typeof agentStateSchema>;

/** What each state means, stated once for the API description and the screen. */
export const AGENT_STATE_DEFINITIONS: Record<AgentState, string> = {
  offline: 'the phone is not registered with the provider, and no call of theirs is live',
  inactive: "the subscriber's account is disabled at the provider, and no call of theirs is live",
  available: 'registered (or the provider cannot tell registration) and active, with no live call',
  ringing: 'a live call rings them: an inbound call offered to them, or their own device on a click-to-call before they pick up',
  'on-call': 'a live call of theirs is connected, or their click-to-call is dialing the remote party after they picked up',
};

export const agentSchema = z
  .object({
    subscriberID: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    extension: z.string(),
    state: agentStateSchema,
    since: timestampSchema.meta({
      description:
        'When the state began: the answer (on-call), the end of their last call (available after one), otherwise when the service first saw it.',
    }),
    callID: z.string().optional().meta({ description: 'Ringing or on-call: the call.' }),
    remoteNumber: remoteNumberSchema.optional(),
    remoteName: z.string().optional(),
    isOutbound: z.boolean().optional(),
    callsToday: z.number().int().nonnegative(),
    missedToday: z.number().int().nonnegative(),
    talkSecondsToday: z.number().int().nonnegative(),
  })
  .meta({ id: 'Agent' });
export type Agent = z.infer<typeof agentSchema>;

export const agentTotalsSchema = z
  .object({
    offline: z.number().int().nonnegative(),
    inactive: z.number().int().nonnegative(),
    available: z.number().int().nonnegative(),
    ringing: z.number().int().nonnegative(),
    onCall: z.number().int().nonnegative(),
  })
  .meta({ id: 'AgentTotals' });
export type AgentTotals = z.infer<typeof agentTotalsSchema>;

export const TOTAL_KEY: Record<AgentState, keyof AgentTotals> = {
  offline: 'offline',
  inactive: 'inactive',
  available: 'available',
  ringing: 'ringing',
  'on-call': 'onCall',
};

export const listAgentsResponseSchema = z
  .object({
    agents: z.array(agentSchema),
    totals: agentTotalsSchema,
    dayStart: timestampSchema.meta({ description: "Midnight in the service's time zone (`timeZone` in its config): where today's figures start." }),
    figuresAt: timestampSchema.meta({ description: "When today's figures were last counted from the journal." }),
  })
  .meta({ id: 'ListAgentsResponse' });
export type ListAgentsResponse = z.infer<typeof listAgentsResponseSchema>;

/** The stream's `agents` event: the whole board of one provider; replace what you hold for it. */
export const agentsSnapshotEventSchema = listAgentsResponseSchema
  .extend({ providerID: z.string().min(1), cursor: z.string().min(1) })
  .meta({ id: 'StreamAgentsEvent' });
export type AgentsSnapshotEvent = z.infer<typeof agentsSnapshotEventSchema>;

/** The stream's `agent-changes` event: agents whose record changed, in full, the IDs that left, and the new totals. */
export const agentChangesEventSchema = z
  .object({
    providerID: z.string().min(1),
    cursor: z.string().min(1),
    upserted: z.array(agentSchema),
    removed: z.array(z.string()),
    totals: agentTotalsSchema,
    dayStart: timestampSchema,
    figuresAt: timestampSchema,
  })
  .meta({ id: 'StreamAgentChangesEvent' });
export type AgentChangesEvent = z.infer<typeof agentChangesEventSchema>;

/** Counts the agents per state. */
export const totalsOf = (agents: Iterable<Pick<Agent, 'state'>>): AgentTotals => {
  const totals: AgentTotals = { offline: 0, inactive: 0, available: 0, ringing: 0, onCall: 0 };
  for (const agent of agents) totals[TOTAL_KEY[agent.state]] += 1;
  return totals;
};
