/**
 * Ended calls a provider no longer lists, kept for date-window queries. A call that vanished
 * without an end time is closed at the sync that noticed, and marked so: no ghost stays live.
 */
import type { ProviderCall } from '../providers/phone-system.js';

export interface EndedCall extends ProviderCall {
  endedAt: number;
  /** True when the provider never reported the end: the service closed it when it vanished. */
  closedBySync: boolean;
}

export interface EndedCallMemoryOptions {
  retentionMs: number;
  maxCalls: number;
}

export class EndedCallMemory {
  /** Insertion order is end order (roughly), which makes pruning the oldest cheap. */
  private readonly calls = new Map<string, EndedCall>();

  constructor(private readonly options: EndedCallMemoryOptions = { retentionMs: 24 * 3600_000, maxCalls: 200_000 }) {}

  get size(): number {
    return this.calls.size;
  }

  remember(calls: readonly ProviderCall[]): void {
    for (const call of calls) if (call.endedAt !== undefined) this.put({ ...call, endedAt: call.endedAt, closedBySync: false });
  }

  /** Compares two consecutive snapshots (each sorted the same way) and records what ended. */
  noteTransition(before: readonly ProviderCall[], after: readonly ProviderCall[], at: number): void {
    const present = new Set<string>();
    for (const call of after) {
      present.add(call.callID);
      if (call.endedAt !== undefined && !this.calls.has(call.callID)) this.put({ ...call, endedAt: call.endedAt, closedBySync: false });
    }
    for (const call of before) {
      if (present.has(call.callID) || this.calls.has(call.callID)) continue;
      this.put({ ...call, endedAt: call.endedAt ?? at, closedBySync: call.endedAt === undefined });
    }
    this.prune(at);
  }

  /** Ended calls that were live at some moment of [from, to]. */
  overlapping(from: number, to: number): EndedCall[] {
    const found: EndedCall[] = [];
    for (const call of this.calls.values()) if (call.startedAt <= to && call.endedAt >= from) found.push(call);
    return found;
  }

  private put(call: EndedCall): void {
    this.calls.set(call.callID, call);
  }

  private prune(now: number): void {
    const oldest = now - this.options.retentionMs;
    for (const [id, call] of this.calls) {
      if (this.calls.size <= this.options.maxCalls && call.endedAt >= oldest) break;
      this.calls.delete(id);
    }
  }
}
