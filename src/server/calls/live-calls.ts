/**
 * What readers of one provider's calls see: the latest snapshot, the numbered log of what changed,
 * the provider's health, and the listeners (streams) told of each. Every new state reaches them
 * through one publish path, whoever made it: this instance's own sync, or a cluster leader's commit.
 */
import type { Clock } from '../clock.js';
import { ProviderFailure, type ProviderCall } from '../providers/phone-system.js';
import { isEmptyDiff } from './call-diff.js';
import { CallSnapshot, type ProviderIdentity } from './call-snapshot.js';
import { ChangeLog, type ChangeEntry, type ChangeLogLimits, type LogPosition } from './change-log.js';
import { HEALTHY, type ProviderHealth } from './provider-health.js';
import { changesData } from './stream-data.js';

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
  /** What works less well while the calls still arrive (the provider's event socket is down, so they are polled). */
  degraded?: string;
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

/** A new state, ready to publish: the snapshot, and the numbered change that leads to it (none when nothing changed). */
export interface NextState {
  snapshot: CallSnapshot;
  entry?: ChangeEntry;
  /** The calls the change upserted and the IDs it removed, for a cluster's feed. */
  upserted: ProviderCall[];
  removed: string[];
}

type Standing = 'live' | 'failing' | 'stale';

/** What readers may ask of a provider's calls; only the sync that owns them changes them. */
export type CallsView = Pick<
  LiveCalls,
  'read' | 'status' | 'subscribe' | 'positioned' | 'changesSince' | 'epoch' | 'serializations' | 'ageMs' | 'settled' | 'liveCount' | 'calls'
>;

export interface LiveCallsOptions {
  provider: ProviderIdentity;
  clock: Clock;
  staleAfterMs: number;
  changeLog?: ChangeLogLimits;
}

export class LiveCalls {
  private snapshot: CallSnapshot | undefined;
  /** Calls a follower took from a checkpoint written before the provider ever answered: served once the feed says it has. */
  private unconfirmed: readonly ProviderCall[] | undefined;
  private current: ProviderHealth = HEALTHY;
  private readonly changes: ChangeLog;
  private readonly listeners = new Set<SyncListener>();
  /** The standing and the degradation last told to the listeners. */
  private told: { standing: Standing; degraded: string | undefined } = { standing: 'live', degraded: undefined };

  constructor(private readonly options: LiveCallsOptions) {
    this.changes = new ChangeLog(options.clock, options.changeLog);
  }

  /**
   * The state after the current one with these calls, taken at `takenAt`, numbered as the next
   * change when anything changed. `fromEmpty` compares with no calls at all (a cluster's first
   * snapshot is a change, so followers learn of every call through the log).
   */
  next(calls: readonly ProviderCall[], takenAt: number, fromEmpty = false): NextState {
    const { provider } = this.options;
    const previous = this.snapshot ?? (fromEmpty ? CallSnapshot.empty(provider) : undefined);
    const { snapshot, diff } = CallSnapshot.next(previous, calls, takenAt, provider);
    if (!diff || isEmptyDiff(diff)) return { snapshot, upserted: [], removed: [] };
    const entry = this.changes.numbered((position) => changesData(provider.id, position, snapshot, diff), {
      upserted: diff.upserted.length,
      removed: diff.removed.length,
    });
    return { snapshot, entry, upserted: diff.upserted, removed: diff.removed.map((call) => call.callID) };
  }

  /**
   * The one way a new state reaches readers: the snapshot, its change numbered in the log and told
   * to every listener, with the provider's health as of that state when it changed with it.
   */
  publish(state: Pick<NextState, 'snapshot' | 'entry'>, health: ProviderHealth = this.current): void {
    this.snapshot = state.snapshot;
    this.unconfirmed = undefined;
    this.current = health;
    if (state.entry) {
      this.changes.adopt(state.entry);
      this.emit({ type: 'changes', entry: state.entry });
    }
    this.updateHealth();
  }

  /** The provider's health changed with no new state, as this instance or the cluster's leader saw it. */
  setHealth(health: ProviderHealth): void {
    this.current = health;
    this.updateHealth();
  }

  get health(): ProviderHealth {
    return this.current;
  }

  /**
   * The same calls as taken at a later moment (a follower heard that the leader's sync changed
   * nothing); the first such moment makes the snapshot of a follower that had none to serve.
   */
  retake(takenAt: number): void {
    if (this.snapshot) {
      if (takenAt > this.snapshot.takenAt) this.snapshot = this.snapshot.retaken(takenAt);
    } else if (this.unconfirmed) {
      this.snapshot = CallSnapshot.next(undefined, this.unconfirmed, takenAt, this.options.provider).snapshot;
      this.unconfirmed = undefined;
      this.updateHealth();
    }
  }

  /**
   * Starts the log over at `seq` of `epoch` with these calls (a follower's checkpoint), served as
   * of `takenAt`, or once a later read says the provider answered; streams send a snapshot.
   */
  restart(epoch: string, seq: number, calls: readonly ProviderCall[], takenAt: number | undefined): void {
    this.changes.restart(epoch, seq);
    this.snapshot = takenAt === undefined ? undefined : CallSnapshot.next(undefined, calls, takenAt, this.options.provider).snapshot;
    this.unconfirmed = takenAt === undefined ? calls : undefined;
    this.emit({ type: 'reset' });
  }

  /** The snapshot's calls, or none before the first. */
  get calls(): readonly ProviderCall[] {
    return this.snapshot?.calls ?? this.unconfirmed ?? [];
  }

  /** Calls not ended yet. */
  liveCount(): number {
    return this.calls.filter((call) => call.endedAt === undefined).length;
  }

  get position(): LogPosition {
    return this.changes.position;
  }

  get epoch(): string {
    return this.changes.epoch;
  }

  /** Change events serialized so far: one per change, whatever the number of streams. */
  get serializations(): number {
    return this.changes.serializations;
  }

  /** Whether there is a snapshot or a failure to report. */
  get settled(): boolean {
    return this.snapshot !== undefined || this.current.failure !== undefined;
  }

  subscribe(listener: SyncListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  positioned(): PositionedSnapshot | undefined {
    const snapshot = this.snapshot;
    if (!snapshot) return undefined;
    return { snapshot, position: this.changes.position, ageMs: Math.max(0, this.options.clock.now() - snapshot.takenAt) };
  }

  changesSince(from: LogPosition): ChangeEntry[] | undefined {
    return this.changes.since(from);
  }

  read(): SnapshotRead {
    const now = this.options.clock.now();
    const snapshot = this.snapshot;
    if (snapshot && now - snapshot.takenAt <= this.options.staleAfterMs) return { ok: true, snapshot, ageMs: Math.max(0, now - snapshot.takenAt) };
    return { ok: false, failure: this.staleFailure(snapshot, now) };
  }

  ageMs(): number | undefined {
    return this.snapshot ? this.options.clock.now() - this.snapshot.takenAt : undefined;
  }

  /** When the provider last answered a list. */
  get takenAt(): number | undefined {
    return this.snapshot?.takenAt;
  }

  status(): ProviderStatus {
    const read = this.read();
    const snapshotAgeMs = this.ageMs();
    const age = snapshotAgeMs === undefined ? {} : { snapshotAgeMs };
    const { failure, degraded } = this.current;
    const degradation = degraded === undefined ? {} : { degraded };
    if (!read.ok) return { available: false, failure: read.failure, ...age, ...degradation };
    return failure ? { available: true, failure, ...age, ...degradation } : { available: true, ...age, ...degradation };
  }

  /** Tells the streams when the provider starts failing, when its snapshot grows too old, when it recovers, and when its degradation changes. */
  updateHealth(): void {
    const status = this.status();
    const standing: Standing = !status.available ? 'stale' : status.failure ? 'failing' : 'live';
    if (standing === this.told.standing && status.degraded === this.told.degraded) return;
    this.told = { standing, degraded: status.degraded };
    this.emit({ type: 'status', status });
  }

  private staleFailure(snapshot: CallSnapshot | undefined, now: number): ProviderFailure {
    const name = this.options.provider.name;
    const cause = this.current.failure?.message ?? 'it has not answered yet';
    const since = snapshot ? ` for ${Math.round((now - snapshot.takenAt) / 1000)} s` : '';
    return new ProviderFailure('unavailable', `${name} has not delivered its calls${since}: ${cause}`, name);
  }

  private emit(event: SyncEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
