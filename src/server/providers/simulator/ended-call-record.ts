/**
 * The live center's ended calls, the newest kept up to a bound: a simulator that outlives the
 * services reading it tells its own past from here rather than from a separate run.
 */
import type { ProviderCall } from '../phone-system.js';
import { Fifo } from './fifo.js';

interface Recorded {
  readonly call: ProviderCall;
  /** When it ended, in simulated time: calls end in this order. */
  readonly simEnd: number;
}

export class EndedCallRecord {
  private readonly recorded = new Fifo<Recorded>();
  private dropped: number | undefined;

  constructor(private readonly capacity: number) {}

  /** Simulated time through which calls were dropped to keep the bound; undefined while none was. */
  get droppedThrough(): number | undefined {
    return this.dropped;
  }

  /** Takes calls in the order they end; past the bound the oldest goes. */
  add(call: ProviderCall, simEnd: number): void {
    if (this.capacity === 0) return;
    this.recorded.push({ call, simEnd });
    if (this.recorded.size > this.capacity) this.dropped = this.recorded.shift()?.simEnd;
  }

  /** The kept calls that ended after the simulated time `after` (all of them without it), oldest first. */
  kept(after = -Infinity): ProviderCall[] {
    const calls: ProviderCall[] = [];
    for (const { call, simEnd } of this.recorded.values()) if (simEnd > after) calls.push(call);
    return calls;
  }
}
