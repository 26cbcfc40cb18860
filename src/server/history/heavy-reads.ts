/**
 * The reads that grow with the history (window lists, concurrency, calls per subscriber, service
 * levels, missed callers): hundreds
 * of milliseconds on a busy week. They run in a reader thread (see heavy-read-pool.ts), never on
 * the event loop that answers everyone's live lists; a window list comes back as its final bytes.
 */
import type { ProviderScope } from '../../contract/paths.js';
import { strongETag, toCallRecord } from '../calls/call-snapshot.js';
import { asciiJSON } from '../calls/ascii-json.js';
import { SqliteAdapter, type RawBuilder, type SqlBool } from 'kysely';
import type { QueueSelection } from '../queues/queue-selection.js';
import { queueCondition } from './queue-condition.js';
import type { JournaledCall } from '../calls/call-journal.js';
import { fromCallRow, type CallRow } from './call-rows.js';
import { intervalReport, type IntervalReportBody, type IntervalReportRequest } from './interval-report.js';
import { concurrencyBuckets, type ConcurrencyBucketRow, type ConcurrencyRequest } from './concurrency-query.js';
import type { HistoryDb } from './history-tables.js';
import { missedCalls, type MissedCalls, type MissedCallsRequest } from './missed-calls-query.js';
import {
  serviceLevelRows,
  serviceLevelRowsByQueue,
  type QueueServiceLevelRequest,
  type QueueServiceLevelRows,
  type ServiceLevelRequest,
  type ServiceLevelRows,
} from './service-level-query.js';
import { subscriberActivity, type SubscriberActivityRow } from './subscriber-activity-query.js';
import { agentTime, type AgentTimeRequest, type AgentTimeRow } from './agent-time-query.js';
import { agentTimeRolled } from './agent-rollups.js';
import { exportCount, type ExportRange } from './call-export.js';

export interface WindowListRequest {
  scope: ProviderScope;
  provider: { id: string; name: string };
  from: number;
  to: number;
  /** Past this many calls the window is too wide: no list is built. */
  limit: number;
  /** Only the calls whose `isMissedCall` (inbound, per the spec) is this. */
  isMissedCall?: boolean;
  /** Only these queues' calls. */
  queues?: QueueSelection;
}

export type WindowList = { kind: 'too-many' } | { kind: 'list'; body: Buffer; etag: string; count: number };

/** The arguments of each heavy read, after the database. */
export interface HeavyReadArgs {
  windowList: [WindowListRequest];
  concurrency: [ProviderScope, ConcurrencyRequest];
  subscriberActivity: [ProviderScope, number, number, number, QueueSelection?];
  serviceLevels: [ProviderScope, ServiceLevelRequest];
  serviceLevelsByQueue: [ProviderScope, QueueServiceLevelRequest];
  missedCalls: [ProviderScope, MissedCallsRequest];
  agentTime: [ProviderScope, AgentTimeRequest];
  intervalReport: [ProviderScope, IntervalReportRequest];
  agentTimeRolled: [ProviderScope, AgentTimeRequest];
  exportCount: [ExportRange];
}

export interface HeavyReadResults {
  windowList: WindowList;
  concurrency: ConcurrencyBucketRow[];
  subscriberActivity: SubscriberActivityRow[];
  serviceLevels: ServiceLevelRows;
  serviceLevelsByQueue: QueueServiceLevelRows;
  missedCalls: MissedCalls;
  agentTime: AgentTimeRow[];
  intervalReport: IntervalReportBody;
  agentTimeRolled: AgentTimeRow[];
  exportCount: number;
}

export type HeavyReadName = keyof HeavyReadArgs;

/** Runs heavy reads somewhere other than the event loop, fairly between lanes (one lane per token). */
export interface HeavyReader {
  read<K extends HeavyReadName>(name: K, args: HeavyReadArgs[K], lane: string): Promise<HeavyReadResults[K]>;
  close(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Calls live at any moment of [from, to], oldest first (ties by call ID); at most `limit` of them;
 * with `isMissedCall`, only those whose record says so (the spec keeps "missed" for inbound calls).
 */
const liveDuringQuery = (db: HistoryDb, scope: ProviderScope, from: number, to: number, limit: number, isMissedCall?: boolean, queues?: QueueSelection) =>
  db
    .selectFrom('calls')
    .selectAll()
    .where('account_id', '=', scope.accountID)
    .where('application_id', '=', scope.applicationID)
    .where('provider_id', '=', scope.providerID)
    .where('started_at', '<=', to)
    .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>=', from)]))
    .$if(isMissedCall === true, (query) => query.where('is_outbound', '=', 0).where('is_missed', '=', 1))
    .$if(isMissedCall === false, (query) => query.where((eb) => eb.or([eb('is_outbound', '=', 1), eb('is_missed', '=', 0)])))
    .$if(queues !== undefined, (query) => query.where(queueCondition(queues as QueueSelection, 'calls') as RawBuilder<SqlBool>))
    .orderBy('started_at')
    .orderBy('call_id')
    .limit(limit);

export const callsLiveDuring = async (db: HistoryDb, scope: ProviderScope, from: number, to: number, limit: number): Promise<JournaledCall[]> =>
  (await liveDuringQuery(db, scope, from, to, limit).execute()).map(fromCallRow);

/** Rows a statement streams at a time, where the store can stream (SQLite); PostgreSQL answers them all at once. */
const STREAM_ROWS = 256;

const rowsOf = (db: HistoryDb, query: ReturnType<typeof liveDuringQuery>): AsyncIterable<CallRow> | Promise<CallRow[]> =>
  db.getExecutor().adapter instanceof SqliteAdapter ? query.stream(STREAM_ROWS) : query.execute();

/** Bytes of this size are filled with the list's text, so each call's record and text die young. */
const CHUNK_BYTES = 256 * 1024;

/** Text written as UTF-8 into a few large chunks, joined once at the end. */
class ByteChunks {
  private readonly full: Buffer[] = [];
  private current = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private total = 0;

  write(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.used + bytes > this.current.length) {
      this.full.push(this.current.subarray(0, this.used));
      this.current = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
      this.used = 0;
    }
    this.used += this.current.write(text, this.used);
    this.total += bytes;
  }

  join(): Buffer {
    return Buffer.concat([...this.full, this.current.subarray(0, this.used)], this.total);
  }
}

/**
 * The list's answer for a window, serialized and tagged where it is read: the same value as
 * `JSON.stringify({ calls, fromDate, toDate, totalCalls })`, in ASCII like the live list's
 * (`asciiJSON`), written call by call so a week of calls never sits in memory as objects, and the
 * reader's garbage collector has little to do.
 */
const windowList = async (db: HistoryDb, { scope, provider, from, to, limit, isMissedCall, queues }: WindowListRequest): Promise<WindowList> => {
  const out = new ByteChunks();
  out.write('{"calls":[');
  let count = 0;
  for await (const row of await rowsOf(db, liveDuringQuery(db, scope, from, to, limit + 1, isMissedCall, queues))) {
    count += 1;
    if (count > limit) return { kind: 'too-many' };
    out.write(`${count > 1 ? ',' : ''}${asciiJSON(toCallRecord(fromCallRow(row), provider.id, provider.name))}`);
  }
  out.write(`],"fromDate":${JSON.stringify(iso(from))},"toDate":${JSON.stringify(iso(to))},"totalCalls":${count}}`);
  const body = out.join();
  return { kind: 'list', body, etag: strongETag(body), count };
};

export const heavyReads: { [K in HeavyReadName]: (db: HistoryDb, ...args: HeavyReadArgs[K]) => Promise<HeavyReadResults[K]> } = {
  windowList,
  concurrency: concurrencyBuckets,
  subscriberActivity,
  serviceLevels: serviceLevelRows,
  serviceLevelsByQueue: serviceLevelRowsByQueue,
  missedCalls,
  agentTime,
  intervalReport,
  agentTimeRolled,
  exportCount,
};

export const runHeavyRead = <K extends HeavyReadName>(db: HistoryDb, name: K, args: HeavyReadArgs[K]): Promise<HeavyReadResults[K]> =>
  (heavyReads[name] as (db: HistoryDb, ...rest: HeavyReadArgs[K]) => Promise<HeavyReadResults[K]>)(db, ...args);

/** For a database no other thread can open (SQLite in memory): the reads run here, in turn. */
export const inlineHeavyReader = (db: HistoryDb): HeavyReader => ({
  read: (name, args) => runHeavyRead(db, name, args),
  close: async () => undefined,
});
