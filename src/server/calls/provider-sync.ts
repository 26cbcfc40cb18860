/**
 * One provider's sync: takes in what the phone system tells (its list, on the schedule's ticks
 * and triggers, and the updates it pushes), applies the service's rules of a call's course, and
 * makes each new state known through one path: published to readers (`LiveCalls`), journaled,
 * and in a cluster committed to the shared feed first by the one instance that leads, which also
 * drains the updates other instances received. Followers serve what the leader committed.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { callWithDeadline } from '../providers/call-with-deadline.js';
import { ProviderFailure, type CallUpdate, type PhoneSystem, type ProviderCall } from '../providers/phone-system.js';
import type { CallJournal } from '../history/history-store.js';
import { journalBatch, journalBatchOf, type JournalBatch } from '../history/journal-batch.js';
import type { ChangeEntry, ChangeLogLimits, LogPosition } from './change-log.js';
import { FeedFollower } from './feed-follower.js';
import { KnownCalls, type CallEndingsView } from './known-calls.js';
import { LiveCalls, type NextState, type PositionedSnapshot, type ProviderStatus, type SnapshotRead, type SyncListener } from './live-calls.js';
import { NotLeading, type SharedSync } from './shared-sync.js';
import { SyncSchedule } from './sync-schedule.js';

export type { PositionedSnapshot, ProviderStatus, SnapshotRead, SyncEvent, SyncListener } from './live-calls.js';

const SOON_MS = 250;
/** A cluster's leader writes the listed calls whole after this many changes, or this long, since the last time. */
const CHECKPOINT_EVERY_CHANGES = 200;
const CHECKPOINT_EVERY_MS = 60_000;
/** A phone system that tells of every change is listed at most this often: bursts coalesce. */
export const MIN_WATCHED_SYNC_GAP_MS = 100;
/** Deliveries a leader drains from the shared inbox per commit. */
const DRAIN_BATCH = 500;
/** A leader looks in the inbox after this many lists even without a notice, in case one was lost. */
const DRAIN_EVERY_LISTS = 10;

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

/** What the journal holds: these calls, those of the view numbered `view` when they are one. */
interface Journaled {
  known: readonly ProviderCall[];
  view?: number;
}

interface QueuedPush {
  updates: readonly CallUpdate[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class ProviderSync {
  private readonly live: LiveCalls;
  private readonly known: KnownCalls;
  private readonly schedule: SyncSchedule;
  private readonly follower: FeedFollower | undefined;
  private currentRole: SyncRole;
  private stopped = false;
  private readonly abort = new AbortController();
  private firstAttempt: Promise<void> | undefined;
  /** Steps that change the calls (a list taken in, pushed updates, a drained inbox) run one at a time. */
  private steps: Promise<void> = Promise.resolve();
  private queuedPushes: QueuedPush[] = [];
  /**
   * The calls as last written to the journal, and the view they were; undefined until a write
   * succeeds, or after one failed.
   */
  private journaled: Journaled | undefined;
  /** Whether the journal was asked what the service knew before this run (or this lead). */
  private recalled = false;
  /**
   * Set when this instance takes the lead: the journal then holds exactly what the last leader
   * committed, so what it recalls is what is written, and the first write is the difference from it
   * (at 10,000 calls, a few hundred rows instead of all of them, in the commit that ends a failover).
   */
  private writeFromRecall = false;
  /**
   * Whether a list was taken in since this instance began to sync (alone, or as leader): until
   * then, what it knows may be only what updates told, and publishing that would drop every other call.
   */
  private listedSinceStart = false;
  /** Failed lists in a row; the log says when a streak starts and ends, not every list of it. */
  private failedInARow = 0;
  private stopWatching: (() => void) | undefined;
  /** The leader's last checkpoint: undefined until it writes its first. */
  private checkpointed: { seq: number; at: number } | undefined;
  /** The shared inbox may hold updates another instance received; a drain is queued. */
  private inboxMayHold = false;
  private drainQueued = false;
  private listsSinceDrain = 0;
  private leaveCluster: (() => Promise<void>) | undefined;
  private followTimer: NodeJS.Timeout | undefined;
  /** Upstream list requests made, for metrics and the fan-in guarantee. */
  fetches = 0;
  failures = 0;
  /** Pushed updates that changed a call. */
  updatesApplied = 0;
  /** Times this instance took the lead of the provider's shared sync. */
  leaderships = 0;

  constructor(
    readonly phoneSystem: PhoneSystem,
    private readonly options: ProviderSyncOptions,
  ) {
    const provider = { id: options.providerID, name: options.providerName };
    this.live = new LiveCalls({ provider, clock: options.clock, staleAfterMs: options.staleAfterMs, changeLog: options.changeLog });
    // Two intervals without a good list: the service was not watching when a call left.
    this.known = new KnownCalls({ keepEndedMs: options.keepEndedMs, blindAfterMs: 2 * options.intervalMs });
    this.schedule = new SyncSchedule({
      clock: options.clock,
      intervalMs: options.intervalMs,
      minGapMs: Math.max(MIN_WATCHED_SYNC_GAP_MS, options.minListIntervalMs ?? 0),
      list: () => this.list(),
    });
    this.currentRole = options.shared ? 'follower' : 'solo';
    if (options.shared) this.follower = new FeedFollower(options.shared, this.live, provider, options.log, () => this.currentRole === 'follower');
  }

  get role(): SyncRole {
    return this.currentRole;
  }

  private leading(): boolean {
    return this.currentRole === 'leader';
  }

  start(): void {
    this.stopped = false;
    const { shared } = this.options;
    if (!shared || !this.follower) {
      this.startSyncing();
      return;
    }
    const follower = this.follower;
    this.currentRole = 'follower';
    this.leaveCluster = shared.join({
      lead: () => void this.takeLead(),
      follow: () => this.stepDown(),
      changed: () => void follower.read(),
      pollSoon: () => {
        if (this.leading()) this.schedule.ask(SOON_MS);
      },
      delivered: () => {
        this.inboxMayHold = true;
        this.drainInbox();
      },
    });
    this.firstAttempt ??= follower.read().then(() => undefined);
    // Notices are the fast path; this read catches whatever a dropped connection let pass.
    this.followTimer = setInterval(() => {
      if (this.currentRole === 'follower') void follower.read();
      else this.live.updateHealth();
    }, Math.max(this.options.intervalMs, 1000));
    this.followTimer.unref();
  }

  /** Lists on the schedule, and takes in what the phone system tells of by itself. */
  private startSyncing(): void {
    this.listedSinceStart = false;
    this.schedule.start();
    // A phone system that tells of its changes is listed as they happen; the interval stays as a safety net.
    const unwatch = this.phoneSystem.watchChanges?.(() => this.schedule.ask(0));
    const unstream = this.phoneSystem.streamUpdates?.(
      (updates) => {
        this.push(updates).catch((error: unknown) =>
          this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'pushed call updates not taken in'),
        );
      },
      (health) => {
        if (health.connected) this.options.log.info({ provider: this.options.providerID }, 'provider event stream open');
        else this.options.log.warn({ provider: this.options.providerID, reason: health.detail }, 'provider event stream down: polling');
        this.live.setDegraded(health.connected ? undefined : health.detail);
      },
    );
    this.stopWatching = () => {
      unwatch?.();
      unstream?.();
    };
  }

  private stopSyncing(): void {
    this.schedule.stop();
    this.stopWatching?.();
    this.stopWatching = undefined;
    this.live.setDegraded(undefined);
  }

  /** This instance now leads: it catches up with what the last leader committed, then syncs. */
  private async takeLead(): Promise<void> {
    if (this.stopped || this.currentRole !== 'follower' || !this.follower) return;
    // Leading on a copy that missed the last leader's commits would fork the feed: without them, let go.
    if (!(await this.follower.read())) {
      await this.options.shared?.resign();
      return;
    }
    if (this.stopped || this.currentRole !== 'follower') return;
    this.currentRole = 'leader';
    this.leaderships += 1;
    // The journal is asked again what the last leader knew, and the first write is complete.
    this.recalled = false;
    this.writeFromRecall = true;
    this.journaled = undefined;
    this.checkpointed = undefined;
    this.inboxMayHold = true;
    this.options.log.info({ provider: this.options.providerID, seq: this.live.position.seq }, 'leads the provider sync');
    this.startSyncing();
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

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopSyncing();
    clearInterval(this.followTimer);
    this.abort.abort();
    await this.schedule.current?.catch(() => undefined);
    await this.steps;
    await this.leaveCluster?.();
    this.leaveCluster = undefined;
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
      if (this.leading()) {
        this.inboxMayHold = true;
        this.drainInbox();
      }
      return;
    }
    return new Promise((resolve, reject) => {
      this.queuedPushes.push({ updates, resolve, reject });
      // Updates that arrive while a step runs are taken in together by the next one.
      if (this.queuedPushes.length === 1) void this.step(() => this.takeQueuedPushes());
    });
  }

  /** Resolves once the first list (or read of the shared feed) has settled, so a list right after start-up is not a needless 503. */
  async ready(): Promise<void> {
    await (this.firstAttempt ?? this.syncOnce());
  }

  subscribe(listener: SyncListener): () => void {
    return this.live.subscribe(listener);
  }

  /** The current snapshot and the change-log position it stands at, read together. */
  positionedSnapshot(): PositionedSnapshot | undefined {
    return this.live.positioned();
  }

  /** The changes after `from`, or undefined when a stream must start over from a snapshot. */
  changesSince(from: LogPosition): ChangeEntry[] | undefined {
    return this.live.changesSince(from);
  }

  get changeLogEpoch(): string {
    return this.live.epoch;
  }

  /** Change events serialized so far: one per change, whatever the number of streams. */
  get changeSerializations(): number {
    return this.live.serializations;
  }

  status(): ProviderStatus {
    return this.live.status();
  }

  read(): SnapshotRead {
    return this.live.read();
  }

  /** Age of the last good snapshot in ms, or undefined before the first one. */
  ageMs(): number | undefined {
    return this.live.ageMs();
  }

  liveCount(): number {
    return this.live.calls.filter((call) => call.endedAt === undefined).length;
  }

  /** Whether the first list (or read of the shared feed) has given a snapshot or a failure to report. */
  get settled(): boolean {
    return this.live.settled;
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
    this.fetches += 1;
    const startedAt = this.options.clock.now();
    let calls: ProviderCall[];
    try {
      calls = await callWithDeadline(this.options.requestTimeoutMs, (signal) => this.phoneSystem.listCalls(signal), this.abort.signal);
    } catch (error) {
      this.failures += 1;
      const failure = error instanceof ProviderFailure ? error : new ProviderFailure('error', (error as Error).message);
      if (failure.retryAfterMs !== undefined) this.schedule.holdOff(failure.retryAfterMs);
      if (this.stopped) return;
      this.logFailure(failure);
      await this.step(() => this.takeFailure(failure));
      return;
    }
    await this.step(() => this.takeList(calls, startedAt));
  }

  private async takeFailure(failure: ProviderFailure): Promise<void> {
    if (this.leading())
      try {
        await this.options.shared?.commitFailure({ kind: failure.kind, message: failure.message });
      } catch (error) {
        if (error instanceof NotLeading) this.stepDown(true);
        else this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'provider failure could not be shared');
      }
    if (this.currentRole !== 'follower') this.live.setFailure(failure);
  }

  private async takeList(calls: ProviderCall[], startedAt: number): Promise<void> {
    if (this.currentRole === 'follower') return;
    const takenAt = this.options.clock.now();
    if (!this.recalled) await this.recall(takenAt);
    const working = performance.now();
    const view = this.known.next(calls, takenAt, startedAt);
    // Timed up to its first wait: reconciling, diffing and publishing to every stream, not the journal's or the cluster's writes.
    this.listedSinceStart = true;
    const advanced = this.advance(view, takenAt, { listed: true });
    this.schedule.worked(performance.now() - working);
    if (!(await advanced)) return;
    this.logRecovery();
    this.listsSinceDrain += 1;
    if (this.leading() && (this.inboxMayHold || this.listsSinceDrain >= DRAIN_EVERY_LISTS)) {
      this.inboxMayHold = true;
      this.drainInbox();
    }
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
   * Applies pushed updates and makes the result known. Before the first list (alone, or as leader)
   * there is nothing to publish yet: the updates are kept, and that list publishes them. Returns
   * whether it was made known.
   */
  private async takeUpdates(updates: readonly CallUpdate[], delivered?: readonly string[]): Promise<boolean> {
    const outcome = this.known.push(updates, this.options.clock.now());
    this.updatesApplied += outcome.applied;
    if (outcome.ignored > 0 || outcome.held > 0)
      this.options.log.debug({ provider: this.options.providerID, ignored: outcome.ignored, held: outcome.held }, 'pushed call updates not applied');
    // An update about a call no list has shown: a list soon shows it, and the held update is applied then.
    if (outcome.held > 0) this.schedule.ask(SOON_MS);
    const takenAt = this.live.takenAt;
    if (takenAt === undefined || !this.listedSinceStart) return false;
    // Nothing changed: only a drained inbox has something to commit (its removal).
    if (outcome.applied === 0 && delivered === undefined) return true;
    return this.advance(this.known.view(this.options.clock.now()), takenAt, { delivered });
  }

  /** The leader's drain of the updates other instances stored, each batch applied in a commit that also removes it. */
  private drainInbox(): void {
    const shared = this.options.shared;
    if (!shared || this.drainQueued || !this.leading() || !this.inboxMayHold) return;
    this.drainQueued = true;
    void this.step(async () => {
      this.drainQueued = false;
      // Before its first list the leader has nothing to publish (a new leader holds what the last
      // one committed, but knows none of it yet): the list drains after it.
      if (!this.leading() || !this.listedSinceStart) return;
      this.listsSinceDrain = 0;
      for (;;) {
        let taken;
        try {
          taken = await shared.takeDelivered(DRAIN_BATCH);
        } catch (error) {
          this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'shared inbox unreadable');
          return;
        }
        if (!taken) {
          this.inboxMayHold = false;
          return;
        }
        if (!(await this.takeUpdates(taken.updates, taken.ids)) || taken.ids.length < DRAIN_BATCH) return;
      }
    });
  }

  /**
   * Makes a new view of the calls known: alone, published then journaled; as leader, committed to
   * the shared feed (journal batch, change, position, drained updates, in one transaction fenced by
   * its term) and published only once committed, as every follower will. A list the provider
   * answered also clears its failure. Returns whether it was made known.
   */
  private async advance(view: CallEndingsView, takenAt: number, step: { listed?: boolean; delivered?: readonly string[] }): Promise<boolean> {
    const leader = this.leading();
    const state = this.live.next(view.listed, takenAt, leader);
    const batch = this.journalBatchFor(view, takenAt);
    const journaled = { known: view.known, view: view.number };
    if (leader) {
      if (!(await this.commit(state, batch, takenAt, step.delivered))) return false;
      this.journaled = journaled;
    }
    this.live.publish(state, step.listed);
    if (leader) return true;
    await this.record(batch, journaled);
    return true;
  }

  /**
   * What the journal lacks of a view. When it holds the view before, that is the calls the view
   * names as changed: the calls are not compared a second time. Otherwise (the first write, after
   * a failed one, or from what a new leader recalled) what it holds is compared with the view.
   */
  private journalBatchFor(view: CallEndingsView, takenAt: number): JournalBatch {
    const journaled = this.journaled;
    if (journaled?.view !== undefined && journaled.view === view.number - 1) return journalBatchOf(view.changed, takenAt, view.endedByService);
    return journalBatch(journaled?.known, view.known, takenAt, view.endedByService);
  }

  private async commit(state: NextState, batch: JournalBatch, takenAt: number, delivered: readonly string[] | undefined): Promise<boolean> {
    const shared = this.options.shared as SharedSync;
    const after = this.live.position.seq;
    const { entry } = state;
    const seq = entry ? entry.seq : after;
    const checkpointDue =
      !this.checkpointed || seq - this.checkpointed.seq >= CHECKPOINT_EVERY_CHANGES || takenAt - this.checkpointed.at >= CHECKPOINT_EVERY_MS;
    try {
      if (!this.leading()) return false;
      await shared.commit({
        after,
        takenAt,
        batch,
        ...(entry ? { change: { seq: entry.seq, at: entry.at, data: entry.data, upserts: state.upserted, removed: state.removed } } : {}),
        ...(checkpointDue ? { checkpoint: state.snapshot.calls } : {}),
        ...(delivered === undefined ? {} : { delivered }),
      });
    } catch (error) {
      this.journaled = undefined;
      if (error instanceof NotLeading) {
        this.options.log.warn({ provider: this.options.providerID, reason: error.message }, 'sync not committed');
        this.stepDown(true);
      } else this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'sync could not be committed');
      return false;
    }
    if (checkpointDue) this.checkpointed = { seq, at: takenAt };
    return true;
  }

  /**
   * Takes back, once, what the journal knew before this run: calls that ended shortly before a
   * restart stay listed, and calls that left while the service was down end at its last sync.
   */
  private async recall(at: number): Promise<void> {
    this.recalled = true;
    const fromRecall = this.writeFromRecall;
    this.writeFromRecall = false;
    try {
      const { calls, lastSyncAt } = await this.options.journal.recall(at - this.options.keepEndedMs);
      const restored = calls.map(({ closedBySync, ...call }) => ({ call, endedByService: closedBySync }));
      this.known.restore(restored, lastSyncAt);
      if (fromRecall) this.journaled = { known: restored.map(({ call }) => call) };
    } catch (error) {
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'call journal could not be read back');
    }
  }

  /**
   * Journals what changed since the last written state, listed or not (a call the service ended is
   * journaled even when `keepEndedMs` is 0). A failed write never stops the live feed; the next
   * write then carries every call, and the store closes what vanished meanwhile.
   */
  private async record(batch: JournalBatch, journaled: Journaled): Promise<void> {
    try {
      await this.options.journal.write(batch);
      this.journaled = journaled;
    } catch (error) {
      this.journaled = undefined;
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'call journal write failed');
    }
  }

  private logFailure(failure: ProviderFailure): void {
    this.failedInARow += 1;
    const line = { provider: this.options.providerID, kind: failure.kind, reason: failure.message, failedInARow: this.failedInARow };
    if (this.failedInARow === 1) this.options.log.warn(line, 'provider sync failing');
    else this.options.log.debug(line, 'provider sync failed again');
  }

  private logRecovery(): void {
    if (this.failedInARow > 0)
      this.options.log.info({ provider: this.options.providerID, failedInARow: this.failedInARow }, 'provider sync recovered');
    this.failedInARow = 0;
  }
}
