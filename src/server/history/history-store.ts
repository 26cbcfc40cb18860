/**
 * The call journal and the queries answered from it, over either dialect: one batched
 * transaction per sync, window lists, analytics, the backfill's batches and retention; and the
 * make-call Idempotency-Keys, which live in the same database.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { MissedCalls, MissedCallsRequest } from './missed-calls-query.js';
import type { QueueServiceLevelRequest, QueueServiceLevelRows, ServiceLevelRequest, ServiceLevelRows } from './service-level-query.js';
import type { ProviderScope } from '../../contract/paths.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { beginBackfill, readBackfill, writeBackfill, type BackfillProgress } from './backfill-ledger.js';
import type { CallJournal, JournaledCall, JournalRecall } from '../calls/call-journal.js';
import { fromCallRow, toCallRow } from './call-rows.js';
import type { ConcurrencyBucketRow, ConcurrencyRequest } from './concurrency-query.js';
import { HeavyReadPool } from './heavy-read-pool.js';
import type { IntervalReportBody, IntervalReportRequest } from './interval-report.js';
import { CallExports } from './call-exports.js';
import type { ExportRange } from './call-export.js';
import { callsLiveDuring, inlineHeavyReader, type HeavyReader, type WindowList, type WindowListRequest } from './heavy-reads.js';
import type { IdempotencyKeys } from '../idempotency/idempotency-store.js';
import type { HistoryDb } from './history-tables.js';
import { chunks, earliest, earliestStart, inScope, writeJournalBatch } from './journal-write.js';
import { dayFromHours, oldestAgentActivity, pruneRollups, rolledPeriods, unrollFrom, writeRollup, type RollupPeriod } from './agent-rollups.js';
import { RollupHorizon } from './rollup-horizon.js';
import { IdempotencyKeysTable } from './idempotency-keys-table.js';
import { ReportSendsTable } from './report-sends-table.js';
import { SessionsTable } from './sessions-table.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import type { JournalBatch } from '../calls/journal-batch.js';
import { openHistoryDatabase, type HistoryDialect, type HistoryLocation } from './open-history-database.js';
import { SyncFeeds } from './sync-feeds.js';
import type { SubscriberActivityRow } from './subscriber-activity-query.js';
import type { AgentTimeRequest, AgentTimeRow } from './agent-time-query.js';
import {
  pruneAgentStates,
  queueParameterHistory,
  recordQueueParameters,
  writeAgentStates,
  type AgentStateChange,
  type QueueParametersInForce,
} from './report-journal.js';

/** The lane of reads the service makes for itself, apart from any token's. */
const SERVICE_LANE = 'service';
/** The lane of the agents' rollups, so rolling takes its turn with the readers beside everyone's reads. */
const ROLLUP_LANE = 'rollups';

/** One intervention on a call, for the audit trail. */
export interface CallAction {
  /** Empty for an export, which is of many calls. */
  callID: string;
  action: 'end' | 'place' | 'export' | 'listen' | 'unlisten';
  /** The token's name, or the person's email. */
  actor: string;
  /** A signed-in person's subject and email. */
  actorSubject?: string;
  actorEmail?: string;
  at: number;
  outcome: string;
  detail?: string;
}

export class HistoryStore {
  /** Make-call Idempotency-Keys, kept beside the journal so they hold across restarts and instances. */
  readonly idempotencyKeys: IdempotencyKeys;
  /** Which scheduled reports went out, shared by the instances of a cluster. */
  readonly reportSends: ReportSendsTable;
  /** People's sessions and sign-ins under way, shared by the instances of a cluster. */
  readonly sessions: SessionsTable;
  /** Whole ranges of calls out as files, each on a thread and a connection of its own. */
  readonly exports: CallExports;
  private readonly rollupHorizon: RollupHorizon;

  private constructor(
    private readonly db: HistoryDb,
    /** Where the database is: a cluster opens its own connection to it, beside the pool. */
    readonly location: HistoryLocation,
    /** Where the heavy reads run: reader threads, off the event loop. */
    private readonly reader: HeavyReader,
    inMemory = false,
  ) {
    this.idempotencyKeys = new IdempotencyKeysTable(db);
    this.reportSends = new ReportSendsTable(db);
    this.sessions = new SessionsTable(db);
    this.exports = new CallExports(location, inMemory ? db : undefined);
    this.rollupHorizon = new RollupHorizon((scope, at) => unrollFrom(db, scope, at));
  }

  static async open(location: HistoryLocation): Promise<HistoryStore> {
    const db = await openHistoryDatabase(location);
    const inMemory = location.kind === 'embedded' && location.file === ':memory:';
    return new HistoryStore(db, location, inMemory ? inlineHeavyReader(db) : new HeavyReadPool(location), inMemory);
  }

  get dialect(): HistoryDialect {
    return this.location.kind;
  }

  /** The shared syncs of a cluster on this database; `channel` is its NOTIFY channel. */
  syncFeeds(channel: string): SyncFeeds {
    return new SyncFeeds(this.db, channel, (scope, earliest) => this.rollupHorizon.written(scope, earliest));
  }

  journal(scope: ProviderScope): CallJournal {
    return { write: (batch) => this.write(scope, batch), recall: (since) => this.recall(scope, since) };
  }

  /** One transaction per sync: a crash loses at most this batch and never leaves half of it. */
  async write(scope: ProviderScope, batch: JournalBatch): Promise<void> {
    const earliest = await this.db.transaction().execute((trx) => writeJournalBatch(trx, scope, batch));
    await this.rollupHorizon.written(scope, earliest);
  }

  /**
   * What the service knew of a provider's calls when it last ran: the calls still open and those
   * that ended from `since` on, and the time of its last sync; the sync takes them back at start.
   */
  async recall(scope: ProviderScope, since: number): Promise<JournalRecall> {
    const rows = await this.db
      .selectFrom('calls')
      .selectAll()
      .where((eb) => eb.and(inScope(scope)))
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>=', since)]))
      .execute();
    const mark = await this.db.selectFrom('provider_syncs').select('last_sync_at').where((eb) => eb.and(inScope(scope))).executeTakeFirst();
    return { calls: rows.map(fromCallRow), lastSyncAt: mark === undefined ? undefined : Number(mark.last_sync_at) };
  }

  /** Calls live at any moment of [from, to], oldest first; at most `limit` of them. Read here, on the caller's thread. */
  callsLiveDuring(scope: ProviderScope, from: number, to: number, limit: number): Promise<JournaledCall[]> {
    return callsLiveDuring(this.db, scope, from, to, limit);
  }

  /**
   * A window of the list, serialized, from a reader thread. `lane` groups the reads one caller
   * makes (a token): the readers take lanes in turn.
   */
  windowList(request: WindowListRequest, lane = SERVICE_LANE): Promise<WindowList> {
    return this.reader.read('windowList', [request], lane);
  }

  concurrency(scope: ProviderScope, request: ConcurrencyRequest, lane = SERVICE_LANE): Promise<ConcurrencyBucketRow[]> {
    return this.reader.read('concurrency', [scope, request], lane);
  }

  subscriberActivity(scope: ProviderScope, from: number, to: number, now: number, lane = SERVICE_LANE, queues?: QueueSelection): Promise<SubscriberActivityRow[]> {
    return this.reader.read('subscriberActivity', [scope, from, to, now, ...(queues ? [queues] : [])] as [ProviderScope, number, number, number, QueueSelection?], lane);
  }

  serviceLevels(scope: ProviderScope, request: ServiceLevelRequest, lane = SERVICE_LANE): Promise<ServiceLevelRows> {
    return this.reader.read('serviceLevels', [scope, request], lane);
  }

  serviceLevelsByQueue(scope: ProviderScope, request: QueueServiceLevelRequest, lane = SERVICE_LANE): Promise<QueueServiceLevelRows> {
    return this.reader.read('serviceLevelsByQueue', [scope, request], lane);
  }

  missedCalls(scope: ProviderScope, request: MissedCallsRequest, lane = SERVICE_LANE): Promise<MissedCalls> {
    return this.reader.read('missedCalls', [scope, request], lane);
  }

  /** How each agent spent a range: time per state and their calls (the agents report). */
  agentTime(scope: ProviderScope, request: AgentTimeRequest, lane = SERVICE_LANE): Promise<AgentTimeRow[]> {
    return this.reader.read('agentTime', [scope, request], lane);
  }

  /** The interval report's answer, as its bytes, from a reader thread. */
  intervalReport(scope: ProviderScope, request: IntervalReportRequest, lane = SERVICE_LANE): Promise<IntervalReportBody> {
    return this.reader.read('intervalReport', [scope, request], lane);
  }

  /** How many calls an export of `range` holds, from a reader thread. */
  exportCount(range: ExportRange, lane = SERVICE_LANE): Promise<number> {
    return this.reader.read('exportCount', [range], lane);
  }

  /** The same as `agentTime`, read from the agents' rollups where the range has some: what the report reads. */
  agentTimeRolled(scope: ProviderScope, request: AgentTimeRequest, lane = SERVICE_LANE): Promise<AgentTimeRow[]> {
    return this.reader.read('agentTimeRolled', [scope, request], lane);
  }

  /** The agents' periods rolled within [from, to), by start. */
  rolledAgentPeriods(scope: ProviderScope, from: number, to: number): Promise<RollupPeriod[]> {
    return rolledPeriods(this.db, scope, from, to);
  }

  /** When the earliest agent state or call of the provider is dated, if it has any. */
  oldestAgentActivity(scope: ProviderScope): Promise<number | undefined> {
    return oldestAgentActivity(this.db, scope);
  }

  /**
   * Rolls up one closed period: an hour from its raw rows (read in a reader thread), a day from
   * its hours, which must all be rolled.
   */
  rollAgentPeriod(scope: ProviderScope, period: RollupPeriod, now: number): Promise<void> {
    return this.rollupHorizon.rolling(scope, period, async () => {
      const rows =
        period.span === 'hour'
          ? await this.reader.read('agentTime', [scope, { from: period.start, to: period.end, now }], ROLLUP_LANE)
          : await dayFromHours(this.db, scope, period);
      await writeRollup(this.db, scope, period, rows, now);
    });
  }

  /** This instance stops rolling the provider (a cluster's follower): another may roll it meanwhile. */
  forgetRollups(scope: ProviderScope): void {
    this.rollupHorizon.forget(scope);
  }

  /**
   * Tells the query planner how the journal's tables look now (PostgreSQL's ANALYZE, SQLite's
   * PRAGMA optimize): after a bulk fill, before the next automatic pass, lookups by number otherwise
   * plan as if the table were empty and take seconds instead of milliseconds.
   */
  /** Writes one intervention to the audit trail. */
  async recordCallAction(scope: ProviderScope, action: CallAction): Promise<void> {
    await this.db
      .insertInto('call_actions')
      .values({
        account_id: scope.accountID,
        application_id: scope.applicationID,
        provider_id: scope.providerID,
        id: randomUUID(),
        call_id: action.callID,
        action: action.action,
        actor: action.actor,
        actor_subject: action.actorSubject ?? null,
        actor_email: action.actorEmail ?? null,
        at: action.at,
        outcome: action.outcome,
        detail: action.detail ?? null,
      })
      .execute();
  }

  /** The interventions on one call, oldest first. */
  async callActions(scope: ProviderScope, callID: string): Promise<CallAction[]> {
    const rows = await this.db
      .selectFrom('call_actions')
      .selectAll()
      .where((eb) => eb.and(inScope(scope)))
      .where('call_id', '=', callID)
      .orderBy('at')
      .execute();
    return rows.map((row) => ({
      callID: row.call_id,
      action: row.action as CallAction['action'],
      actor: row.actor,
      ...(row.actor_subject === null ? {} : { actorSubject: row.actor_subject }),
      ...(row.actor_email === null ? {} : { actorEmail: row.actor_email }),
      at: Number(row.at),
      outcome: row.outcome,
      ...(row.detail === null ? {} : { detail: row.detail }),
    }));
  }

  /** Journals changes of agents' states (the board's); one already written is kept. */
  async recordAgentStates(scope: ProviderScope, changes: readonly AgentStateChange[]): Promise<void> {
    await writeAgentStates(this.db, scope, changes);
    await this.rollupHorizon.written(scope, earliest(changes.map((change) => change.at)));
  }

  /** Records the queues' parameters in force from `at`, for those that changed; answers their IDs. */
  recordQueueParameters(scope: ProviderScope, queues: readonly Omit<QueueParametersInForce, 'fromAt'>[], at: number): Promise<string[]> {
    return recordQueueParameters(this.db, scope, queues, at);
  }

  /** The queues' parameters over time, oldest first per queue. */
  queueParameterHistory(scope: ProviderScope): Promise<QueueParametersInForce[]> {
    return queueParameterHistory(this.db, scope);
  }

  async refreshStatistics(): Promise<void> {
    if (this.location.kind === 'postgres') for (const table of ['calls', 'agent_states', 'agent_rollups']) await sql`ANALYZE ${sql.table(table)}`.execute(this.db);
    else await sql`PRAGMA optimize`.execute(this.db);
  }

  async hasHistory(scope: ProviderScope): Promise<boolean> {
    const row = await this.db.selectFrom('calls').select('call_id').where((eb) => eb.and(inScope(scope))).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  readBackfill(scope: ProviderScope): Promise<BackfillProgress | undefined> {
    return readBackfill(this.db, scope);
  }

  /** Records a new backfill unless the provider has one already; answers the one that stands. */
  beginBackfill(scope: ProviderScope, progress: BackfillProgress): Promise<BackfillProgress> {
    return beginBackfill(this.db, scope, progress);
  }

  /** One batch of the backfill and the progress it makes, in one transaction; answers how many calls were new. */
  async writeBackfill(scope: ProviderScope, calls: readonly ProviderCall[], progress: BackfillProgress): Promise<number> {
    const inserted = await writeBackfill(this.db, scope, calls, progress);
    if (inserted > 0) await this.rollupHorizon.written(scope, earliestStart(calls));
    return inserted;
  }

  /** Adds ended calls the journal does not hold yet; existing ones win. */
  async importCalls(scope: ProviderScope, calls: readonly ProviderCall[]): Promise<void> {
    const inserted = await this.db.transaction().execute(async (trx) => {
      let count = 0n;
      for (const part of chunks(calls)) {
        const result = await trx
          .insertInto('calls')
          .values(part.map((call) => toCallRow(scope, call)))
          .onConflict((oc) => oc.columns(['account_id', 'application_id', 'provider_id', 'call_id']).doNothing())
          .executeTakeFirst();
        count += result.numInsertedOrUpdatedRows ?? 0n;
      }
      return count;
    });
    // Calls the journal held already change no rollup.
    if (inserted > 0n) await this.rollupHorizon.written(scope, earliestStart(calls));
  }

  /** Deletes calls that ended before `cutoff`, and calls open since before it; answers how many. */
  async pruneBefore(cutoff: number): Promise<number> {
    const ended = await this.db.deleteFrom('calls').where('ended_at', '<', cutoff).executeTakeFirst();
    const stuck = await this.db.deleteFrom('calls').where('ended_at', 'is', null).where('started_at', '<', cutoff).executeTakeFirst();
    // The audit trail is kept as long as the calls it speaks of.
    await this.db.deleteFrom('call_actions').where('at', '<', cutoff).execute();
    await pruneAgentStates(this.db, cutoff);
    await pruneRollups(this.db, cutoff);
    return Number(ended.numDeletedRows) + Number(stuck.numDeletedRows);
  }

  async close(): Promise<void> {
    await this.reader.close();
    await this.db.destroy();
  }
}
