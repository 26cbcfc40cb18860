/**
 * What one sync must write to the journal: the calls that are new or changed since the last
 * written snapshot, and the calls that vanished without an end time (ghosts, closed at `at`).
 */
import { diffCalls } from '../calls/call-diff.js';
import type { ProviderCall } from '../providers/phone-system.js';

export interface JournalBatch {
  /** Clock time of the snapshot. */
  at: number;
  upserts: ProviderCall[];
  /** Call IDs to close at `at` and mark closed by sync. */
  vanished: string[];
  /**
   * The first batch of a run (or after a failed write) carries every call, and tells the store to
   * close what it still holds open but the provider no longer lists.
   */
  complete: boolean;
}

export const journalBatch = (written: readonly ProviderCall[] | undefined, current: readonly ProviderCall[], at: number): JournalBatch => {
  if (!written) return { at, upserts: [...current], vanished: [], complete: true };
  const { upserted, removed } = diffCalls(written, current);
  const vanished = removed.filter((call) => call.endedAt === undefined).map((call) => call.callID);
  return { at, upserts: upserted, vanished, complete: false };
};
