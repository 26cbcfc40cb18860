/** Writing a sync's batch to the call journal, within a transaction of the caller's. */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import { CALL_COLUMNS, toCallRow } from './call-rows.js';
import type { HistoryTables } from './history-tables.js';
import type { JournalBatch } from '../calls/journal-batch.js';

/** Rows per statement: 20 columns each stays far below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

export const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

export type Trx = Transaction<HistoryTables>;

export const inScope = (scope: ProviderScope) =>
  ({ account_id: scope.accountID, application_id: scope.applicationID, provider_id: scope.providerID }) as const;

/** The same, as a condition of raw SQL on the table known as `alias`. */
export const inScopeSql = (scope: ProviderScope, alias: string): RawBuilder<unknown> =>
  sql`${sql.ref(`${alias}.account_id`)} = ${scope.accountID} AND ${sql.ref(`${alias}.application_id`)} = ${scope.applicationID} AND ${sql.ref(`${alias}.provider_id`)} = ${scope.providerID}`;

/** A sync's batch of the journal, within the caller's transaction; answers the earliest start of a call it wrote. */
export const writeJournalBatch = async (trx: Trx, scope: ProviderScope, batch: JournalBatch): Promise<number | undefined> => {
  const closedFrom = batch.complete ? await closeUnlisted(trx, scope, batch) : undefined;
  for (const part of chunks(batch.upserts))
    await upsertCalls(trx, part.map((call) => toCallRow(scope, call, batch.endedByService.has(call.callID))));
  await trx
    .insertInto('provider_syncs')
    .values({ ...inScope(scope), last_sync_at: batch.at })
    .onConflict((oc) => oc.columns(['account_id', 'application_id', 'provider_id']).doUpdateSet({ last_sync_at: batch.at }))
    .execute();
  return earliest([closedFrom, ...batch.upserts.map((call) => call.startedAt)]);
};

/** The earliest of some moments; undefined when none is known. */
export const earliest = (ats: readonly (number | undefined)[]): number | undefined => {
  const known = ats.filter((at) => at !== undefined);
  return known.length === 0 ? undefined : known.reduce((a, b) => Math.min(a, b));
};

/** The earliest start among `calls`: the agents' rollups from there on no longer hold. */
export const earliestStart = (calls: readonly { startedAt: number }[]): number | undefined => earliest(calls.map((call) => call.startedAt));

/**
 * Calls still open in the journal that a complete snapshot no longer lists vanished while the
 * service was not watching (a restart, a failed write): closed at the last sync that saw them,
 * and missed when they were inbound and never seen answered, as the live list ends them.
 */
const closeUnlisted = async (trx: Trx, scope: ProviderScope, batch: JournalBatch): Promise<number | undefined> => {
  const listed = new Set(batch.upserts.map((call) => call.callID));
  const open = await trx.selectFrom('calls').select(['call_id', 'started_at']).where((eb) => eb.and(inScope(scope))).where('ended_at', 'is', null).execute();
  const goneRows = open.filter((row) => !listed.has(row.call_id));
  const gone = goneRows.map((row) => row.call_id);
  if (gone.length === 0) return undefined;
  const mark = await trx.selectFrom('provider_syncs').select('last_sync_at').where((eb) => eb.and(inScope(scope))).executeTakeFirst();
  const closedAt = mark === undefined ? batch.at : Number(mark.last_sync_at);
  for (const part of chunks(gone))
    await trx
      .updateTable('calls')
      .set((eb) => ({
        ended_at: closedAt,
        closed_by_sync: 1,
        is_missed: eb.case().when(eb.and([eb('is_outbound', '=', 0), eb('answered_at', 'is', null)])).then(1).else(eb.ref('is_missed')).end(),
      }))
      .where((eb) => eb.and(inScope(scope)))
      .where('call_id', 'in', part)
      .execute();
  return earliest(goneRows.map((row) => Number(row.started_at)));
};

/** Insert or, for a call already journaled, take every field from the provider's latest version. */
const upsertCalls = (trx: Trx, rows: ReturnType<typeof toCallRow>[]) =>
  trx
    .insertInto('calls')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['account_id', 'application_id', 'provider_id', 'call_id']).doUpdateSet((eb) =>
        Object.fromEntries([...CALL_COLUMNS, 'closed_by_sync'].map((column) => [column, eb.ref(`excluded.${column}` as 'excluded.closed_by_sync')])),
      ),
    )
    .execute();
