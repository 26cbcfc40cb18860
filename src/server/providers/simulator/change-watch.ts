/**
 * Tells watchers when the simulated center's calls change, as it happens: one timer, set for the
 * center's next event or expiry in clock time, and a poke after anything a request changed.
 */
import type { Clock } from '../../clock.js';

export interface WatchedCenter {
  /** Simulated time of the next change, if any is pending. */
  nextChangeAt(): number | undefined;
  /** Runs the center up to the clock's now. */
  catchUp(): void;
  toClock(simTime: number): number;
}

export class ChangeWatch {
  private readonly watchers = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly center: WatchedCenter,
    private readonly clock: Clock,
  ) {}

  watch(onChange: () => void): () => void {
    this.watchers.add(onChange);
    if (this.watchers.size === 1) this.arm();
    return () => {
      this.watchers.delete(onChange);
      if (this.watchers.size === 0) this.disarm();
    };
  }

  /** Something outside the timeline (a placed call, a drill) changed the center: tell now, and re-arm. */
  poke(): void {
    if (this.watchers.size === 0) return;
    this.disarm();
    this.fire();
  }

  close(): void {
    this.watchers.clear();
    this.disarm();
  }

  private fire = (): void => {
    this.timer = undefined;
    this.center.catchUp();
    for (const watcher of this.watchers) watcher();
    this.arm();
  };

  private arm(): void {
    const next = this.center.nextChangeAt();
    if (next === undefined || this.watchers.size === 0) return;
    // One clock millisecond past the change: the rounding between clock and simulated time never leaves it pending.
    const delay = Math.max(1, this.center.toClock(next) - this.clock.now() + 1);
    this.timer = setTimeout(this.fire, delay);
    this.timer.unref();
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
