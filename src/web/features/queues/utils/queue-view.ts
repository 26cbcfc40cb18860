/** What a view of some queues shows: their calls, their members on the agent board, and the scope every figure is asked with. */
import { totalsOf } from '../../../../contract/agents.js';
import { NO_QUEUE } from '../../../../contract/queue-filter.js';
import type { AgentBoardFeed } from '../../../lib/api/use-agent-board.js';
import { inQueueScope, type QueueScope } from '../../../lib/queue-scope.js';
import type { QueueRow } from '../hooks/use-queues.js';
import type { AgentQueues } from '../../agents/components/agent-board.js';

/** The scope of the queues chosen, with the one queue's own settings when one is; undefined for every call. */
export const queueScopeOf = (ids: readonly string[], rows: readonly QueueRow[]): QueueScope | undefined => {
  if (ids.length === 0) return undefined;
  const only = ids.length === 1 && ids[0] !== NO_QUEUE ? rows.find((row) => row.queue.queueID === ids[0])?.queue : undefined;
  return { ids, param: ids.join(','), single: only };
};

/** A key that changes only when what the scope asks for does (a poll brings new objects of the same queue). */
export const queueScopeKey = (scope: QueueScope | undefined): string =>
  scope === undefined ? '' : `${scope.param}|${scope.single ? `${scope.single.answerWithinSeconds}/${scope.single.shortAbandonSeconds}/${scope.single.serviceLevelTarget}` : ''}`;

export const callsInScope = <C extends { queueID?: string | undefined }>(calls: C[], scope: QueueScope | undefined): C[] =>
  scope === undefined ? calls : calls.filter((call) => inQueueScope(scope, call));

/** The board of the chosen queues' members (`none`: the agents in no queue), its totals counted again. */
export const boardInScope = (board: AgentBoardFeed, scope: QueueScope | undefined, rows: readonly QueueRow[]): AgentBoardFeed => {
  if (scope === undefined || rows.length === 0) return board;
  const members = new Set<string>();
  const queued = new Set<string>();
  for (const { providerID, queue } of rows)
    for (const member of queue.members) {
      const key = `${providerID}/${member}`;
      queued.add(key);
      if (scope.ids.includes(queue.queueID)) members.add(key);
    }
  const none = scope.ids.includes(NO_QUEUE);
  const agents = board.agents.filter(({ providerID, agent }) => {
    const key = `${providerID}/${agent.subscriberID}`;
    return members.has(key) || (none && !queued.has(key));
  });
  return { ...board, agents, totals: totalsOf(agents.map(({ agent }) => agent)) };
};

/** The names of the chosen queues, for the line that says what the page shows. */
export const scopeNames = (ids: readonly string[], rows: readonly QueueRow[]): string[] =>
  ids.map((id) => (id === NO_QUEUE ? 'calls in no queue' : (rows.find((row) => row.queue.queueID === id)?.queue.name ?? id)));

/** Who answers which queue, from the queues' members; undefined where the providers have no queues. */
export const agentQueuesOf = (rows: readonly QueueRow[]): AgentQueues | undefined => {
  if (rows.length === 0) return undefined;
  const byAgent = new Map<string, { ids: string[]; names: string[] }>();
  const queues = new Map<string, string>();
  for (const { providerID, queue } of rows) {
    queues.set(queue.queueID, queue.name);
    for (const member of queue.members) {
      const key = `${providerID}/${member}`;
      const held = byAgent.get(key) ?? { ids: [], names: [] };
      held.ids.push(queue.queueID);
      held.names.push(queue.name);
      byAgent.set(key, held);
    }
  }
  return {
    names: new Map([...byAgent].map(([key, held]) => [key, held.names.join(', ')])),
    queues: [...queues].map(([id, name]) => ({ id, name })),
    answers: ({ providerID, agent }, queueID) => {
      const ids = byAgent.get(`${providerID}/${agent.subscriberID}`)?.ids;
      return queueID === NO_QUEUE ? ids === undefined : (ids?.includes(queueID) ?? false);
    },
  };
};

/** What `agentQueuesOf` reads of the rows: the same text while no queue's name or members change. */
export const membershipKey = (rows: readonly QueueRow[]): string =>
  rows.map(({ providerID, queue }) => `${providerID}/${queue.queueID}:${queue.name}:${queue.members.join(',')}`).join('|');
