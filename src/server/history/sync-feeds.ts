/**
 * The shared syncs of a cluster, in PostgreSQL: per provider, the term that may write, the
 * change-log position, the health of the last poll and a checkpoint of the listed calls; and
 * the numbered changes since. The leader's journal batch, its change and the new position are
 * one transaction, fenced by its term, and the other instances hear of it by NOTIFY after commit.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import type { FeedHealth } from '../calls/provider-health.js';
import type { Delivered, FeedCommit, FeedRead, FeedState } from '../calls/shared-sync.js';
import { NotLeading } from '../calls/shared-sync.js';
import type { CallUpdate, ProviderCall, ProviderFailureKind } from '../providers/phone-system.js';
import { inScope, writeJournalBatch, type Trx } from './journal-write.js';
import type { HistoryDb, SyncFeedsTable } from './history-tables.js';

/** Changes older than this, and before the last checkpoint, are deleted when a checkpoint is written. */
export const CHANGES_KEPT_MS = 10 * 60_000;

/** What followers are told after each commit: which feed, and where it stands; they read the data from the tables. */
export interface FeedNotice {
  key: string;
  epoch: string;
  seq: number;
}

/** The text identifying a provider in notices and lock keys. */
export const scopeKey = (scope: ProviderScope) => `${scope.accountID}/${scope.applicationID}/${scope.providerID}`;

/**
 * The feed's columns but the checkpoint's calls: what a commit's fence, a claim and a read from a
 * position need. The calls (megabytes of JSON at 10,000 calls) are read only to rebuild from them.
 */
const STATE_COLUMNS = [
  'epoch',
  'term',
  'leader',
  'seq',
  'taken_at',
  'failure_kind',
  'failure_message',
  'degraded',
  'checkpoint_seq',
] as const;
type FeedRow = Pick<SyncFeedsTable, (typeof STATE_COLUMNS)[number]>;

const stateOf = (row: FeedRow): FeedState => ({
  epoch: row.epoch,
  seq: Number(row.seq),
  takenAt: row.taken_at === null ? undefined : Number(row.taken_at),
  health: {
    ...(row.failure_kind === null ? {} : { failure: { kind: row.failure_kind as ProviderFailureKind, message: row.failure_message ?? '' } }),
    ...(row.degraded === null ? {} : { degraded: row.degraded }),
  },
});

/** The feed's health columns for a health: every one set, so a health that cleared clears them. */
const healthColumns = (health: FeedHealth) => ({
  failure_kind: health.failure?.kind ?? null,
  failure_message: health.failure?.message ?? null,
  degraded: health.degraded ?? null,
});

export class SyncFeeds {
  constructor(
    private readonly db: HistoryDb,
    /** The NOTIFY channel of this database schema's cluster. */
    readonly channel: string,
    /** Told, after each commit, the earliest start of a call the batch wrote. */
    private readonly written: (scope: ProviderScope, earliest: number | undefined) => Promise<void> = async () => undefined,
  ) {}

  /** Starts a new term led by `leader`, creating the feed on first use; answers where it stands. */
  async claim(scope: ProviderScope, leader: string, now: number): Promise<{ term: number; state: FeedState }> {
    const row = await this.db
      .insertInto('sync_feeds')
      .values({
        ...inScope(scope),
        epoch: randomBytes(6).toString('base64url'),
        term: 1,
        leader,
        seq: 0,
        taken_at: null,
        failure_kind: null,
        failure_message: null,
        degraded: null,
        checkpoint_seq: 0,
        checkpoint_at: now,
        checkpoint_calls: '[]',
      })
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'application_id', 'provider_id'])
          .doUpdateSet((eb) => ({ term: eb('sync_feeds.term', '+', 1), leader })),
      )
      .returning(STATE_COLUMNS)
      .executeTakeFirstOrThrow();
    return { term: Number(row.term), state: stateOf(row) };
  }

  async read(scope: ProviderScope, from: { epoch: string; seq: number } | undefined): Promise<FeedRead | undefined> {
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const row = await trx
          .selectFrom('sync_feeds')
          .select(STATE_COLUMNS)
          .where((eb) => eb.and(inScope(scope)))
          .executeTakeFirst();
        if (!row) return undefined;
        const state = stateOf(row);
        const changesAfter = async (seq: number) =>
          (
            await trx
              .selectFrom('sync_changes')
              .select(['seq', 'at', 'data', 'upserts', 'removed'])
              .where((eb) => eb.and(inScope(scope)))
              .where('seq', '>', seq)
              .orderBy('seq')
              .execute()
          ).map((change) => ({
            seq: Number(change.seq),
            at: Number(change.at),
            data: change.data,
            upserts: JSON.parse(change.upserts) as ProviderCall[],
            removed: JSON.parse(change.removed) as string[],
          }));
        if (from && from.epoch === state.epoch && from.seq <= state.seq) {
          if (from.seq === state.seq) return { state, changes: [] };
          const changes = await changesAfter(from.seq);
          if (changes[0]?.seq === from.seq + 1 && changes.at(-1)?.seq === state.seq) return { state, changes };
        }
        // The same snapshot of the database as the row above (repeatable read): the checkpoint it names.
        const { checkpoint_calls: calls } = await trx
          .selectFrom('sync_feeds')
          .select('checkpoint_calls')
          .where((eb) => eb.and(inScope(scope)))
          .executeTakeFirstOrThrow();
        const checkpoint = { seq: Number(row.checkpoint_seq), calls: JSON.parse(calls) as ProviderCall[] };
        return { state, checkpoint, changes: await changesAfter(checkpoint.seq) };
      });
  }

  /**
   * The leader's sync, in one transaction: refused (NotLeading) unless `term` still leads and the
   * feed stands where the leader thinks it does; the journal batch, the change, the new position
   * and a checkpoint when one is due; then the notice, delivered on commit.
   */
  async commit(scope: ProviderScope, term: number, step: FeedCommit): Promise<void> {
    let earliest: number | undefined;
    await this.db.transaction().execute(async (trx) => {
      const row = await this.fence(trx, scope, term);
      if (Number(row.seq) !== step.after) throw new NotLeading(`the feed stands at ${row.seq}, the leader at ${step.after}`);
      const seq = step.change ? step.change.seq : step.after;
      if (step.change && step.change.seq !== step.after + 1)
        throw new NotLeading(`the change is numbered ${step.change.seq}, after ${step.after}`);
      earliest = await writeJournalBatch(trx, scope, step.batch);
      if (step.change)
        await trx
          .insertInto('sync_changes')
          .values({
            ...inScope(scope),
            seq,
            term,
            at: step.change.at,
            data: step.change.data,
            upserts: JSON.stringify(step.change.upserts),
            removed: JSON.stringify(step.change.removed),
          })
          .execute();
      const checkpoint = step.checkpoint
        ? { checkpoint_seq: seq, checkpoint_at: step.takenAt, checkpoint_calls: JSON.stringify(step.checkpoint) }
        : {};
      await trx
        .updateTable('sync_feeds')
        .set({ seq, taken_at: step.takenAt, ...healthColumns(step.health), ...checkpoint })
        .where((eb) => eb.and(inScope(scope)))
        .execute();
      if (step.delivered && step.delivered.length > 0)
        await trx
          .deleteFrom('sync_inbox')
          .where((eb) => eb.and(inScope(scope)))
          .where('id', 'in', [...step.delivered])
          .execute();
      if (step.checkpoint)
        await trx
          .deleteFrom('sync_changes')
          .where((eb) => eb.and(inScope(scope)))
          .where('seq', '<=', seq)
          .where('at', '<', step.takenAt - CHANGES_KEPT_MS)
          .execute();
      await this.notify(trx, { key: scopeKey(scope), epoch: row.epoch, seq });
    });
    await this.written(scope, earliest);
  }

  /** The leader's health, when it changed with no sync to commit: fenced by its term, and told as a commit is. */
  async commitHealth(scope: ProviderScope, term: number, health: FeedHealth): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.fence(trx, scope, term);
      await trx
        .updateTable('sync_feeds')
        .set(healthColumns(health))
        .where((eb) => eb.and(inScope(scope)))
        .execute();
      await this.notify(trx, { key: scopeKey(scope), epoch: row.epoch, seq: Number(row.seq) });
    });
  }

  /** Stores updates pushed to this instance for the leader of `scope`, and tells it after commit. */
  async deliver(scope: ProviderScope, updates: readonly CallUpdate[], now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sync_inbox')
        .values({ ...inScope(scope), id: randomUUID(), received_at: now, updates: JSON.stringify(updates) })
        .execute();
      await sql`select pg_notify(${`${this.channel}_delivered`}, ${scopeKey(scope)})`.execute(trx);
    });
  }

  /** The stored deliveries of `scope`, oldest first, at most `limit`; they stay until a commit removes them. */
  async delivered(scope: ProviderScope, limit: number): Promise<Delivered | undefined> {
    const rows = await this.db
      .selectFrom('sync_inbox')
      .select(['id', 'updates'])
      .where((eb) => eb.and(inScope(scope)))
      .orderBy('received_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    if (rows.length === 0) return undefined;
    return { ids: rows.map((row) => row.id), updates: rows.flatMap((row) => JSON.parse(row.updates) as CallUpdate[]) };
  }

  /** Asks the leader of `scope`, wherever it runs, to poll soon. */
  async requestSync(scope: ProviderScope): Promise<void> {
    await sql`select pg_notify(${`${this.channel}_soon`}, ${scopeKey(scope)})`.execute(this.db);
  }

  /** Locks the feed's row until commit, so a new term waits for this write, and checks the term. */
  private async fence(trx: Trx, scope: ProviderScope, term: number) {
    const row = await trx
      .selectFrom('sync_feeds')
      .select(STATE_COLUMNS)
      .where((eb) => eb.and(inScope(scope)))
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new NotLeading('the feed does not exist');
    if (Number(row.term) !== term) throw new NotLeading(`term ${row.term} (${row.leader}) replaced term ${term}`);
    return row;
  }

  private async notify(trx: Trx, notice: FeedNotice): Promise<void> {
    await sql`select pg_notify(${this.channel}, ${JSON.stringify(notice)})`.execute(trx);
  }
}
