/** Which queues' calls a request asks for (`queueID=support,sales` or `queueID=none`), once its IDs are known to exist. */
import { NO_QUEUE } from '../../contract/queues.js';
import type { ProviderCall } from '../providers/phone-system.js';

export interface QueueSelection {
  /** Configured queue IDs. */
  readonly ids: readonly string[];
  /** The calls in no queue. */
  readonly none: boolean;
}

/** The selection a valid `queueID=` value names (the contract's `queueFilterSchema` checked its form). */
export const parseQueueSelection = (text: string): QueueSelection => {
  const names = text.split(',');
  return { ids: names.filter((name) => name !== NO_QUEUE), none: names.includes(NO_QUEUE) };
};

/** Whether a call is one the selection asks for. */
export const selects = (selection: QueueSelection, call: Pick<ProviderCall, 'queueID'>): boolean =>
  call.queueID === undefined ? selection.none : selection.ids.includes(call.queueID);
