/** Versioned schema migrations, kept in code and run by Kysely's Migrator at every start. */
import { Migrator, type Kysely, type Migration } from 'kysely';
import type { HistoryDb } from './history-tables.js';

const scopeColumns = ['account_id', 'application_id', 'provider_id'] as const;

const migrations: Record<string, Migration> = {
  '0001_calls': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('calls')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('call_id', 'text', (c) => c.notNull())
        .addColumn('provider_call_id', 'text', (c) => c.notNull())
        .addColumn('is_outbound', 'smallint', (c) => c.notNull())
        .addColumn('is_missed', 'smallint', (c) => c.notNull())
        .addColumn('remote_number', 'text', (c) => c.notNull())
        .addColumn('remote_name', 'text')
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('answered_at', 'bigint')
        .addColumn('ended_at', 'bigint')
        .addColumn('closed_by_sync', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('chosen_contact_id', 'text')
        .addColumn('subscriber_id', 'text')
        .addColumn('subscriber_first_name', 'text')
        .addColumn('subscriber_last_name', 'text')
        .addColumn('subscriber_email', 'text')
        .addColumn('subscriber_extension', 'text')
        .addColumn('subscriber_number', 'text')
        .addPrimaryKeyConstraint('calls_pk', [...scopeColumns, 'call_id'])
        .execute();
      await db.schema.createIndex('calls_by_start').on('calls').columns([...scopeColumns, 'started_at']).execute();
      // Retention deletes by end time across every provider.
      await db.schema.createIndex('calls_by_end').on('calls').column('ended_at').execute();
      await db.schema
        .createTable('provider_syncs')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('last_sync_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('provider_syncs_pk', [...scopeColumns])
        .execute();
    },
  },
  '0002_history_backfills': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('history_backfills')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('since_at', 'bigint', (c) => c.notNull())
        .addColumn('to_at', 'bigint', (c) => c.notNull())
        .addColumn('filled_from', 'bigint', (c) => c.notNull())
        .addColumn('chunk_from', 'bigint')
        .addColumn('chunk_through', 'bigint')
        .addColumn('calls', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('history_backfills_pk', [...scopeColumns])
        .execute();
    },
  },
  '0003_idempotency_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('claimed_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('failure', 'text')
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'application_id', 'idempotency_key'])
        .execute();
      // Pruning deletes by expiry across every application.
      await db.schema.createIndex('idempotency_keys_by_expiry').on('idempotency_keys').column('expires_at').execute();
      await db.schema
        .createTable('idempotency_key_counts')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('live_keys', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_key_counts_pk', ['account_id', 'application_id'])
        .execute();
    },
  },
  '0004_sync_feeds': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sync_feeds')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('epoch', 'text', (c) => c.notNull())
        .addColumn('term', 'bigint', (c) => c.notNull())
        .addColumn('leader', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('taken_at', 'bigint')
        .addColumn('failure_kind', 'text')
        .addColumn('failure_message', 'text')
        .addColumn('checkpoint_seq', 'bigint', (c) => c.notNull())
        .addColumn('checkpoint_at', 'bigint', (c) => c.notNull())
        .addColumn('checkpoint_calls', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sync_feeds_pk', [...scopeColumns])
        .execute();
      await db.schema
        .createTable('sync_changes')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('term', 'bigint', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('upserts', 'text', (c) => c.notNull())
        .addColumn('removed', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sync_changes_pk', [...scopeColumns, 'seq'])
        .execute();
    },
  },
  '0005_sync_inbox': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sync_inbox')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('updates', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sync_inbox_pk', [...scopeColumns, 'id'])
        .execute();
      await db.schema.createIndex('sync_inbox_by_arrival').on('sync_inbox').columns([...scopeColumns, 'received_at']).execute();
    },
  },
  '0006_calls_by_remote_number': {
    async up(db: Kysely<unknown>) {
      // Missed callers: who called them back, and when they were reached, is looked up by number.
      await db.schema.createIndex('calls_by_remote_number').on('calls').columns([...scopeColumns, 'remote_number', 'started_at']).execute();
    },
  },
  '0007_call_control': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('calls').addColumn('subscriber_answered_at', 'bigint').execute();
      await db.schema.alterTable('calls').addColumn('ended_by', 'text').execute();
      // The audit trail of interventions: who asked for what on which call, when, and what came of it.
      await db.schema
        .createTable('call_actions')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('call_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('detail', 'text')
        .addPrimaryKeyConstraint('call_actions_pk', [...scopeColumns, 'id'])
        .execute();
      await db.schema.createIndex('call_actions_by_call').on('call_actions').columns([...scopeColumns, 'call_id']).execute();
      await db.schema.createIndex('call_actions_by_time').on('call_actions').column('at').execute();
    },
  },
  '0008_sync_feed_degraded': {
    async up(db: Kysely<unknown>) {
      // The leader's degradation travels with its failure, so a stream at any instance tells it.
      await db.schema.alterTable('sync_feeds').addColumn('degraded', 'text').execute();
    },
  },
  '0009_call_queues': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('calls').addColumn('called_number', 'text').execute();
      await db.schema.alterTable('calls').addColumn('queue_id', 'text').execute();
      await db.schema.alterTable('calls').addColumn('queue_name', 'text').execute();
      // A queue's calls of a window: its figures, its filter on lists and analytics.
      await db.schema.createIndex('calls_by_queue').on('calls').columns([...scopeColumns, 'queue_id', 'started_at']).execute();
    },
  },
  '0010_reports': {
    async up(db: Kysely<unknown>) {
      // Every change of an agent's state on the board: a state holds from its row's `at` to the next row's.
      await db.schema
        .createTable('agent_states')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('subscriber_id', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('extension', 'text')
        .addPrimaryKeyConstraint('agent_states_pk', [...scopeColumns, 'subscriber_id', 'at'])
        .execute();
      await db.schema.createIndex('agent_states_by_time').on('agent_states').columns([...scopeColumns, 'at']).execute();
      // Each queue's parameters from when they took force: a report counts a call with those in force when it was offered.
      await db.schema
        .createTable('queue_parameters')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('queue_id', 'text', (c) => c.notNull())
        .addColumn('from_at', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('answer_within_ms', 'bigint', (c) => c.notNull())
        .addColumn('short_abandon_ms', 'bigint', (c) => c.notNull())
        .addColumn('service_level_target', 'double precision', (c) => c.notNull())
        .addColumn('members', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('queue_parameters_pk', [...scopeColumns, 'queue_id', 'from_at'])
        .execute();
      // Scheduled reports sent (or being sent) per schedule and period: the one place that says a period's report went out.
      await db.schema
        .createTable('report_sends')
        .addColumn('schedule_id', 'text', (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('owner', 'text')
        .addColumn('claimed_at', 'bigint')
        .addColumn('attempts', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('sent_at', 'bigint')
        .addColumn('message_id', 'text')
        .addColumn('last_error', 'text')
        .addPrimaryKeyConstraint('report_sends_pk', ['schedule_id', 'period'])
        .execute();
    },
  },
  '0011_agent_rollups': {
    async up(db: Kysely<unknown>) {
      // Each agent's sums over a closed period (a UTC hour, or a day of the service's time zone), read by the agents report instead of the raw rows.
      let rollups = db.schema
        .createTable('agent_rollups')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('span', 'text', (c) => c.notNull())
        .addColumn('period_start', 'bigint', (c) => c.notNull())
        .addColumn('subscriber_id', 'text', (c) => c.notNull());
      for (const column of ['unknown_ms', 'offline_ms', 'inactive_ms', 'available_ms', 'ringing_ms', 'on_call_ms', 'answered', 'unanswered', 'outbound', 'talk_ms', 'handled'])
        rollups = rollups.addColumn(column, 'bigint', (c) => c.notNull());
      await rollups
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('extension', 'text')
        .addPrimaryKeyConstraint('agent_rollups_pk', [...scopeColumns, 'span', 'period_start', 'subscriber_id'])
        .execute();
      // The periods rolled: a period here with no agent rows had nobody active; a period not here is read raw.
      await db.schema
        .createTable('agent_rollup_periods')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('application_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('span', 'text', (c) => c.notNull())
        .addColumn('period_start', 'bigint', (c) => c.notNull())
        .addColumn('period_end', 'bigint', (c) => c.notNull())
        .addColumn('rolled_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('agent_rollup_periods_pk', [...scopeColumns, 'span', 'period_start'])
        .execute();
      // A write dated inside rolled periods un-marks those ending after it.
      await db.schema.createIndex('agent_rollup_periods_by_end').on('agent_rollup_periods').columns([...scopeColumns, 'period_end']).execute();
    },
  },
  '0012_sessions': {
    async up(db: Kysely<unknown>) {
      // People signed in with the identity provider: a row per session, found by the digest of its cookie (the cookie itself is never stored).
      await db.schema
        .createTable('sessions')
        .addColumn('id_digest', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('grants', 'text', (c) => c.notNull())
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('id_token', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addColumn('ended_why', 'text')
        .execute();
      await db.schema.createIndex('sessions_by_expiry').on('sessions').column('expires_at').execute();
      // Sign-ins under way: each is taken once, by its state, when the identity provider sends the browser back.
      await db.schema
        .createTable('sign_in_requests')
        .addColumn('state', 'text', (c) => c.primaryKey())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('return_to', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // The audit names the person behind an action, besides the token's or person's label.
      await db.schema.alterTable('call_actions').addColumn('actor_subject', 'text').execute();
      await db.schema.alterTable('call_actions').addColumn('actor_email', 'text').execute();
    },
  },
};

/**
 * Brings the schema to the latest version; throws with the failing migration's error. `schema`
 * names where Kysely keeps its own bookkeeping tables when the service is confined to one.
 */
export const migrateToLatest = async (db: HistoryDb, schema?: string): Promise<void> => {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`history database migration ${failed} failed: ${(error as Error).message}`, { cause: error });
  }
};
