/** The history database's tables as Kysely sees them: one schema for both dialects, times in epoch ms. */
import type { Kysely } from 'kysely';

/** One row per call a provider's sync loop has seen; booleans are 0 / 1 so both dialects read them alike. */
export interface CallsTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  call_id: string;
  provider_call_id: string;
  is_outbound: number;
  is_missed: number;
  remote_number: string;
  remote_name: string | null;
  started_at: number;
  answered_at: number | null;
  ended_at: number | null;
  /** 1 when the provider never reported the end: the service closed the call when it vanished. */
  closed_by_sync: number;
  chosen_contact_id: string | null;
  subscriber_id: string | null;
  subscriber_first_name: string | null;
  subscriber_last_name: string | null;
  subscriber_email: string | null;
  subscriber_extension: string | null;
  subscriber_number: string | null;
}

/** The last sync each provider wrote: after a restart, calls still open from before are closed at it. */
export interface ProviderSyncsTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  last_sync_at: number;
}

/**
 * A provider's backfill: the past it fills, newest first, and how far it got, written in the same
 * transaction as each batch of calls, so a restart resumes exactly where the last batch ended.
 */
export interface HistoryBackfillsTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  /** Where the backfilled history begins, and where the provider's own journal took over. */
  since_at: number;
  to_at: number;
  /** The history is complete from here to `to_at`. */
  filled_from: number;
  /** The stretch being filled, [chunk_from, filled_from), written for calls that ended before chunk_through. */
  chunk_from: number | null;
  chunk_through: number | null;
  /** Calls the backfill has written. */
  calls: number;
  /** 'filling', 'complete', or 'capped' (stopped at the budget of calls). */
  status: string;
}

/** One make-call Idempotency-Key of an account's application, claimed before the provider is called. */
export interface IdempotencyKeysTable {
  account_id: string;
  application_id: string;
  idempotency_key: string;
  /** Digest of the request (provider and body): the same key with another request is refused. */
  fingerprint: string;
  /** 'pending' while the attempt runs, then 'placed', or 'unknown' when the provider timed out. */
  state: string;
  claimed_at: number;
  expires_at: number;
  /** JSON of what the provider said when the outcome became unknown. */
  failure: string | null;
}

/** Live keys per account and application, kept with every claim so the quota costs one row, not a count. */
export interface IdempotencyKeyCountsTable {
  account_id: string;
  application_id: string;
  live_keys: number;
}

export interface HistoryTables {
  calls: CallsTable;
  provider_syncs: ProviderSyncsTable;
  history_backfills: HistoryBackfillsTable;
  idempotency_keys: IdempotencyKeysTable;
  idempotency_key_counts: IdempotencyKeyCountsTable;
}

export type HistoryDb = Kysely<HistoryTables>;
