/**
 * Fills the call journal of a provider first seen with no history, from the provider's own past
 * (the optional `backfill` capability of a phone system): in the background while the service
 * already answers, newest first, batch by batch in bounded memory, within a budget of calls per
 * provider, and resumable where the last written batch ended. Where the provider tells its agents'
 * past states too, they are journaled with the batches, ending where the live board's rows begin.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { HistoryFill } from '../../contract/analytics.js';
import type { ProviderScope } from '../../contract/paths.js';
import type { Clock } from '../clock.js';
import type { ServiceConfig } from '../config/config-schema.js';
import type { PastCalls, PastRange, PhoneSystem } from '../providers/phone-system.js';
import type { BackfillProgress } from './backfill-ledger.js';
import { averageRate, nextChunk } from './backfill-chunks.js';
import type { HistoryStore } from './history-store.js';

export interface BackfillSource {
  scope: ProviderScope;
  phoneSystem: PhoneSystem;
  /**
   * In a cluster, whether this instance may fill the provider's past now (it leads the provider's
   * sync); another instance may have filled some of it meanwhile. Alone, always.
   */
  writesJournal?(): boolean;
  /** Told after each batch of the past is written: what was counted from the journal before may be counted again. */
  pastWritten?(): void;
}

export interface HistoryBackfillOptions {
  store: HistoryStore;
  sources: readonly BackfillSource[];
  /** How far back a new backfill reaches. */
  spanMs: number;
  /** Calls one provider's backfill may write; the newest hour is filled whatever it says. */
  maxCalls: number;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Providers filled at once (default: the cores but one, at most 4). */
  parallel?: number;
}

type PastSource = (range: PastRange, signal: AbortSignal) => AsyncIterable<PastCalls>;

interface Fill {
  scope: ProviderScope;
  source: BackfillSource;
  past: PastSource;
  progress: BackfillProgress;
  /** The busiest rate seen, in calls per ms, to size the next chunk to the budget. */
  callsPerMs: number;
  busy: boolean;
  failed: boolean;
}

/** How far back a new backfill reaches: the configured days, never past what retention keeps. */
export const backfillSpanMs = (history: ServiceConfig['history']): number =>
  Math.min(history.backfill.days, history.retentionDays) * 86_400_000;

const keyOf = (s: ProviderScope) => `${s.accountID}/${s.applicationID}/${s.providerID}`;

const iso = (ms: number) => new Date(ms).toISOString();

const defaultParallel = () => Math.max(1, Math.min(4, availableParallelism() - 1));

export class HistoryBackfill {
  private readonly fills = new Map<string, Fill>();
  private readonly abort = new AbortController();
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly options: HistoryBackfillOptions) {}

  /**
   * Reads each provider's backfill, and begins one for a provider whose journal is empty. Run it
   * before the first sync writes: after that no journal is empty.
   */
  async plan(): Promise<void> {
    const { store, clock, spanMs } = this.options;
    for (const { scope, phoneSystem } of this.options.sources) {
      if (!phoneSystem.backfill) continue;
      let progress = await store.readBackfill(scope);
      if (!progress && spanMs > 0 && !(await store.hasHistory(scope))) {
        const now = clock.now();
        progress = await store.beginBackfill(scope, {
          since: now - spanMs,
          to: now,
          filledFrom: now,
          calls: 0,
          status: 'filling',
        });
        this.options.log.info(
          { provider: scope.providerID, days: spanMs / 86_400_000 },
          'filling the call journal with the past of the provider, in the background',
        );
      }
      if (progress)
        this.fills.set(keyOf(scope), {
          scope,
          source: this.options.sources.find((source) => source.scope === scope) as BackfillSource,
          past: phoneSystem.backfill.bind(phoneSystem),
          progress,
          callsPerMs: averageRate(progress),
          busy: false,
          failed: false,
        });
    }
  }

  /** Fills in the background; `settled()` says when every fill is done, failed or stopped. */
  start(): void {
    const lanes = Array.from({ length: this.options.parallel ?? defaultParallel() }, () => this.lane());
    this.running = Promise.all(lanes).then(() => undefined);
  }

  settled(): Promise<void> {
    return this.running;
  }

  /** Stops at the batch being written (it commits whole) and waits for it. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** How far the provider's past is filled, if it has a backfill. */
  report(scope: ProviderScope): HistoryFill | undefined {
    const fill = this.fills.get(keyOf(scope));
    if (!fill) return undefined;
    const { since, to, filledFrom, calls, status } = fill.progress;
    return { status: fill.failed ? 'failed' : status, from: iso(since), to: iso(to), filledFrom: iso(filledFrom), calls };
  }

  private async lane(): Promise<void> {
    while (!this.abort.signal.aborted) {
      const fill = this.pick();
      if (!fill) {
        // Fills another instance leads may come to this one: wait for them rather than end.
        if (!this.waitingForLead()) return;
        await sleep(LEAD_CHECK_MS, undefined, { signal: this.abort.signal, ref: false }).catch(() => undefined);
        continue;
      }
      fill.busy = true;
      try {
        await this.fillChunk(fill);
      } catch (error) {
        if (!this.abort.signal.aborted) {
          fill.failed = true;
          this.options.log.error(
            { provider: fill.scope.providerID, reason: (error as Error).message },
            'filling the past of the provider failed; it resumes at the next start',
          );
        }
      } finally {
        fill.busy = false;
      }
    }
  }

  /** The provider with the least history filled goes next: every provider's newest hours come first. */
  private pick(): Fill | undefined {
    if (this.abort.signal.aborted) return undefined;
    let next: Fill | undefined;
    for (const fill of this.fills.values()) {
      if (fill.busy || fill.failed || fill.progress.status !== 'filling' || fill.source.writesJournal?.() === false) continue;
      if (!next || filledSpan(fill) < filledSpan(next)) next = fill;
    }
    return next;
  }

  private waitingForLead(): boolean {
    return [...this.fills.values()].some((fill) => !fill.failed && fill.progress.status === 'filling' && fill.source.writesJournal?.() === false);
  }

  /** Fills one chunk, or the rest of one a restart interrupted. */
  private async fillChunk(fill: Fill): Promise<void> {
    // In a cluster, the instance that led before may have filled more: start from what is recorded.
    if (fill.source.writesJournal) fill.progress = (await this.options.store.readBackfill(fill.scope)) ?? fill.progress;
    if (fill.progress.status !== 'filling') return;
    const start = fill.progress;
    const chunk = start.chunk ?? (await this.newChunk(fill));
    if (!chunk) return;
    const range: PastRange = { since: start.since, from: chunk.through, to: start.filledFrom };
    let written = 0;
    for await (const batch of fill.past(range, this.abort.signal)) {
      const progress = fill.progress;
      const finished = batch.through >= range.to;
      const next: BackfillProgress = finished
        ? { ...progress, filledFrom: chunk.from, chunk: undefined, status: chunk.from <= progress.since ? 'complete' : 'filling' }
        : { ...progress, chunk: { from: chunk.from, through: Math.max(progress.chunk?.through ?? range.from, batch.through) } };
      const loop = performance.eventLoopUtilization();
      // Before the progress that covers them: a crash in between writes them again, and rows already written are kept.
      const states = batch.agentStates?.filter((change) => change.at >= range.from && change.at < range.to) ?? [];
      if (states.length > 0) await this.options.store.recordAgentStates(fill.scope, states);
      const added = await this.options.store.writeBackfill(fill.scope, batch.calls, next);
      const { active } = performance.eventLoopUtilization(loop);
      written += added;
      fill.progress = { ...next, calls: progress.calls + added };
      if (added > 0) fill.source.pastWritten?.();
      if (finished) {
        fill.callsPerMs = Math.max(fill.callsPerMs, written / Math.max(1, range.to - range.from));
        if (fill.progress.status === 'complete') this.logEnd(fill, 'the past of the provider is filled into the call journal');
        return;
      }
      if (this.abort.signal.aborted) return;
      // The embedded store writes on this thread: resting as long as the write kept it busy leaves live requests at least
      // half of it. Without a rest, a batch already waiting would follow without ever leaving the microtask queue.
      await sleep(active);
    }
    if (!this.abort.signal.aborted)
      throw new Error(
        `the provider's past ended at ${iso(fill.progress.chunk?.through ?? chunk.through)}, before ${iso(range.to)}`,
      );
  }

  /** The next chunk to fill, or none: then the fill is complete or out of budget, and says so. */
  private async newChunk(fill: Fill): Promise<{ from: number; through: number } | undefined> {
    const next = nextChunk(fill.progress, this.options.maxCalls, fill.callsPerMs);
    if ('from' in next) return { from: next.from, through: next.from };
    fill.progress = { ...fill.progress, status: next.done };
    await this.options.store.writeBackfill(fill.scope, [], fill.progress);
    this.logEnd(
      fill,
      next.done === 'capped'
        ? 'the past of the provider is filled as far back as the budget of calls allows'
        : 'the past of the provider is filled into the call journal',
    );
    return undefined;
  }

  private logEnd(fill: Fill, message: string): void {
    // A table that grew by thousands of rows in minutes: the planner learns of them now, not at its next automatic pass.
    void this.options.store.refreshStatistics().catch((error: unknown) =>
      this.options.log.warn({ reason: (error as Error).message }, "the journal's statistics could not be refreshed"),
    );
    const { calls, filledFrom, to } = fill.progress;
    this.options.log.info(
      {
        provider: fill.scope.providerID,
        calls,
        maxCalls: this.options.maxCalls,
        days: Math.round(((to - filledFrom) / 86_400_000) * 100) / 100,
      },
      message,
    );
  }
}

/** How often a fill waiting for this instance to lead its provider looks again. */
const LEAD_CHECK_MS = 1000;

const filledSpan = (fill: Fill) => fill.progress.to - fill.progress.filledFrom;
