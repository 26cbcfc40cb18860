/** The call journal as one provider's sync needs it: the port the history store implements. */
import type { ProviderCall } from '../providers/phone-system.js';
import type { JournalBatch } from './journal-batch.js';

/** A journaled call, with whether the service (not the provider) closed it. */
export interface JournaledCall extends ProviderCall {
  closedBySync: boolean;
}

/** What the journal held of a provider when the service last ran. */
export interface JournalRecall {
  /** Calls still open, and those that ended recently. */
  calls: JournaledCall[];
  /** The last sync written; undefined for a provider never synced. */
  lastSyncAt: number | undefined;
}

/** The journal of one provider, as its sync loop sees it. */
export interface CallJournal {
  write(batch: JournalBatch): Promise<void>;
  /** Open calls and calls that ended from `since` on, as journaled before this run. */
  recall(since: number): Promise<JournalRecall>;
}
