/**
 * The reads that grow with the history (window lists, concurrency, calls per subscriber): hundreds
 * of milliseconds on a busy week. They run in a reader thread (see heavy-read-pool.ts), never on
 * the event loop that answers everyone's live lists; a window list comes back as its final bytes.
 */
import type { ProviderScope } from '../../contract/paths.js';
import { strongETag, toCallRecord } from '../calls/call-snapshot.js';
import { fromCallRow, type JournaledCall } from './call-rows.js';
import { concurrencyBuckets, type ConcurrencyBucketRow, type ConcurrencyRequest } from './concurrency-query.js';
import type { HistoryDb } from './history-tables.js';
import { subscriberActivity, type SubscriberActivityRow } from './subscriber-activity-query.js';

export interface WindowListRequest {
  scope: ProviderScope;
  provider: { id: string; name: string };
  from: number;
  to: number;
  /** Past this many calls the window is too wide: no list is built. */
  limit: number;
}

export type WindowList = { kind: 'too-many' } | { kind: 'list'; body: Buffer; etag: string; count: number };

/** The arguments of each heavy read, after the database. */
export interface HeavyReadArgs {
  windowList: [WindowListRequest];
  concurrency: [ProviderScope, ConcurrencyRequest];
  subscriberActivity: [ProviderScope, number, number, number];
}

export interface HeavyReadResults {
  windowList: WindowList;
  concurrency: ConcurrencyBucketRow[];
  subscriberActivity: SubscriberActivityRow[];
}

export type HeavyReadName = keyof HeavyReadArgs;

/** Runs heavy reads somewhere other than the event loop, fairly between lanes (one lane per token). */
export interface HeavyReader {
  read<K extends HeavyReadName>(name: K, args: HeavyReadArgs[K], lane: string): Promise<HeavyReadResults[K]>;
  close(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Calls live at any moment of [from, to], oldest first; at most `limit` of them. */
export const callsLiveDuring = async (db: HistoryDb, scope: ProviderScope, from: number, to: number, limit: number): Promise<JournaledCall[]> => {
  const rows = await db
    .selectFrom('calls')
    .selectAll()
    .where('account_id', '=', scope.accountID)
    .where('application_id', '=', scope.applicationID)
    .where('provider_id', '=', scope.providerID)
    .where('started_at', '<=', to)
    .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>=', from)]))
    .orderBy('started_at')
    .orderBy('call_id')
    .limit(limit)
    .execute();
  return rows.map(fromCallRow);
};

/** The list's answer for a window, serialized and tagged where it is read. */
const windowList = async (db: HistoryDb, { scope, provider, from, to, limit }: WindowListRequest): Promise<WindowList> => {
  const found = await callsLiveDuring(db, scope, from, to, limit + 1);
  if (found.length > limit) return { kind: 'too-many' };
  const calls = found.map((call) => toCallRecord(call, provider.id, provider.name));
  const body = Buffer.from(JSON.stringify({ calls, fromDate: iso(from), toDate: iso(to), totalCalls: calls.length }));
  return { kind: 'list', body, etag: strongETag(body), count: calls.length };
};

export const heavyReads: { [K in HeavyReadName]: (db: HistoryDb, ...args: HeavyReadArgs[K]) => Promise<HeavyReadResults[K]> } = {
  windowList,
  concurrency: concurrencyBuckets,
  subscriberActivity,
};

export const runHeavyRead = <K extends HeavyReadName>(db: HistoryDb, name: K, args: HeavyReadArgs[K]): Promise<HeavyReadResults[K]> =>
  (heavyReads[name] as (db: HistoryDb, ...rest: HeavyReadArgs[K]) => Promise<HeavyReadResults[K]>)(db, ...args);

/** For a database no other thread can open (SQLite in memory): the reads run here, in turn. */
export const inlineHeavyReader = (db: HistoryDb): HeavyReader => ({
  read: (name, args) => runHeavyRead(db, name, args),
  close: async () => undefined,
});
