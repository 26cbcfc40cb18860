/**
 * One provider's sync, in the role this instance holds: alone or as a cluster's leader, it lists the
 * provider and takes in the updates it pushes, and makes each new state known through its role's
 * outlet; as a follower, it serves what the leader committed.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { callWithDeadline } from '../providers/call-with-deadline.js';
import { ProviderFailure, type CallUpdate, type PhoneSystem, type ProviderCall, type StreamHealth } from '../providers/phone-system.js';
import type { CallJournal } from './call-journal.js';
import type { ChangeLogLimits } from './change-log.js';
import { FailureStreak } from './failure-streak.js';
import { FeedFollower } from './feed-follower.js';
import { InboxDrain } from './inbox-drain.js';
import { JournalWriter } from './journal-writer.js';
import { KnownCalls, type CallEndingsView } from './known-calls.js';
import { LiveCalls, type CallsView } from './live-calls.js';
import { nextHealth } from './provider-health.js';
import type { SharedSync } from './shared-sync.js';
import { LeaderOutlet, SoloOutlet, type StateOutlet } from './state-outlets.js';
import { SyncSchedule } from './sync-schedule.js';

export type { CallsView, PositionedSnapshot, ProviderStatus, SnapshotRead, SyncEvent, SyncListener } from './live-calls.js';

const SOON_MS = 250;
/** A phone system that tells of every change is listed at most this often: bursts coalesce. */
export const MIN_WATCHED_SYNC_GAP_MS = 100;

export interface ProviderSyncOptions {
  providerID: string;
  providerName: string;
  intervalMs: number;
  /** Lists start at least this far apart, whatever asks for one (the provider's rate limit). */
  minListIntervalMs?: number;
  requestTimeoutMs: number;
  staleAfterMs: number;
  /** How long an ended call stays listed after its end. */
  keepEndedMs: number;
  clock: Clock;
  log: FastifyBaseLogger;
  journal: CallJournal;
  changeLog?: ChangeLogLimits;
  /** In a cluster: the provider's shared sync, which one instance leads and the others follow. */
  shared?: SharedSync;
}

/** Alone, this instance syncs; in a cluster, the leader syncs and commits, and followers serve what it committed. */
export type SyncRole = 'solo' | 'leader' | 'follower';

/** What the sync counted, for metrics and the fan-in guarantee. */
export interface SyncCounts {
  /** Upstream list requests made. */
  readonly fetches: number;
  readonly failures: number;
  /** Pushed updates that changed a call. */
  readonly updatesApplied: number;
  /** Times this instance took the lead of the provider's shared sync. */
  readonly leaderships: number;
}

/** One stretch of syncing (a run alone, or one lead): where its states go, and what it has done. */
interface SyncPeriod {
  readonly outlet: StateOutlet;
  /** A leader's drain of the shared inbox. */
  readonly drain?: InboxDrain;
  /**
   * Whether a list was taken in: until then, what the sync knows may be only what updates told,
   * and publishing that would drop every other call.
   */
  listed: boolean;
  stopWatching: () => void;
}

interface QueuedPush {
  updates: readonly CallUpdate[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class ProviderSync {
  private readonly calls: LiveCalls;
  private readonly known: KnownCalls;
  private readonly journal: JournalWriter;
  private readonly schedule: SyncSchedule;
  private readonly follower: FeedFollower | undefined;
  private readonly listFailures: FailureStreak;
  private readonly counted = { fetches: 0, failures: 0, updatesApplied: 0, leaderships: 0 };
  /** Updates pushed to an instance alone while a step runs: the next step takes them in together. */
  private readonly queuedPushes: QueuedPush[] = [];
  private readonly abort = new AbortController();
  private currentRole: SyncRole;
  private stopped = false;
  private firstAttempt: Promise<void> | undefined;
  /** Steps that change the calls or their health run one at a time. */
  private steps: Promise<void> = Promise.resolve();
  /** While this instance syncs (alone, or leading); none while it follows. */
  private period: SyncPeriod | undefined;
  /** In a cluster: the read that catches what a lost notice let pass, and how to leave. */
  private membership: { timer: NodeJS.Timeout; leave: () => Promise<void> } | undefined;

  constructor(
    private readonly phoneSystem: PhoneSystem,
    private readonly options: ProviderSyncOptions,
  ) {
    const provider = { id: options.providerID, name: options.providerName };
    this.calls = new LiveCalls({ provider, clock: options.clock, staleAfterMs: options.staleAfterMs, changeLog: options.changeLog });
    // Two intervals without a good list: the service was not watching when a call left.
    this.known = new KnownCalls({ keepEndedMs: options.keepEndedMs, blindAfterMs: 2 * options.intervalMs });
    this.journal = new JournalWriter(options.journal, this.known, { providerID: options.providerID, keepEndedMs: options.keepEndedMs, log: options.log });
    this.schedule = new SyncSchedule({
      clock: options.clock,
      intervalMs: options.intervalMs,
      minGapMs: Math.max(MIN_WATCHED_SYNC_GAP_MS, options.minListIntervalMs ?? 0),
      list: () => this.list(),
    });
    this.listFailures = new FailureStreak(
      options.log,
      { provider: options.providerID },
      { started: 'provider sync failing', again: 'provider sync failed again', ended: 'provider sync recovered' },
    );
    this.currentRole = options.shared ? 'follower' : 'solo';
    if (options.shared) this.follower = new FeedFollower(options.shared, this.calls, provider, options.log, () => this.currentRole === 'follower');
    else this.period = this.newPeriod(new SoloOutlet(this.calls, this.journal));
  }

  /** What readers may ask of the provider's calls; they change only through this sync. */
  get live(): CallsView {
    return this.calls;
  }

  get role(): SyncRole {
    return this.currentRole;
  }

  get counts(): SyncCounts {
    return this.counted;
  }

  start(): void {
    this.stopped = false;
    const { shared } = this.options;
    if (!shared || !this.follower) {
      this.startSyncing(this.newPeriod(new SoloOutlet(this.calls, this.journal)));
      return;
    }
    const follower = this.follower;
    this.currentRole = 'follower';
    const leave = shared.join({
      lead: () => void this.takeLead(),
      follow: () => this.stepDown(),
      changed: () => void follower.read(),
      pollSoon: () => {
        if (this.currentRole === 'leader') this.schedule.ask(SOON_MS);
      },
      delivered: () => this.period?.drain?.delivered(),
    });
    this.firstAttempt ??= follower.read().then(() => undefined);
    // Notices are the fast path; this read catches whatever a dropped connection let pass.
    const timer = setInterval(() => {
      if (this.currentRole === 'follower') void follower.read();
      else this.calls.updateHealth();
    }, Math.max(this.options.intervalMs, 1000));
    timer.unref();
    this.membership = { timer, leave };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopSyncing();
    const membership = this.membership;
    this.membership = undefined;
    clearInterval(membership?.timer);
    this.abort.abort();
    await this.schedule.current?.catch(() => undefined);
    await this.steps;
    await membership?.leave();
  }

  /** One list of the provider (a follower reads the shared feed instead); concurrent callers share it. */
  async syncOnce(): Promise<void> {
    if (this.follower && this.currentRole === 'follower') {
      await this.follower.read();
      return;
    }
    const run = this.schedule.now();
    this.firstAttempt ??= run;
    return run;
  }

  /**
   * Asks for a list soon rather than at the next tick (after a call was placed, say). Asks within
   * `SOON_MS` share one list, so a burst of them cannot multiply the provider's load.
   */
  syncSoon(): void {
    if (this.currentRole === 'follower') this.options.shared?.requestSync();
    else this.schedule.ask(SOON_MS);
  }

  /**
   * Takes in updates the provider pushed (a webhook, the answer to a placed call). Alone, they are
   * applied, published and journaled before this resolves; in a cluster they are stored for the
   * leader, which applies them in its next commit, wherever they were received.
   */
  async push(updates: readonly CallUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    const { shared } = this.options;
    if (shared) {
      await shared.deliver(updates);
      this.period?.drain?.delivered();
      return;
    }
    return new Promise((resolve, reject) => {
      this.queuedPushes.push({ updates, resolve, reject });
      if (this.queuedPushes.length === 1) void this.step(() => this.takeQueuedPushes());
    });
  }

  /** Resolves once the first list (or read of the shared feed) has settled, so a list right after start-up is not a needless 503. */
  async ready(): Promise<void> {
    await (this.firstAttempt ?? this.syncOnce());
  }

  private newPeriod(outlet: StateOutlet, drain?: InboxDrain): SyncPeriod {
    return { outlet, ...(drain ? { drain } : {}), listed: false, stopWatching: () => undefined };
  }

  /** Lists on the schedule, and takes in what the phone system tells of by itself. */
  private startSyncing(period: SyncPeriod): void {
    this.period = period;
    this.schedule.start();
    // A phone system that tells of its changes is listed as they happen; the interval stays as a safety net.
    const unwatch = this.phoneSystem.watchChanges?.(() => this.schedule.ask(0));
    const unstream = this.phoneSystem.streamUpdates?.(
      (updates) => {
        this.push(updates).catch((error: unknown) =>
          this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'pushed call updates not taken in'),
        );
      },
      (connection) => this.takeConnection(period, connection),
    );
    period.stopWatching = () => {
      unwatch?.();
      unstream?.();
    };
  }

  private stopSyncing(): void {
    this.schedule.stop();
    const period = this.period;
    this.period = undefined;
    period?.stopWatching();
    period?.outlet.retire();
    // Its push connection is closed: what it told of it holds no more (a follower's next read tells the leader's).
    this.calls.setHealth(nextHealth(this.calls.health, { type: 'push-connection', down: undefined }));
  }

  /** This instance now leads: it catches up with what the last leader committed, then syncs. */
  private async takeLead(): Promise<void> {
    const { shared } = this.options;
    if (this.stopped || this.currentRole !== 'follower' || !this.follower || !shared) return;
    // Leading on a copy that missed the last leader's commits would fork the feed: without them, let go.
    if (!(await this.follower.read())) {
      await shared.resign();
      return;
    }
    if (this.stopped || this.currentRole !== 'follower') return;
    this.currentRole = 'leader';
    this.counted.leaderships += 1;
    this.journal.lead();
    const { providerID, log } = this.options;
    log.info({ provider: providerID, seq: this.calls.position.seq }, 'leads the provider sync');
    const outlet = new LeaderOutlet({ shared, live: this.calls, journal: this.journal, providerID, log, onLostLead: () => this.stepDown(true) });
    const drain: InboxDrain = new InboxDrain({
      shared,
      step: (run) => this.step(run),
      // Before its first list the leader has nothing to publish (it holds what the last leader
      // committed, but knows none of it yet): that list drains after it.
      canApply: () => this.period?.drain === drain && this.period.listed,
      apply: (taken) => this.takeUpdates(taken.updates, taken.ids),
      providerID,
      log,
    });
    this.startSyncing(this.newPeriod(outlet, drain));
  }

  /**
   * This instance lost the lead: it stops syncing at once and follows the feed. When it still
   * holds the lock (the feed refused its write), it lets go, so the election can go on.
   */
  private stepDown(resign = false): void {
    if (this.currentRole !== 'leader') return;
    this.currentRole = 'follower';
    this.stopSyncing();
    this.options.log.warn({ provider: this.options.providerID }, 'stopped leading the provider sync');
    if (resign) void this.options.shared?.resign();
    void this.follower?.read();
  }

  /** Runs a step after those before it; a step that throws is logged, and the next runs all the same. */
  private step(run: () => Promise<void>): Promise<void> {
    const next = this.steps.then(() => (this.stopped ? undefined : run()));
    this.steps = next.catch((error: unknown) =>
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'sync step failed'),
    );
    return next;
  }

  private async list(): Promise<void> {
    this.counted.fetches += 1;
    const startedAt = this.options.clock.now();
    let calls: ProviderCall[];
    try {
      calls = await callWithDeadline(this.options.requestTimeoutMs, (signal) => this.phoneSystem.listCalls(signal), this.abort.signal);
    } catch (error) {
      this.counted.failures += 1;
      const failure = error instanceof ProviderFailure ? error : new ProviderFailure('error', (error as Error).message);
      if (failure.retryAfterMs !== undefined) this.schedule.holdOff(failure.retryAfterMs);
      if (this.stopped) return;
      this.listFailures.failed({ kind: failure.kind, reason: failure.message });
      await this.step(async () => this.period?.outlet.tellHealth(nextHealth(this.calls.health, { type: 'list-failed', failure })));
      return;
    }
    await this.step(() => this.takeList(calls, startedAt));
  }

  private async takeList(calls: ProviderCall[], startedAt: number): Promise<void> {
    const period = this.period;
    if (!period) return;
    const takenAt = this.options.clock.now();
    await this.journal.recallOnce(takenAt);
    const working = performance.now();
    const view = this.known.next(calls, takenAt, startedAt);
    period.listed = true;
    // Timed up to its first wait: reconciling, diffing and publishing to every stream, not the journal's or the cluster's writes.
    const made = this.advance(period.outlet, view, takenAt, { listed: true });
    this.schedule.worked(performance.now() - working);
    if (!(await made)) return;
    this.listFailures.succeeded();
    period.drain?.listed();
  }

  /** The push connection opened or dropped: the health says so, through the outlet like any change. */
  private takeConnection(period: SyncPeriod, connection: StreamHealth): void {
    const { providerID, log } = this.options;
    if (connection.connected) log.info({ provider: providerID }, 'provider event stream open');
    else log.warn({ provider: providerID, reason: connection.detail }, 'provider event stream down: polling');
    const down = connection.connected ? undefined : connection.detail;
    void this.step(async () => {
      if (this.period === period) await period.outlet.tellHealth(nextHealth(this.calls.health, { type: 'push-connection', down }));
    });
  }

  /** Pushed updates queued alone (no cluster), taken in together. */
  private async takeQueuedPushes(): Promise<void> {
    const queued = this.queuedPushes.splice(0);
    try {
      await this.takeUpdates(queued.flatMap((push) => push.updates));
      for (const push of queued) push.resolve();
    } catch (error) {
      for (const push of queued) push.reject(error);
    }
  }

  /**
   * Applies pushed updates and makes the result known. Before the period's first list there is
   * nothing to publish yet: the updates are kept, and that list publishes them. Returns whether it
   * was made known.
   */
  private async takeUpdates(updates: readonly CallUpdate[], delivered?: readonly string[]): Promise<boolean> {
    const outcome = this.known.push(updates, this.options.clock.now());
    this.counted.updatesApplied += outcome.applied;
    if (outcome.ignored > 0 || outcome.held > 0)
      this.options.log.debug({ provider: this.options.providerID, ignored: outcome.ignored, held: outcome.held }, 'pushed call updates not applied');
    // An update about a call no list has shown: a list soon shows it, and the held update is applied then.
    if (outcome.held > 0) this.schedule.ask(SOON_MS);
    const period = this.period;
    const takenAt = this.calls.takenAt;
    if (!period?.listed || takenAt === undefined) return false;
    // Nothing changed: only a drained inbox has something to commit (its removal).
    if (outcome.applied === 0 && delivered === undefined) return true;
    return this.advance(period.outlet, this.known.view(this.options.clock.now()), takenAt, { delivered });
  }

  /**
   * Makes a new view of the calls known through the period's outlet. Only a list the provider
   * answered ends its failure: pushed updates leave its health as it is.
   */
  private advance(outlet: StateOutlet, view: CallEndingsView, takenAt: number, step: { listed?: boolean; delivered?: readonly string[] }): Promise<boolean> {
    const health = step.listed ? nextHealth(this.calls.health, { type: 'listed' }) : this.calls.health;
    const next = this.calls.next(view.listed, takenAt, outlet.firstFromEmpty);
    const pending = this.journal.batchFor(view, takenAt);
    return outlet.makeKnown({ next, pending, takenAt, health, ...(step.delivered === undefined ? {} : { delivered: step.delivered }) });
  }
}
