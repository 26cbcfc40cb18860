/** The history database's tables as Kysely sees them: one schema for both dialects, times in epoch ms. */
import type { Kysely } from 'kysely';
import type { CallFieldColumns } from '../providers/call-fields.js';

/**
 * One row per call a provider's sync loop has seen: its scope, its ID and a column per call field
 * (from the one list of them); booleans are 0 / 1 so both dialects read them alike.
 */
export type CallsTable = {
  account_id: string;
  application_id: string;
  provider_id: string;
  call_id: string;
  /** 1 when the provider never reported the end: the service closed the call when it vanished. */
  closed_by_sync: number;
} & CallFieldColumns;

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

/**
 * A provider's shared sync in a cluster: which leadership term may write, the change-log position
 * every instance serves, the health of the last poll, and a checkpoint of the listed calls from
 * which an instance that starts (or fell behind) rebuilds the snapshot before applying the changes after it.
 */
export interface SyncFeedsTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  /** The change log's epoch: cursors from it resume on any instance. */
  epoch: string;
  /** Raised by each new leader; a write from an older term is refused. */
  term: number;
  /** The instance that leads this term. */
  leader: string;
  seq: number;
  /** When the provider last answered; null before the first answer. */
  taken_at: number | null;
  failure_kind: string | null;
  failure_message: string | null;
  /** What works less well at the leader while calls still arrive (its event socket to the provider is down). */
  degraded: string | null;
  checkpoint_seq: number;
  checkpoint_at: number;
  /** The listed calls at `checkpoint_seq`, as JSON. */
  checkpoint_calls: string;
}

/** One numbered change of a provider's shared sync: the event's data, and the calls it changed. */
export interface SyncChangesTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  seq: number;
  term: number;
  at: number;
  data: string;
  /** The calls added or changed, as JSON. */
  upserts: string;
  /** The call IDs that left the list, as JSON. */
  removed: string;
}

/** Call updates a provider pushed to one instance of a cluster, stored until the leader applies them in a commit. */
export interface SyncInboxTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  /** A random ID of the delivery: the leader removes the ones it applied, by ID. */
  id: string;
  /** Clock time the instance received them: the leader applies deliveries in this order. */
  received_at: number;
  /** The updates, as JSON. */
  updates: string;
}

/** The audit trail of interventions on calls: who asked for what on which call, when, and what came of it. */
export interface CallActionsTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  /** A random ID of the action. */
  id: string;
  call_id: string;
  /** What was asked: "end". */
  action: string;
  /** The name of the token that asked, or the person's email. */
  actor: string;
  /** A signed-in person's subject at the identity provider and email; null for a token. */
  actor_subject: string | null;
  actor_email: string | null;
  at: number;
  /** "done", or the problem code it ended in. */
  outcome: string;
  /** The provider's words where it refused or failed. */
  detail: string | null;
}

export interface HistoryTables {
  calls: CallsTable;
  provider_syncs: ProviderSyncsTable;
  history_backfills: HistoryBackfillsTable;
  idempotency_keys: IdempotencyKeysTable;
  idempotency_key_counts: IdempotencyKeyCountsTable;
  sync_feeds: SyncFeedsTable;
  sync_changes: SyncChangesTable;
  sync_inbox: SyncInboxTable;
  call_actions: CallActionsTable;
  agent_states: AgentStatesTable;
  queue_parameters: QueueParametersTable;
  report_sends: ReportSendsTable;
  agent_rollups: AgentRollupsTable;
  agent_rollup_periods: AgentRollupPeriodsTable;
  sessions: SessionsTable;
  sign_in_requests: SignInRequestsTable;
}

/** A person's session: found by the SHA-256 of its cookie; ended by sign-out, revocation or time. */
export interface SessionsTable {
  id_digest: string;
  account_id: string;
  subject: string;
  email: string;
  name: string;
  /** What the person may see and do, as JSON (`auth/grants.ts`), fixed at sign-in. */
  grants: string;
  csrf_token: string;
  /** Given back to the identity provider at sign-out, as `id_token_hint`. */
  id_token: string | null;
  created_at: number;
  last_seen_at: number;
  /** The absolute end; the idle end is `last_seen_at` plus the configured idle time. */
  expires_at: number;
  ended_at: number | null;
  /** "signed-out" or "revoked". */
  ended_why: string | null;
}

/** A sign-in under way: what the callback checks the identity provider's answer against. */
export interface SignInRequestsTable {
  state: string;
  nonce: string;
  code_verifier: string;
  return_to: string | null;
  created_at: number;
}

/** One change of an agent's state on the board; the state holds from `at` until the agent's next row. */
export interface AgentStatesTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  subscriber_id: string;
  /** When the state began (the board's `since`). */
  at: number;
  /** One of the board's states, or 'unknown' from when the service stopped knowing the agent (it stopped, or the agent left the provider). */
  state: string;
  first_name: string | null;
  last_name: string | null;
  extension: string | null;
}

/** A queue's parameters from `from_at` until its next row: what a report counts the calls offered then with. */
export interface QueueParametersTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  queue_id: string;
  from_at: number;
  name: string;
  answer_within_ms: number;
  short_abandon_ms: number;
  service_level_target: number;
  /** The queue's members then, as a JSON array of subscriber IDs. */
  members: string;
}

/** One scheduled report's period: claimed by the instance sending it, then sent (or failing, with the next attempt's time). */
export interface ReportSendsTable {
  schedule_id: string;
  /** The period the report covers, e.g. "2026-11-28" for a daily one, "2026-W48" for a weekly one. */
  period: string;
  /** 'sending', 'sent' or 'failed'. */
  status: string;
  /** The instance that claimed it, and when. */
  owner: string | null;
  claimed_at: number | null;
  attempts: number;
  next_attempt_at: number | null;
  sent_at: number | null;
  /** The Message-ID the report was sent with: every attempt of one period uses the same. */
  message_id: string | null;
  last_error: string | null;
}

/** One agent's sums over one rolled period: what the agents report counts for it over that period. */
export interface AgentRollupsTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  /** 'hour' (a UTC hour) or 'day' (midnight to midnight in the service's time zone). */
  span: string;
  period_start: number;
  subscriber_id: string;
  unknown_ms: number;
  offline_ms: number;
  inactive_ms: number;
  available_ms: number;
  ringing_ms: number;
  on_call_ms: number;
  answered: number;
  unanswered: number;
  outbound: number;
  talk_ms: number;
  handled: number;
  /** The names as last known within the period. */
  first_name: string | null;
  last_name: string | null;
  extension: string | null;
}

/** A period whose rollup rows stand for its raw rows; removed when a later write lands inside it. */
export interface AgentRollupPeriodsTable {
  account_id: string;
  application_id: string;
  provider_id: string;
  span: string;
  period_start: number;
  period_end: number;
  rolled_at: number;
}

export type HistoryDb = Kysely<HistoryTables>;
