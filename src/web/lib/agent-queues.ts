/** Who answers which queue, from the queues' members: for the agent board's tiles and its filter by queue. */
import { NO_QUEUE } from '../../contract/queue-filter.js';
import type { BoardAgent } from './api/use-agent-board.js';
import type { QueueRow } from './api/use-queues.js';

/** Who answers which queue: each agent's queue names as one line, the queues to filter by, and whether an agent answers one. */
export interface AgentQueues {
  /** By `providerID/subscriberID`: the names of the queues they answer, comma-separated. */
  names: ReadonlyMap<string, string>;
  queues: readonly { id: string; name: string }[];
  answers: (entry: BoardAgent, queueID: string) => boolean;
}

/** Who answers which queue; undefined where the providers have no queues. */
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
