/**
 * One sync loop per provider: polls the phone system on an interval, and at once when a phone
 * system that can tell says something changed; ends the calls that leave the provider's list and
 * keeps ended calls listed a while; keeps the latest snapshot of its calls for every reader,
 * numbers what changed in a change log for the streams, tells them when the provider fails or
 * recovers, and writes what changed to the call journal, one batch a sync.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { callWithDeadline } from '../providers/call-with-deadline.js';
import { ProviderFailure, type PhoneSystem, type ProviderCall } from '../providers/phone-system.js';
import type { CallJournal } from '../history/history-store.js';
import { journalBatch } from '../history/journal-batch.js';
import { CallEndings, type CallEndingsView } from './call-endings.js';
import { CallSnapshot } from './call-snapshot.js';
import { ChangeLog, formatPosition, type ChangeEntry, type ChangeLogLimits, type LogPosition } from './change-log.js';
import type { CallDiff } from './call-diff.js';
import { NotLeading, type FeedChange, type FeedRead, type SharedSync } from './shared-sync.js';

const SOON_MS = 250;
/** A cluster's leader writes the listed calls whole after this many changes, or this long, since the last time. */
const CHECKPOINT_EVERY_CHANGES = 200;
const CHECKPOINT_EVERY_MS = 60_000;
/** A phone system that tells of every change is synced at most this often: bursts coalesce. */
export const MIN_WATCHED_SYNC_GAP_MS = 100;

export interface ProviderSyncOptions {
  providerID: string;
  providerName: string;
  intervalMs: number;
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

/** What a reader gets: the snapshot and its age, or why there is none fit to serve. */
export type SnapshotRead = { ok: true; snapshot: CallSnapshot; ageMs: number } | { ok: false; failure: ProviderFailure };

/**
 * The provider's health as streams report it: `available` while lists are served (a failing
 * provider's last snapshot is served until it grows too old), with the failure when there is one.
 */
export interface ProviderStatus {
  available: boolean;
  failure?: ProviderFailure;
  /** Age of the last good snapshot, when there is one. */
  snapshotAgeMs?: number;
}

/** `reset`: the change log started over (a follower caught up from a checkpoint); streams send a snapshot. */
export type SyncEvent = { type: 'changes'; entry: ChangeEntry } | { type: 'status'; status: ProviderStatus } | { type: 'reset' };
export type SyncListener = (event: SyncEvent) => void;

/** The snapshot with the change-log position it stands at: a stream sends it, then the changes after it. */
export interface PositionedSnapshot {
  snapshot: CallSnapshot;
  position: LogPosition;
  ageMs: number;
}

type Health = 'live' | 'failing' | 'stale';

/** Alone, this instance polls; in a cluster, the leader polls and commits, and followers serve what it committed. */
export type SyncRole = 'solo' | 'leader' | 'follower';

/** The `changes` event's data for a diff, at its position in the log. */
const changeData = (providerID: string, position: LogPosition, snapshot: CallSnapshot, diff: CallDiff): string =>
  `{"providerID":${JSON.stringify(providerID)},"cursor":"${formatPosition(position)}","upserted":[${diff.upserted.map((call) => snapshot.recordJSON(call)).join(',')}],"removed":${JSON.stringify(diff.removed.map((call) => call.callID))}}`;

const isEmpty = (diff: CallDiff | undefined): diff is undefined => !diff || (diff.upserted.length === 0 && diff.removed.length === 0);

export class ProviderSync {
  private snapshot: CallSnapshot | undefined;
  private lastFailure: ProviderFailure | undefined;
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;
  private readonly abort = new AbortController();
  private firstAttempt: Promise<void> | undefined;
  /** The calls as last written to the journal; undefined until a write succeeds, or after one failed. */
  private journaled: readonly ProviderCall[] | undefined;
  private readonly endings: CallEndings;
  /** Whether the journal was asked what the service knew before this run. */
  private recalled = false;
  /** Failed polls in a row; the log says when a streak starts and ends, not every poll of it. */
  private failedInARow = 0;
  private readonly changes: ChangeLog;
  private readonly listeners = new Set<SyncListener>();
  private health: Health = 'live';
  private stopWatching: (() => void) | undefined;
  private watched: NodeJS.Timeout | undefined;
  private lastPollStartedAt = -Infinity;
  /** A change was told while a poll was in flight: poll again once it ends. */
  private pollAgain = false;
  /** Upstream list requests made, for metrics and the fan-in guarantee. */
  fetches = 0;
  failures = 0;
  /** In a cluster an instance follows until the election says otherwise. */
  private currentRole: SyncRole;
  /** Times this instance took the lead of the provider's shared sync. */
  leaderships = 0;
  private leaveCluster: (() => Promise<void>) | undefined;
  /** A follower's reads of the shared feed run one after another; one not yet started covers every ask. */
  private readChain: Promise<unknown> = Promise.resolve();
  private readQueued: Promise<boolean> | undefined;
  /** What this instance holds of the feed could not be continued: the next read starts from the checkpoint. */
  private resync = false;
  private followTimer: NodeJS.Timeout | undefined;
  /** Failed reads of the shared feed in a row, logged like failed polls. */
  private failedReadsInARow = 0;
  /** The leader's last checkpoint: undefined until it writes its first. */
  private checkpointed: { seq: number; at: number } | undefined;

  constructor(
    readonly phoneSystem: PhoneSystem,
    private readonly options: ProviderSyncOptions,
  ) {
    this.changes = new ChangeLog(options.clock, options.changeLog);
    this.currentRole = options.shared ? 'follower' : 'solo';
    // Two intervals without a good sync: the service was not watching when a call left.
    this.endings = new CallEndings({ keepEndedMs: options.keepEndedMs, blindAfterMs: 2 * options.intervalMs });
  }

  get role(): SyncRole {
    return this.currentRole;
  }

  private leading(): boolean {
    return this.currentRole === 'leader';
  }

  start(): void {
    this.stopped = false;
    const shared = this.options.shared;
    if (!shared) {
      this.startPolling();
      return;
    }
    this.currentRole = 'follower';
    this.leaveCluster = shared.join({
      lead: () => void this.takeLead(),
      follow: () => this.stepDown(),
      changed: () => void this.readFeed(),
      pollSoon: () => {
        if (this.currentRole === 'leader') this.syncSoon();
      },
    });
    this.firstAttempt ??= this.readFeed().then(() => undefined);
    // Notices are the fast path; this read catches whatever a dropped connection let pass.
    this.followTimer = setInterval(() => {
      if (this.currentRole === 'follower') void this.readFeed();
      else this.updateHealth();
    }, Math.max(this.options.intervalMs, 1000));
    this.followTimer.unref();
  }

  private startPolling(): void {
    this.schedule(0);
    // A phone system that tells of its changes is synced as they happen; the interval stays as a safety net.
    this.stopWatching = this.phoneSystem.watchChanges?.(() => this.syncWatched());
  }

  private stopPolling(): void {
    this.stopWatching?.();
    this.stopWatching = undefined;
    clearTimeout(this.timer);
    clearTimeout(this.soon);
    clearTimeout(this.watched);
    this.timer = this.soon = this.watched = undefined;
  }

  /** This instance now leads: it catches up with what the last leader committed, then polls. */
  private async takeLead(): Promise<void> {
    if (this.stopped || this.currentRole !== 'follower') return;
    // Leading on a copy that missed the last leader's commits would fork the feed: without them, let go.
    if (!(await this.readFeed())) {
      await this.options.shared?.resign();
      return;
    }
    if (this.stopped || this.currentRole !== 'follower') return;
    this.currentRole = 'leader';
    this.leaderships += 1;
    // The journal is asked again what the last leader knew, and the first write is complete.
    this.recalled = false;
    this.journaled = undefined;
    this.checkpointed = undefined;
    this.options.log.info({ provider: this.options.providerID, seq: this.changes.position.seq }, 'leads the provider sync');
    this.startPolling();
  }

  /**
   * This instance lost the lead: it stops polling at once and follows the feed. When it still
   * holds the lock (the feed refused its write), it lets go, so the election can go on.
   */
  private stepDown(resign = false): void {
    if (this.currentRole !== 'leader') return;
    this.currentRole = 'follower';
    this.stopPolling();
    this.options.log.warn({ provider: this.options.providerID }, 'stopped leading the provider sync');
    if (resign) void this.options.shared?.resign();
    void this.readFeed();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopPolling();
    clearInterval(this.followTimer);
    this.abort.abort();
    await this.inFlight?.catch(() => undefined);
    await this.leaveCluster?.();
    this.leaveCluster = undefined;
  }

  /** One poll of the provider (a follower reads the shared feed instead); concurrent callers share it. */
  async syncOnce(): Promise<void> {
    if (this.currentRole === 'follower') {
      await this.readFeed();
      return;
    }
    this.inFlight ??= this.poll().finally(() => {
      this.inFlight = undefined;
      if (this.pollAgain) {
        this.pollAgain = false;
        this.syncWatched();
      }
    });
    this.firstAttempt ??= this.inFlight;
    return this.inFlight;
  }

  /**
   * The phone system said its calls changed: sync now, or as soon as MIN_WATCHED_SYNC_GAP_MS
   * has passed since the last poll started, so a burst of changes costs one poll.
   */
  private syncWatched(): void {
    if (this.stopped || this.watched) return;
    if (this.inFlight) {
      this.pollAgain = true;
      return;
    }
    const wait = this.lastPollStartedAt + MIN_WATCHED_SYNC_GAP_MS - this.options.clock.now();
    if (wait <= 0) {
      void this.syncOnce();
      return;
    }
    this.watched = setTimeout(() => {
      this.watched = undefined;
      void this.syncOnce();
    }, wait);
    this.watched.unref();
  }

  /** Streams hear of each change and each change of health; returns the unsubscribe function. */
  subscribe(listener: SyncListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The current snapshot and the change-log position it stands at, read together. */
  positionedSnapshot(): PositionedSnapshot | undefined {
    const snapshot = this.snapshot;
    if (!snapshot) return undefined;
    return { snapshot, position: this.changes.position, ageMs: Math.max(0, this.options.clock.now() - snapshot.takenAt) };
  }

  /** The changes after `from`, or undefined when a stream must start over from a snapshot. */
  changesSince(from: LogPosition): ChangeEntry[] | undefined {
    return this.changes.since(from);
  }

  get changeLogEpoch(): string {
    return this.changes.epoch;
  }

  /** Change events serialized so far: one per change, whatever the number of streams. */
  get changeSerializations(): number {
    return this.changes.serializations;
  }

  status(): ProviderStatus {
    const read = this.read();
    const snapshotAgeMs = this.ageMs();
    const age = snapshotAgeMs === undefined ? {} : { snapshotAgeMs };
    if (!read.ok) return { available: false, failure: read.failure, ...age };
    return this.lastFailure ? { available: true, failure: this.lastFailure, ...age } : { available: true, ...age };
  }

  /**
   * Asks for a poll soon rather than at the next tick (after a call was placed, say). Requests
   * within `SOON_MS` share one poll, so a burst of them cannot multiply the provider's load.
   */
  syncSoon(): void {
    if (this.currentRole === 'follower') {
      this.options.shared?.requestSync();
      return;
    }
    if (this.soon || this.stopped) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.syncOnce();
    }, SOON_MS);
    this.soon.unref();
  }

  /** Resolves once the first poll has settled, so a list right after start-up is not a needless 503. */
  async ready(): Promise<void> {
    await (this.firstAttempt ?? this.syncOnce());
  }

  /** Whether the first poll (or read of the shared feed) has given a snapshot or a failure to report. */
  get settled(): boolean {
    return this.snapshot !== undefined || this.lastFailure !== undefined;
  }

  read(): SnapshotRead {
    const now = this.options.clock.now();
    const snapshot = this.snapshot;
    if (snapshot && now - snapshot.takenAt <= this.options.staleAfterMs)
      return { ok: true, snapshot, ageMs: Math.max(0, now - snapshot.takenAt) };
    return { ok: false, failure: this.staleFailure(snapshot, now) };
  }

  /** Age of the last good snapshot in ms, or undefined before the first one. */
  ageMs(): number | undefined {
    return this.snapshot ? this.options.clock.now() - this.snapshot.takenAt : undefined;
  }

  liveCount(): number {
    return this.snapshot?.calls.filter((call) => call.endedAt === undefined).length ?? 0;
  }

  private staleFailure(snapshot: CallSnapshot | undefined, now: number): ProviderFailure {
    const cause = this.lastFailure?.message ?? 'it has not answered yet';
    const since = snapshot ? ` for ${Math.round((now - snapshot.takenAt) / 1000)} s` : '';
    return new ProviderFailure('unavailable', `${this.options.providerName} has not delivered its calls${since}: ${cause}`, this.options.providerName);
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.currentRole === 'follower') return;
    this.timer = setTimeout(() => {
      void this.syncOnce().finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.fetches += 1;
    this.lastPollStartedAt = this.options.clock.now();
    let calls: ProviderCall[];
    try {
      calls = await callWithDeadline(this.options.requestTimeoutMs, (signal) => this.phoneSystem.listCalls(signal), this.abort.signal);
    } catch (error) {
      this.failures += 1;
      this.lastFailure = error instanceof ProviderFailure ? error : new ProviderFailure('error', (error as Error).message);
      if (!this.stopped) {
        this.logFailure(this.lastFailure);
        if (this.currentRole === 'leader') await this.commitFailure(this.lastFailure);
        this.updateHealth();
      }
      return;
    }
    const takenAt = this.options.clock.now();
    if (!this.recalled) await this.recall(takenAt);
    const view = this.endings.next(calls, takenAt);
    if (this.currentRole === 'leader') {
      await this.commit(view, takenAt);
      return;
    }
    this.accept(view.listed, takenAt);
    this.logRecovery();
    this.updateHealth();
    await this.record(view, takenAt);
  }

  /**
   * The leader's sync: the journal batch, the change and the new position in one transaction,
   * fenced by its term. Only once committed does this instance serve it, as every follower will.
   */
  private async commit(view: CallEndingsView, takenAt: number): Promise<void> {
    const shared = this.options.shared as SharedSync;
    const provider = { id: this.options.providerID, name: this.options.providerName };
    // The cluster's first snapshot is a change from no calls: followers learn of every call through the log.
    const { snapshot, diff } = CallSnapshot.next(this.snapshot ?? CallSnapshot.empty(provider), view.listed, takenAt, provider);
    const position = { epoch: this.changes.epoch, seq: this.changes.position.seq + 1 };
    const change: FeedChange | undefined = isEmpty(diff)
      ? undefined
      : {
          seq: position.seq,
          at: takenAt,
          data: changeData(this.options.providerID, position, snapshot, diff),
          upserts: diff.upserted,
          removed: diff.removed.map((call) => call.callID),
        };
    const seq = position.seq - (change ? 0 : 1);
    const checkpointDue =
      !this.checkpointed || seq - this.checkpointed.seq >= CHECKPOINT_EVERY_CHANGES || takenAt - this.checkpointed.at >= CHECKPOINT_EVERY_MS;
    try {
      if (this.currentRole !== 'leader') return;
      await shared.commit({
        after: this.changes.position.seq,
        takenAt,
        batch: journalBatch(this.journaled, view.known, takenAt, view.endedByService),
        ...(change ? { change } : {}),
        ...(checkpointDue ? { checkpoint: snapshot.calls } : {}),
      });
    } catch (error) {
      this.journaled = undefined;
      if (error instanceof NotLeading) {
        this.options.log.warn({ provider: this.options.providerID, reason: error.message }, 'sync not committed');
        this.stepDown(true);
      } else this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'sync could not be committed');
      return;
    }
    this.journaled = view.known;
    if (checkpointDue) this.checkpointed = { seq, at: takenAt };
    this.snapshot = snapshot;
    this.lastFailure = undefined;
    if (change) {
      const entry = { seq: change.seq, at: takenAt, data: change.data, upserted: change.upserts.length, removed: change.removed.length };
      this.changes.adopt(entry);
      this.emit({ type: 'changes', entry });
    }
    this.logRecovery();
    this.updateHealth();
  }

  private async commitFailure(failure: ProviderFailure): Promise<void> {
    try {
      await this.options.shared?.commitFailure({ kind: failure.kind, message: failure.message });
    } catch (error) {
      if (error instanceof NotLeading) this.stepDown(true);
      else this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'provider failure could not be shared');
    }
  }

  /**
   * A follower's catch-up with the shared feed; reads run one at a time, and one queued covers
   * every ask. Resolves whether it read the feed (a leader has nothing to read, so true).
   */
  private readFeed(): Promise<boolean> {
    if (this.readQueued) return this.readQueued;
    const run = this.readChain.then(() => {
      this.readQueued = undefined;
      return this.catchUp();
    });
    this.readQueued = run;
    this.readChain = run.catch(() => undefined);
    return run;
  }

  private async catchUp(): Promise<boolean> {
    const shared = this.options.shared;
    if (!shared || this.leading() || this.stopped) return true;
    let read;
    try {
      read = await shared.read(this.resync ? undefined : this.changes.position);
    } catch (error) {
      this.failedReadsInARow += 1;
      const line = { provider: this.options.providerID, reason: (error as Error).message, failedInARow: this.failedReadsInARow };
      if (this.failedReadsInARow === 1) this.options.log.warn(line, 'shared sync unreadable');
      this.updateHealth();
      return false;
    }
    if (this.failedReadsInARow > 0) this.options.log.info({ provider: this.options.providerID }, 'shared sync readable again');
    this.failedReadsInARow = 0;
    // The lead may have been taken while the read was out: the leader holds what it committed.
    if (!read || this.leading()) return true;
    try {
      this.apply(read);
    } catch (error) {
      this.resync = true;
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'shared sync out of step; reading it whole');
      return false;
    }
    return true;
  }

  /** Brings the snapshot and the change log to where the feed stands, as the leader brought its own. */
  private apply(read: FeedRead): void {
    const { state } = read;
    this.resync = false;
    if (read.checkpoint) {
      this.changes.restart(state.epoch, read.checkpoint.seq);
      this.snapshot =
        state.takenAt === undefined
          ? undefined
          : CallSnapshot.next(undefined, read.checkpoint.calls, state.takenAt, { id: this.options.providerID, name: this.options.providerName }).snapshot;
    }
    for (const change of read.changes) this.follow(change);
    if (this.snapshot && state.takenAt !== undefined && state.takenAt > this.snapshot.takenAt) this.snapshot = this.snapshot.retaken(state.takenAt);
    this.lastFailure = state.failure ? new ProviderFailure(state.failure.kind, state.failure.message, this.options.providerName) : undefined;
    if (read.checkpoint) this.emit({ type: 'reset' });
    this.updateHealth();
  }

  /** Applies one change the leader committed, as the leader applied it. */
  private follow(change: FeedChange): void {
    const byID = new Map((this.snapshot?.calls ?? []).map((call) => [call.callID, call]));
    for (const call of change.upserts) byID.set(call.callID, call);
    for (const callID of change.removed) byID.delete(callID);
    this.snapshot = CallSnapshot.next(this.snapshot, [...byID.values()], change.at, { id: this.options.providerID, name: this.options.providerName }).snapshot;
    const entry = { seq: change.seq, at: change.at, data: change.data, upserted: change.upserts.length, removed: change.removed.length };
    this.changes.adopt(entry);
    this.emit({ type: 'changes', entry });
  }

  /**
   * Takes back, once, what the journal knew before this run: calls that ended shortly before a
   * restart stay listed, and calls that left while the service was down end at its last sync.
   */
  private async recall(at: number): Promise<void> {
    this.recalled = true;
    try {
      const { calls, lastSyncAt } = await this.options.journal.recall(at - this.options.keepEndedMs);
      this.endings.restore(
        calls.map(({ closedBySync, ...call }) => ({ call, endedByService: closedBySync })),
        lastSyncAt,
      );
    } catch (error) {
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'call journal could not be read back');
    }
  }

  /** Tells the streams when the provider starts failing, when its snapshot grows too old, and when it recovers. */
  private updateHealth(): void {
    const status = this.status();
    const health: Health = !status.available ? 'stale' : status.failure ? 'failing' : 'live';
    if (health === this.health) return;
    this.health = health;
    this.emit({ type: 'status', status });
  }

  private emit(event: SyncEvent): void {
    for (const listener of this.listeners) listener(event);
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

  /** Takes the new snapshot and, when anything changed, numbers the change and tells the streams. */
  private accept(calls: ProviderCall[], takenAt: number): void {
    const { snapshot, diff } = CallSnapshot.next(this.snapshot, calls, takenAt, { id: this.options.providerID, name: this.options.providerName });
    this.snapshot = snapshot;
    this.lastFailure = undefined;
    if (isEmpty(diff)) return;
    const entry = this.changes.append((position) => changeData(this.options.providerID, position, snapshot, diff), {
      upserted: diff.upserted.length,
      removed: diff.removed.length,
    });
    this.emit({ type: 'changes', entry });
  }

  /**
   * Journals what changed since the last written sync, listed or not (a call the service ended is
   * journaled even when `keepEndedMs` is 0). A failed write never stops the live feed; the next
   * sync then writes every call, and the store closes what vanished meanwhile.
   */
  private async record(view: CallEndingsView, takenAt: number): Promise<void> {
    try {
      await this.options.journal.write(journalBatch(this.journaled, view.known, takenAt, view.endedByService));
      this.journaled = view.known;
    } catch (error) {
      this.journaled = undefined;
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'call journal write failed');
    }
  }
}
