/**
 * Which queues' calls a request asks for (`queueID=support,sales` or `queueID=none`), once its IDs
 * are known to exist; for a person who sees only some calls, what they may see when they ask for nothing.
 */
import { NO_QUEUE } from '../../contract/queues.js';
import type { ProviderCall } from '../providers/phone-system.js';

export interface QueueSelection {
  /** Configured queue IDs. */
  readonly ids: readonly string[];
  /** The calls in no queue. */
  readonly none: boolean;
  /** Also these subscribers' calls, whatever their queue: an agent's own. */
  readonly subscribers?: readonly string[];
}

/** The selection a valid `queueID=` value names (the contract's `queueFilterSchema` checked its form). */
export const parseQueueSelection = (text: string): QueueSelection => {
  const names = text.split(',');
  return { ids: names.filter((name) => name !== NO_QUEUE), none: names.includes(NO_QUEUE) };
};

/** Whether a call is one the selection asks for. */
export const selects = (selection: QueueSelection, call: Pick<ProviderCall, 'queueID' | 'subscriberID'>): boolean =>
  (call.queueID === undefined ? selection.none : selection.ids.includes(call.queueID)) ||
  (call.subscriberID !== undefined && selection.subscribers?.includes(call.subscriberID) === true);
