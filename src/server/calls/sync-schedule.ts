/**
 * When a provider is listed: on an interval once started, soon when something asks (a placed call,
 * a change the phone system told of, an update about a call no list showed yet), and never closer
 * together than the provider allows or sooner than it asked after a refusal. One list runs at a
 * time; an ask while one runs is served by one more right after it.
 *
 * Nor does taking lists in hold the service more than half its time. A large center's list on a
 * slow host (10,000 calls reconciled, sorted and diffed in about 160 ms) would otherwise run back
 * to back on every change the phone system tells of, and streams, requests and the rest would
 * wait behind it. Lists then start at least twice the service's own work on the last one apart,
 * and each takes in the changes of that longer while at once.
 */
import type { Clock } from '../clock.js';

export interface SyncScheduleOptions {
  clock: Clock;
  intervalMs: number;
  /** Lists start at least this far apart, whoever asks. */
  minGapMs: number;
  list: () => Promise<void>;
}

/**
 * `asked`: lists run only when asked for (before `start`, as tests and start-up do); `running`:
 * on the interval too; `stopped`: asks are refused.
 */
type ScheduleState = 'asked' | 'running' | 'stopped';

export class SyncSchedule {
  /** The next list's timer, and when it fires. */
  private timer: { handle: NodeJS.Timeout; at: number } | undefined;
  private inFlight: Promise<void> | undefined;
  private again = false;
  private state: ScheduleState = 'asked';
  private lastStartedAt = Number.NEGATIVE_INFINITY;
  private notBefore = Number.NEGATIVE_INFINITY;
  /** The service's own work on the last list it took in, not the wait for the provider's answer. */
  private lastWorkMs = 0;

  constructor(private readonly options: SyncScheduleOptions) {}

  /** Lists now, then every interval, until stopped. */
  start(): void {
    this.state = 'running';
    this.ask(0);
  }

  stop(): void {
    this.state = 'stopped';
    this.again = false;
    this.clearTimer();
  }

  /** The list in flight, if any. */
  get current(): Promise<void> | undefined {
    return this.inFlight;
  }

  /** One list now, whatever the floor (start-up, tests); callers at the same time share it. */
  now(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    this.clearTimer();
    this.lastStartedAt = this.options.clock.now();
    const run = this.options.list().finally(() => {
      this.inFlight = undefined;
      this.afterList();
    });
    this.inFlight = run;
    return run;
  }

  /** A list within `delayMs`, or as soon after as the floor and the provider allow; asks meanwhile share it. */
  ask(delayMs: number): void {
    if (this.state === 'stopped') return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    const now = this.options.clock.now();
    const at = Math.max(now + delayMs, this.lastStartedAt + Math.max(this.options.minGapMs, 2 * this.lastWorkMs), this.notBefore);
    if (this.timer && this.timer.at <= at) return;
    this.clearTimer();
    const handle = setTimeout(() => {
      this.timer = undefined;
      void this.now().catch(() => undefined);
    }, Math.max(0, at - now));
    handle.unref();
    this.timer = { handle, at };
  }

  /** The service worked `ms` taking in the list that just ran: the next starts at least twice that after it started. */
  worked(ms: number): void {
    this.lastWorkMs = ms;
  }

  /** The provider asked not to be listed again before `ms` from now. */
  holdOff(ms: number): void {
    this.notBefore = Math.max(this.notBefore, this.options.clock.now() + ms);
  }

  private afterList(): void {
    if (this.state === 'stopped') return;
    if (this.again) {
      this.again = false;
      this.ask(0);
    } else if (this.state === 'running') this.ask(this.options.intervalMs);
  }

  private clearTimer(): void {
    clearTimeout(this.timer?.handle);
    this.timer = undefined;
  }
}
