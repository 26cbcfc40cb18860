/**
 * One feed of "the calls may have changed" for every change stream a simulator process serves:
 * from the phone system's own `watchChanges`, or by comparing its calls at a short interval when
 * it cannot tell; running only while someone listens, and at most one tick per gap.
 */
import { createHash } from 'node:crypto';
import type { PhoneSystem, ProviderCall } from '../../phone-system.js';

type Watch = (onChange: () => void) => () => void;

export interface ChangeFeedOptions {
  /** How often the calls are compared when the phone system cannot tell its changes (ms). */
  pollMs: number;
  /** Ticks closer together than this are merged into one (ms). */
  minGapMs: number;
}

export class ChangeFeed {
  private readonly listeners = new Set<() => void>();
  private readonly watch: Watch;
  private stopWatching: (() => void) | undefined;
  private lastTick = 0;
  private pending: NodeJS.Timeout | undefined;

  constructor(
    phoneSystem: PhoneSystem,
    private readonly options: ChangeFeedOptions,
  ) {
    this.watch = phoneSystem.watchChanges?.bind(phoneSystem) ?? pollForChanges(phoneSystem, options.pollMs);
  }

  /** Calls `listener` on every tick until the returned function is called. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    this.stopWatching ??= this.watch(() => this.changed());
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    this.stopWatching?.();
    this.stopWatching = undefined;
    clearTimeout(this.pending);
    this.pending = undefined;
  }

  private changed(): void {
    if (this.pending) return;
    const wait = this.lastTick + this.options.minGapMs - Date.now();
    if (wait <= 0) return this.tick();
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.tick();
    }, wait);
  }

  private tick(): void {
    this.lastTick = Date.now();
    for (const listener of this.listeners) listener();
  }
}

/** A digest of everything a listing says, so any change to any call shows. */
const digest = (calls: ProviderCall[]): string => createHash('sha1').update(JSON.stringify(calls)).digest('base64');

/** Compares the calls every `intervalMs`; a failing or stalled phone system is left to the requests to report. */
const pollForChanges =
  (phoneSystem: PhoneSystem, intervalMs: number): Watch =>
  (onChange) => {
    let last: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const now = digest(await phoneSystem.listCalls(AbortSignal.timeout(intervalMs)));
        if (last !== undefined && now !== last) onChange();
        last = now;
      } catch {
        // The phone system failed this look: the next one compares again.
      }
      if (!stopped) timer = setTimeout(() => void poll(), intervalMs);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  };
