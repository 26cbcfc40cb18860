/** `queueID=` on a request: the queues it names, each one the provider's, or a 404 naming the one it does not have. */
import { NO_QUEUE } from '../../contract/queues.js';
import { ApiProblem } from '../http/api-problem.js';
import type { QueueConfig } from '../queues/queue-config.js';
import { parseQueueSelection, type QueueSelection } from '../queues/queue-selection.js';
import type { ProviderRuntime } from '../runtime/provider-runtimes.js';

export const QUEUE_ID_PARAMETER = {
  name: 'queueID',
  in: 'query' as const,
  description:
    `Extension: only the calls of this queue, of several (comma-separated), or \`${NO_QUEUE}\` for the calls in no queue. ` +
    "A queue the provider's config does not have is a 404 naming it.",
  schema: { type: 'string' },
};

/** The selection `text` names (already checked by `queueFilterSchema`), or undefined without one. */
export const resolveQueueSelection = (runtime: ProviderRuntime, text: string | undefined): QueueSelection | undefined => {
  if (text === undefined) return undefined;
  const selection = parseQueueSelection(text);
  for (const id of selection.ids)
    if (!runtime.queueDirectory.get(id)) {
      const known = runtime.queueDirectory.queues.map((queue) => queue.id);
      throw new ApiProblem(
        'not_found',
        `No queue "${id}" in provider "${runtime.config.id}": ${known.length === 0 ? 'it has no queues' : `its queues are ${known.join(', ')}`}.`,
        { errors: [{ field: 'queueID', message: `no queue "${id}"` }] },
      );
    }
  return selection;
};

/** The one queue a selection names, whose parameters become the defaults of a query about it. */
export const singleQueue = (runtime: ProviderRuntime, selection: QueueSelection | undefined): QueueConfig | undefined =>
  selection && !selection.none && selection.ids.length === 1 ? runtime.queueDirectory.get(selection.ids[0] as string) : undefined;
