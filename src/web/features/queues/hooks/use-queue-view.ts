/**
 * The queues of the providers on screen and the ones the view is narrowed to (`?queue=`): the
 * chosen scope as one object while the chosen queues and their parameters stay, so every figure
 * asked with it keeps its query, and the calls and the board seen through it.
 */
import { useMemo } from 'react';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { AgentBoardFeed } from '../../../lib/api/use-agent-board.js';
import type { StreamMode } from '../../../lib/api/call-stream.js';
import { useQueues, type QueuesFeed } from '../../../lib/api/use-queues.js';
import { membershipKey } from '../../../lib/agent-queues.js';
import { useQueueParam, type QueueScope } from '../../../lib/queue-scope.js';
import { boardInScope, callsInScope, queueScopeKey, queueScopeOf } from '../utils/queue-view.js';

export interface QueueView<C> {
  queues: QueuesFeed;
  /** The queue IDs in the page's address, and how to choose others. */
  queueIDs: string[];
  setQueueIDs: (ids: readonly string[]) => void;
  /** Undefined while every call is in view. */
  queueScope: QueueScope | undefined;
  /** The calls in the scope: the same array while no queue is chosen. */
  scopedCalls: C[];
}

export const useQueueView = <C extends { queueID?: string | undefined }>(scopes: readonly ProviderScope[], mode: StreamMode, calls: C[]): QueueView<C> => {
  const queues = useQueues(scopes, mode);
  const [queueIDs, setQueueIDs] = useQueueParam();
  const candidate = queueScopeOf(queueIDs, queues.rows);
  const scopeKey = queueScopeKey(candidate);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const queueScope = useMemo(() => candidate, [scopeKey]);
  const scopedCalls = useMemo(() => callsInScope(calls, queueScope), [calls, queueScope]);
  return { queues, queueIDs, setQueueIDs, queueScope, scopedCalls };
};

/**
 * The agent board seen through the view's queues: their members only. Filtered again when the board
 * or the queues' membership changes, not at each change of the queues' figures.
 */
export const useBoardInScope = (board: AgentBoardFeed, view: { queueScope: QueueScope | undefined; queues: QueuesFeed }): AgentBoardFeed => {
  const { queueScope, queues } = view;
  const membership = membershipKey(queues.rows);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => boardInScope(board, queueScope, queues.rows), [board, queueScope, membership]);
};
