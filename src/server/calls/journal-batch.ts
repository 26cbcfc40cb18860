/**
 * What one sync must write to the journal: the calls that are new or changed since the last
 * written snapshot, each flagged when the service, not the provider, ended it.
 */
import { diffCalls } from './call-diff.js';
import type { ProviderCall } from '../providers/phone-system.js';

export interface JournalBatch {
  /** Clock time of the snapshot. */
  at: number;
  upserts: ProviderCall[];
  /** The upserts whose end the service set when they left the provider's list. */
  endedByService: ReadonlySet<string>;
  /**
   * The first batch of a run (or after a failed write) carries every call, and tells the store to
   * close what it still holds open but the provider no longer lists.
   */
  complete: boolean;
}

const NONE: ReadonlySet<string> = new Set();

const flaggedOf = (upserts: readonly ProviderCall[], endedByService: ReadonlySet<string>): ReadonlySet<string> =>
  endedByService.size === 0 ? NONE : new Set(upserts.filter((call) => endedByService.has(call.callID)).map((call) => call.callID));

export const journalBatch = (
  written: readonly ProviderCall[] | undefined,
  current: readonly ProviderCall[],
  at: number,
  endedByService: ReadonlySet<string> = NONE,
): JournalBatch => {
  const upserts = written ? diffCalls(written, current).upserted : [...current];
  return { at, upserts, endedByService: flaggedOf(upserts, endedByService), complete: !written };
};

/** The batch after a written one when what changed since is already known (`upserts`, found by the caller's own diff). */
export const journalBatchOf = (upserts: ProviderCall[], at: number, endedByService: ReadonlySet<string> = NONE): JournalBatch => ({
  at,
  upserts,
  endedByService: flaggedOf(upserts, endedByService),
  complete: false,
});
