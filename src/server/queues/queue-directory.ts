/**
 * Which configured queue a call was offered to, in this order: the phone system's own queue, where
 * it tells one and a queue lists it in `providerQueues`; else the number the caller dialed, matched
 * against the queues' `numbers`; else none. Outbound calls have no queue. Each phone system's
 * adapter asks here as it reads a call; the service then keeps the first queue a call was known in
 * (`withKnownFacts`), so a transfer to another queue does not move it.
 */
import type { ProviderCall } from '../providers/phone-system.js';
import { numberKey, type QueueConfig } from './queue-config.js';

/** What a phone system tells of where an inbound call went. */
export interface QueueHint {
  isOutbound: boolean;
  /** The number the caller dialed, as the phone system tells it. */
  calledNumber?: string | undefined;
  /** The phone system's own queue the call is in (its name or ID as the phone system gives it). */
  providerQueue?: string | undefined;
}

export type QueueFields = Pick<ProviderCall, 'queueID' | 'queueName'>;

export class QueueDirectory {
  private readonly byNumber = new Map<string, QueueConfig>();
  private readonly byProviderQueue = new Map<string, QueueConfig>();
  private readonly byID = new Map<string, QueueConfig>();

  constructor(readonly queues: readonly QueueConfig[]) {
    for (const queue of queues) {
      this.byID.set(queue.id, queue);
      for (const number of queue.numbers) this.byNumber.set(numberKey(number), queue);
      for (const name of queue.providerQueues) this.byProviderQueue.set(name, queue);
    }
  }

  static readonly EMPTY = new QueueDirectory([]);

  get size(): number {
    return this.queues.length;
  }

  get(queueID: string): QueueConfig | undefined {
    return this.byID.get(queueID);
  }

  /** The queue a call with these facts belongs to, or undefined. */
  queueOf(hint: QueueHint): QueueConfig | undefined {
    if (hint.isOutbound || this.queues.length === 0) return undefined;
    const told = hint.providerQueue === undefined ? undefined : this.byProviderQueue.get(hint.providerQueue);
    if (told) return told;
    return hint.calledNumber === undefined || hint.calledNumber === '' ? undefined : this.byNumber.get(numberKey(hint.calledNumber));
  }

  /** The call's queue fields (none when it has no queue), to spread into its record. */
  fieldsOf(hint: QueueHint): QueueFields {
    const queue = this.queueOf(hint);
    return queue ? { queueID: queue.id, queueName: queue.name } : {};
  }
}
