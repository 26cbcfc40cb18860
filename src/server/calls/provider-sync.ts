/**
 * One sync loop per provider: polls the phone system on an interval, keeps the latest snapshot
 * of its calls for every reader, and writes what changed to the call journal, one batch a sync.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { callWithDeadline } from '../providers/call-with-deadline.js';
import { ProviderFailure, type PhoneSystem, type ProviderCall } from '../providers/phone-system.js';
import type { CallJournal } from '../history/history-store.js';
import { journalBatch } from '../history/journal-batch.js';
import { CallSnapshot } from './call-snapshot.js';

const SOON_MS = 250;

export interface ProviderSyncOptions {
  providerID: string;
  providerName: string;
  intervalMs: number;
  requestTimeoutMs: number;
  staleAfterMs: number;
  clock: Clock;
  log: FastifyBaseLogger;
  journal: CallJournal;
}

/** What a reader gets: the snapshot and its age, or why there is none fit to serve. */
export type SnapshotRead = { ok: true; snapshot: CallSnapshot; ageMs: number } | { ok: false; failure: ProviderFailure };

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
  /** Failed polls in a row; the log says when a streak starts and ends, not every poll of it. */
  private failedInARow = 0;
  /** Upstream list requests made, for metrics and the fan-in guarantee. */
  fetches = 0;
  failures = 0;

  constructor(
    readonly phoneSystem: PhoneSystem,
    private readonly options: ProviderSyncOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.soon);
    this.abort.abort();
    await this.inFlight?.catch(() => undefined);
  }

  /** One poll of the provider; concurrent callers share it. */
  syncOnce(): Promise<void> {
    this.inFlight ??= this.poll().finally(() => {
      this.inFlight = undefined;
    });
    this.firstAttempt ??= this.inFlight;
    return this.inFlight;
  }

  /**
   * Asks for a poll soon rather than at the next tick (after a call was placed, say). Requests
   * within `SOON_MS` share one poll, so a burst of them cannot multiply the provider's load.
   */
  syncSoon(): void {
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
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.syncOnce().finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.fetches += 1;
    try {
      const calls = await callWithDeadline(this.options.requestTimeoutMs, (signal) => this.phoneSystem.listCalls(signal), this.abort.signal);
      const takenAt = this.options.clock.now();
      this.accept(calls, takenAt);
      this.logRecovery();
      await this.record(takenAt);
    } catch (error) {
      this.failures += 1;
      this.lastFailure = error instanceof ProviderFailure ? error : new ProviderFailure('error', (error as Error).message);
      if (!this.stopped) this.logFailure(this.lastFailure);
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

  private accept(calls: ProviderCall[], takenAt: number): void {
    const previous = this.snapshot;
    this.snapshot = CallSnapshot.build(calls, takenAt, { id: this.options.providerID, name: this.options.providerName }, previous);
    this.lastFailure = undefined;
  }

  /**
   * Journals what changed since the last written snapshot. A failed write never stops the live
   * feed; the next sync then writes every call, and the store closes what vanished meanwhile.
   */
  private async record(takenAt: number): Promise<void> {
    const calls = this.snapshot?.calls ?? [];
    try {
      await this.options.journal.write(journalBatch(this.journaled, calls, takenAt));
      this.journaled = calls;
    } catch (error) {
      this.journaled = undefined;
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'call journal write failed');
    }
  }
}
