/**
 * Where each provider's backfill stands, kept in the history database beside the calls it wrote:
 * every batch of calls and the progress it makes commit together, or neither does.
 */
import type { Selectable, Transaction } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { toCallRow } from './call-rows.js';
import type { HistoryBackfillsTable, HistoryDb, HistoryTables } from './history-tables.js';

export type BackfillStatus = 'filling' | 'complete' | 'capped';

export interface BackfillProgress {
  /** Where the backfilled history begins. */
  since: number;
  /** Where the provider's own journal took over: the backfill fills [since, to), newest first. */
  to: number;
  /** The history is complete from here to `to`. */
  filledFrom: number;
  /** The stretch being filled, [chunk.from, filledFrom): the calls that ended before `through` are written. */
  chunk?: { from: number; through: number };
  /** Calls the backfill has written. */
  calls: number;
  status: BackfillStatus;
}

/** Rows per statement: 20 columns each stays far below SQLite's and PostgreSQL's parameter limits. */
const CHUNK_ROWS = 500;

const inScope = (scope: ProviderScope) =>
  ({ account_id: scope.accountID, application_id: scope.applicationID, provider_id: scope.providerID }) as const;

const STATUSES: readonly BackfillStatus[] = ['filling', 'complete', 'capped'];

const fromRow = (row: Selectable<HistoryBackfillsTable>): BackfillProgress => {
  const status = STATUSES.find((s) => s === row.status);
  if (!status) throw new Error(`history_backfills holds an unknown status "${row.status}"`);
  const progress: BackfillProgress = {
    since: Number(row.since_at),
    to: Number(row.to_at),
    filledFrom: Number(row.filled_from),
    calls: Number(row.calls),
    status,
  };
  if (row.chunk_from !== null && row.chunk_through !== null)
    progress.chunk = { from: Number(row.chunk_from), through: Number(row.chunk_through) };
  return progress;
};

/** The columns a step of the backfill moves forward (`calls` moves by what the database counted). */
const stepColumns = (progress: BackfillProgress) => ({
  filled_from: progress.filledFrom,
  chunk_from: progress.chunk?.from ?? null,
  chunk_through: progress.chunk?.through ?? null,
  status: progress.status,
});

export const readBackfill = async (db: HistoryDb, scope: ProviderScope): Promise<BackfillProgress | undefined> => {
  const row = await db
    .selectFrom('history_backfills')
    .selectAll()
    .where((eb) => eb.and(inScope(scope)))
    .executeTakeFirst();
  return row && fromRow(row);
};

/** Records a new backfill unless the provider has one already; answers the one that stands. */
export const beginBackfill = async (
  db: HistoryDb,
  scope: ProviderScope,
  progress: BackfillProgress,
): Promise<BackfillProgress> => {
  await db
    .insertInto('history_backfills')
    .values({ ...inScope(scope), since_at: progress.since, to_at: progress.to, calls: progress.calls, ...stepColumns(progress) })
    .onConflict((oc) => oc.columns(['account_id', 'application_id', 'provider_id']).doNothing())
    .execute();
  const stored = await readBackfill(db, scope);
  if (!stored) throw new Error('the backfill record vanished as it was written');
  return stored;
};

const insertNew = async (
  trx: Transaction<HistoryTables>,
  scope: ProviderScope,
  calls: readonly ProviderCall[],
): Promise<number> => {
  let inserted = 0;
  for (let at = 0; at < calls.length; at += CHUNK_ROWS) {
    const result = await trx
      .insertInto('calls')
      .values(calls.slice(at, at + CHUNK_ROWS).map((call) => toCallRow(scope, call)))
      .onConflict((oc) => oc.columns(['account_id', 'application_id', 'provider_id', 'call_id']).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
};

/** Adds the calls the journal does not hold yet and moves the progress on, in one transaction; answers how many were added. */
export const writeBackfill = (
  db: HistoryDb,
  scope: ProviderScope,
  calls: readonly ProviderCall[],
  progress: BackfillProgress,
): Promise<number> =>
  db.transaction().execute(async (trx) => {
    const inserted = await insertNew(trx, scope, calls);
    await trx
      .updateTable('history_backfills')
      .set((eb) => ({ ...stepColumns(progress), calls: eb('calls', '+', inserted) }))
      .where((eb) => eb.and(inScope(scope)))
      .execute();
    return inserted;
  });
