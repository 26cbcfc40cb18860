/**
 * `queueID=` on a request: the queues it names, each one the provider's and the asker's to see, or
 * a 404 naming the one it does not have. A person who sees only some calls gets, when they ask for
 * no queue, the selection of what they may see: their queues' calls and, for an agent, their own.
 */
import { NO_QUEUE } from '../../contract/queues.js';
import { providerKey, type Principal } from '../auth/token-index.js';
import { ApiProblem } from '../http/api-problem.js';
import type { QueueConfig } from '../queues/queue-config.js';
import { parseQueueSelection, type QueueSelection } from '../queues/queue-selection.js';
import type { ProviderRuntime } from '../runtime/provider-runtimes.js';

export const QUEUE_ID_PARAMETER = {
  name: 'queueID',
  in: 'query' as const,
  description:
    `Extension: only the calls of this queue, of several (comma-separated), or \`${NO_QUEUE}\` for the calls in no queue. ` +
    "A queue the provider's config does not have, or one the asker may not see, is a 404 naming it.",
  schema: { type: 'string' },
};

/** The provider's queues the principal may see, in the config's order. */
export const visibleQueueIDs = (runtime: ProviderRuntime, principal: Principal): string[] => {
  const ids = runtime.queueDirectory.queues.map((queue) => queue.id);
  const view = principal.view;
  return view === undefined ? ids : ids.filter((id) => view.queues.has(id));
};

/** An agent's own subscribers at this provider. */
const ownSubscribers = (runtime: ProviderRuntime, principal: Principal): string[] => [
  ...(principal.view?.subscribers.get(providerKey(runtime.scope)) ?? []),
];

/**
 * The selection `text` names (already checked by `queueFilterSchema`); without one, undefined for a
 * principal who sees every call, else what it may see.
 */
export const resolveQueueSelection = (runtime: ProviderRuntime, text: string | undefined, principal: Principal): QueueSelection | undefined => {
  const view = principal.view;
  const visible = visibleQueueIDs(runtime, principal);
  if (text === undefined) {
    if (view === undefined) return undefined;
    const subscribers = ownSubscribers(runtime, principal);
    return { ids: visible, none: false, ...(subscribers.length ? { subscribers } : {}) };
  }
  const selection = parseQueueSelection(text);
  const notFound = (id: string) =>
    new ApiProblem(
      'not_found',
      `No queue "${id}" in provider "${runtime.config.id}"${view ? ' that you may see' : ''}: ${visible.length === 0 ? 'it has no queues' : `its queues are ${visible.join(', ')}`}.`,
      { errors: [{ field: 'queueID', message: `no queue "${id}"` }] },
    );
  for (const id of selection.ids) if (!visible.includes(id)) throw notFound(id);
  // The calls in no queue are nobody's queue: only a principal who sees every call may ask for them all.
  if (selection.none && view !== undefined) throw notFound(NO_QUEUE);
  return selection;
};

/** The one queue a selection names, whose parameters become the defaults of a query about it. */
export const singleQueue = (runtime: ProviderRuntime, selection: QueueSelection | undefined): QueueConfig | undefined =>
  selection && !selection.none && !selection.subscribers?.length && selection.ids.length === 1
    ? runtime.queueDirectory.get(selection.ids[0] as string)
    : undefined;

/** A provider's queue figures as a principal may see them: its queues only, and the calls in no queue only for one who sees every call. */
export const visibleQueueFigures = <T extends { queues: readonly { queueID: string }[]; unqueued?: unknown }>(
  runtime: ProviderRuntime,
  principal: Principal,
  figures: T,
): T => {
  if (principal.view === undefined) return figures;
  const visible = new Set(visibleQueueIDs(runtime, principal));
  const { unqueued: _hidden, ...rest } = figures;
  return { ...rest, queues: figures.queues.filter((queue) => visible.has(queue.queueID)) } as unknown as T;
};

/** The subscribers whose agents a principal sees: its queues' members and its own; undefined for one who sees everyone. */
export const visibleSubscribers = (runtime: ProviderRuntime, principal: Principal): ReadonlySet<string> | undefined => {
  const selection = resolveQueueSelection(runtime, undefined, principal);
  if (!selection) return undefined;
  return new Set([...selection.ids.flatMap((id) => runtime.queueDirectory.get(id)?.members ?? []), ...(selection.subscribers ?? [])]);
};
