/**
 * The agent board of each provider on screen: pushed by the change stream (`agents`, then
 * `agent-changes`) into one query per provider, or polled into the same query while the stream
 * cannot be had. An agent whose record did not change keeps its object, so its tile does not re-render.
 */
import { queryOptions } from '@tanstack/react-query';
import { listAgentsResponseSchema, type Agent, type AgentChangesEvent, type AgentTotals, type ListAgentsResponse } from '../../../contract/agents.js';
import { paths, type ProviderScope } from '../../../contract/paths.js';
import type { ApiClient } from './api-client.js';
import { providerKey } from './query-keys.js';

export interface AgentsData {
  agents: Agent[];
  totals: AgentTotals;
  dayStart: string;
  figuresAt: string;
  /** When this browser received it (epoch ms). */
  receivedAt: number;
}

export const agentKeys = {
  all: ['agents'] as const,
  board: (baseURL: string, scope: ProviderScope) => [...agentKeys.all, ...providerKey(baseURL, scope)] as const,
};

/** The board polls slower than the calls: a state lasts seconds at least, and the stream is the usual way. */
export const AGENTS_POLL_MS = 5000;

const sameAgent = (a: Agent, b: Agent): boolean => {
  for (const key in b) if (a[key as keyof Agent] !== b[key as keyof Agent]) return false;
  return Object.keys(a).length === Object.keys(b).length;
};

/** A whole board, the agents equal to those held keeping their objects. */
export const boardFrom = (response: ListAgentsResponse, before: AgentsData | undefined, receivedAt: number): AgentsData => {
  const held = new Map(before?.agents.map((agent) => [agent.subscriberID, agent]));
  const agents = response.agents.map((agent) => {
    const was = held.get(agent.subscriberID);
    return was && sameAgent(was, agent) ? was : agent;
  });
  return { agents, totals: response.totals, dayStart: response.dayStart, figuresAt: response.figuresAt, receivedAt };
};

/** A board with a change applied: changed agents replaced where they stand, new ones added at the end, those that left removed. */
export const applyAgentChanges = (before: AgentsData, change: AgentChangesEvent, receivedAt: number): AgentsData => {
  const upserted = new Map(change.upserted.map((agent) => [agent.subscriberID, agent]));
  const removed = new Set(change.removed);
  const agents: Agent[] = [];
  for (const agent of before.agents) {
    if (removed.has(agent.subscriberID)) continue;
    const next = upserted.get(agent.subscriberID);
    upserted.delete(agent.subscriberID);
    agents.push(next ?? agent);
  }
  agents.push(...upserted.values());
  return { agents, totals: change.totals, dayStart: change.dayStart, figuresAt: change.figuresAt, receivedAt };
};

export const agentsQueryOptions = (client: ApiClient, scope: ProviderScope, polling: { enabled: boolean; intervalMs?: number }) =>
  queryOptions({
    queryKey: agentKeys.board(client.baseURL, scope),
    queryFn: async ({ signal, client: queryClient }) => {
      const response = await client.get(paths.agents(scope), listAgentsResponseSchema, signal);
      return boardFrom(response, queryClient.getQueryData<AgentsData>(agentKeys.board(client.baseURL, scope)), Date.now());
    },
    // The stream fills it; a poll runs only while the stream cannot be had.
    enabled: polling.enabled,
    refetchInterval: polling.enabled ? (polling.intervalMs ?? AGENTS_POLL_MS) : false,
    staleTime: Infinity,
    retry: 1,
  });
