/**
 * One provider's sync and its journal: what the journal knew before (recalled once per run, or per
 * lead), what each new view adds to what was written, and the write itself when the instance syncs
 * alone (a cluster's leader hands the batch to its commit instead).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderCall } from '../providers/phone-system.js';
import type { CallJournal } from './call-journal.js';
import { journalBatch, journalBatchOf, type JournalBatch } from './journal-batch.js';
import type { CallEndingsView, KnownCalls } from './known-calls.js';

/** The calls a written batch leaves in the journal, and the view they were when they are one. */
interface Written {
  known: readonly ProviderCall[];
  view?: number;
}

/** A batch to write, and what the journal holds once it is written. */
export interface PendingBatch {
  batch: JournalBatch;
  leaves: Written;
}

/**
 * Whether the journal is yet to be asked what it knew, and whether what it answers is exactly what
 * it holds (a new leader's: the last leader committed it), so the first write is the difference from it.
 */
type Recall = 'due' | 'due, and it is what is written' | 'done';

export class JournalWriter {
  /** What the journal holds, as last written; undefined until a write succeeds, or after one failed. */
  private written: Written | undefined;
  private recall: Recall = 'due';

  constructor(
    private readonly journal: CallJournal,
    private readonly known: KnownCalls,
    private readonly options: { providerID: string; keepEndedMs: number; log: FastifyBaseLogger },
  ) {}

  /**
   * Starts over as a new leader: the journal holds exactly what the last leader committed, so it is
   * asked again, and the first write is the difference from what it answers (at 10,000 calls, a few
   * hundred rows instead of all of them, in the commit that ends a failover).
   */
  lead(): void {
    this.recall = 'due, and it is what is written';
    this.written = undefined;
  }

  /**
   * Takes back, once, what the journal knew before this run (or lead): calls that ended shortly
   * before a restart stay listed, and calls that left while the service was down end at its last sync.
   */
  async recallOnce(at: number): Promise<void> {
    if (this.recall === 'done') return;
    const isWritten = this.recall === 'due, and it is what is written';
    this.recall = 'done';
    try {
      const { calls, lastSyncAt } = await this.journal.recall(at - this.options.keepEndedMs);
      const restored = calls.map(({ closedBySync, ...call }) => ({ call, endedByService: closedBySync }));
      this.known.restore(restored, lastSyncAt);
      if (isWritten) this.written = { known: restored.map(({ call }) => call) };
    } catch (error) {
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'call journal could not be read back');
    }
  }

  /**
   * What the journal lacks of a view. When it holds the view before, that is the calls the view
   * names as changed: the calls are not compared a second time. Otherwise (the first write, after
   * a failed one, or from what a new leader recalled) what it holds is compared with the view.
   */
  batchFor(view: CallEndingsView, takenAt: number): PendingBatch {
    const written = this.written;
    const batch =
      written?.view !== undefined && written.view === view.number - 1
        ? journalBatchOf(view.changed, takenAt, view.endedByService)
        : journalBatch(written?.known, view.known, takenAt, view.endedByService);
    return { batch, leaves: { known: view.known, view: view.number } };
  }

  /** The batch is in the journal (written here, or in a leader's commit). */
  wrote(pending: PendingBatch): void {
    this.written = pending.leaves;
  }

  /** A write failed: the next batch carries every call, and the store closes what vanished meanwhile. */
  lost(): void {
    this.written = undefined;
  }

  /**
   * Writes the batch (an instance that syncs alone); a failed write never stops the live feed.
   * Listed or not, what changed is written: a call the service ended is journaled even when `keepEndedMs` is 0.
   */
  async write(pending: PendingBatch): Promise<void> {
    try {
      await this.journal.write(pending.batch);
      this.wrote(pending);
    } catch (error) {
      this.lost();
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'call journal write failed');
    }
  }
}
