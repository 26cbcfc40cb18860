/**
 * The agent boards of the providers on screen, as one list: filled by the tab's change stream
 * (which `useCallsFeed` holds open), or polled while the stream cannot be had.
 */
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Agent, AgentTotals } from '../../../contract/agents.js';
import type { ProviderScope } from '../../../contract/paths.js';
import { usePolling } from '../polling-context.js';
import { agentsQueryOptions, type AgentsData } from './agents-query.js';
import { useApi } from './api-context.js';
import type { ApiError } from './api-error.js';
import type { StreamMode } from './call-stream.js';
import { identityOfLists } from './list-identity.js';

/** An agent with the provider it belongs to (subscriber IDs are unique per provider only). */
export interface BoardAgent {
  providerID: string;
  agent: Agent;
}

export interface AgentBoardFeed {
  status: 'pending' | 'ready' | 'error';
  agents: BoardAgent[];
  totals: AgentTotals;
  /** The earliest `dayStart` of the providers: where "today" begins. */
  dayStart?: string;
  error?: ApiError;
}

const EMPTY_TOTALS: AgentTotals = { offline: 0, inactive: 0, available: 0, ringing: 0, onCall: 0 };

const addTotals = (a: AgentTotals, b: AgentTotals): AgentTotals => ({
  offline: a.offline + b.offline,
  inactive: a.inactive + b.inactive,
  available: a.available + b.available,
  ringing: a.ringing + b.ringing,
  onCall: a.onCall + b.onCall,
});

/** Keeps the pair object of an agent whose record is unchanged, so its tile keeps its props. */
const pairCache = new WeakMap<Agent, BoardAgent>();
const pairOf = (providerID: string, agent: Agent): BoardAgent => {
  let pair = pairCache.get(agent);
  if (!pair || pair.providerID !== providerID) {
    pair = { providerID, agent };
    pairCache.set(agent, pair);
  }
  return pair;
};

/** `enabled: false` (a wallboard without the board) polls nothing, even while the stream cannot be had. */
export const useAgentBoard = (scopes: readonly ProviderScope[], mode: StreamMode, { enabled = true }: { enabled?: boolean } = {}): AgentBoardFeed => {
  const client = useApi();
  const { paused } = usePolling();
  const results = useQueries({
    queries: scopes.map((scope) => agentsQueryOptions(client, scope, { enabled: enabled && !paused && mode === 'polling' })),
  }) as UseQueryResult<AgentsData, ApiError>[];
  const boards = results.map((result) => result.data);
  const identity = identityOfLists(boards.map((board) => board?.agents));
  const agents = useMemo(
    () => boards.flatMap((board, i) => (board ? board.agents.map((agent) => pairOf(scopes[i]?.providerID ?? '', agent)) : [])),
    // Recombined only when one provider's list is a new array: the identity string says exactly when.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [identity],
  );
  const loaded = boards.filter((board): board is AgentsData => board !== undefined);
  const failing = results.find((result) => result.isError);
  return {
    status: loaded.length > 0 ? 'ready' : failing ? 'error' : 'pending',
    agents,
    totals: loaded.reduce((sum, board) => addTotals(sum, board.totals), EMPTY_TOTALS),
    dayStart: loaded.map((board) => board.dayStart).sort()[0],
    error: failing?.error ?? undefined,
  };
};
