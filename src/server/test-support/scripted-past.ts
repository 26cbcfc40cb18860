/**
 * A provider's past for the service's backfill tests: calls end on every whole minute (as many
 * as `callsAt` says), each run names its calls afresh (as a simulator's separate runs do), and a
 * test can hold it after a number of batches to stop or restart the service in the middle.
 */
import type { PastCalls, PastRange, ProviderCall } from '../providers/phone-system.js';
import { providerCall } from './provider-call.js';

export const MINUTE = 60_000;
/** How long every scripted call lasts: the first one whole after `since` ends a minute later. */
export const CALL_MS = 30_000;

export interface ScriptedPastOptions {
  /** Calls that end at a whole minute (default 1). */
  callsAt?: (endedAt: number) => number;
  /** Calls per batch (default 100). */
  batchCalls?: number;
  /** Fails instead of yielding this batch (counted over every run). */
  failAtBatch?: number;
}

/** Runs of every scripted past, so that no two runs name a call alike. */
let runs = 0;

interface Hold {
  afterBatches: number;
  reached: () => void;
  released: Promise<void>;
  release: () => void;
}

export class ScriptedPast {
  readonly ranges: PastRange[] = [];
  batches = 0;
  /** Set when a run saw its signal abort while held. */
  aborted = false;
  private hold: Hold | undefined;

  constructor(private readonly options: ScriptedPastOptions = {}) {}

  /** Waits before the batch after the `batches`th until released (or aborted); `reached` says it is waiting. */
  holdAfter(batches: number): { reached: Promise<void>; release: () => void } {
    let reached = () => {};
    let release = () => {};
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.hold = { afterBatches: batches, reached, released, release };
    return { reached: reachedPromise, release };
  }

  readonly backfill = (range: PastRange, signal: AbortSignal): AsyncIterable<PastCalls> => {
    this.ranges.push(range);
    runs += 1;
    return this.run(range, signal, runs);
  };

  private async *run(range: PastRange, signal: AbortSignal, runNo: number): AsyncGenerator<PastCalls> {
    const { batchCalls = 100, callsAt = () => 1 } = this.options;
    let calls: ProviderCall[] = [];
    for (let end = Math.ceil(range.from / MINUTE) * MINUTE; end < range.to; end += MINUTE) {
      if (end - CALL_MS < range.since) continue;
      for (let i = 0; i < callsAt(end); i += 1)
        calls.push(providerCall(`run${runNo}-${end}-${i}`, end - CALL_MS, { endedAt: end }));
      if (calls.length >= batchCalls) {
        yield await this.batch(calls, end + 1, signal);
        calls = [];
      }
    }
    yield await this.batch(calls, range.to, signal);
  }

  private async batch(calls: ProviderCall[], through: number, signal: AbortSignal): Promise<PastCalls> {
    signal.throwIfAborted();
    await this.waitIfHeld(signal);
    this.batches += 1;
    if (this.batches === this.options.failAtBatch) throw new Error('the scripted past failed');
    return { calls, through };
  }

  private async waitIfHeld(signal: AbortSignal): Promise<void> {
    const hold = this.hold;
    if (!hold || this.batches < hold.afterBatches) return;
    hold.reached();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.aborted = true;
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      void hold.released.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
    this.hold = undefined;
  }
}

/** Whole minutes in [from, to): where a complete scripted past has its calls' ends. */
export const minutesIn = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let end = Math.ceil(from / MINUTE) * MINUTE; end < to; end += MINUTE) out.push(end);
  return out;
};
