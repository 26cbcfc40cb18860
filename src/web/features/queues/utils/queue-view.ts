/** What a view of some queues shows: their calls, their members on the agent board, and the scope every figure is asked with. */
import { totalsOf } from '../../../../contract/agents.js';
import { NO_QUEUE } from '../../../../contract/queue-filter.js';
import type { AgentBoardFeed } from '../../../lib/api/use-agent-board.js';
import { inQueueScope, type QueueScope } from '../../../lib/queue-scope.js';
import type { QueueRow } from '../../../lib/api/use-queues.js';

/** The scope of the queues chosen, with the one queue's own settings when one is; undefined for every call. */
export const queueScopeOf = (ids: readonly string[], rows: readonly QueueRow[]): QueueScope | undefined => {
  if (ids.length === 0) return undefined;
  const only = ids.length === 1 && ids[0] !== NO_QUEUE ? rows.find((row) => row.queue.queueID === ids[0])?.queue : undefined;
  return { ids, param: ids.join(','), single: only };
};

/** A key that changes only when what the scope asks for does (a poll brings new objects of the same queue). */
export const queueScopeKey = (scope: QueueScope | undefined): string =>
  scope === undefined
    ? ''
    : `${scope.param}|${scope.single ? `${scope.single.answerWithinSeconds}/${scope.single.shortAbandonSeconds}/${scope.single.serviceLevelTarget}` : ''}`;

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
