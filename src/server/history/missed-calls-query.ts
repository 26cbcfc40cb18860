/**
 * The callers who gave up over a window (abandoned as `contract/service-levels.ts` defines it:
 * inbound, never answered, ended, not a short abandon), newest first, each with what followed:
 * the first outbound call to the number after it, how many there were, and when the caller was
 * reached at last. One SQL statement both dialects run as written; the calls with those numbers are
 * read through the journal's index on the remote number.
 */
import { sql } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import type { HistoryDb } from './history-tables.js';
import { inScopeSql } from './journal-write.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import { queueCondition } from './queue-condition.js';

export interface MissedCallsRequest {
  from: number;
  to: number;
  shortAbandonMs: number;
  limit: number;
  /** Only these queues' callers. */
  queues?: QueueSelection;
}

export interface MissedCallRow {
  callID: string;
  remoteNumber: string;
  remoteName?: string;
  startedAt: number;
  endedAt: number;
  subscriberID?: string;
  subscriberFirstName?: string;
  subscriberLastName?: string;
  calledBackAt?: number;
  callbackCallID?: string;
  attempts: number;
  reachedAt?: number;
}

export interface MissedCalls {
  rows: MissedCallRow[];
  /** Every abandoned call of the window, listed or not. */
  total: number;
}

interface RawMissed {
  call_id: string;
  remote_number: string;
  remote_name: string | null;
  started_at: unknown;
  ended_at: unknown;
  subscriber_id: string | null;
  subscriber_first_name: string | null;
  subscriber_last_name: string | null;
  called_back_at: unknown;
  callback_call_id: string | null;
  attempts: unknown;
  reached_at: unknown;
  total: unknown;
}

const optionalNumber = (value: unknown) => (value === null || value === undefined ? undefined : Number(value));

export const missedCalls = async (db: HistoryDb, scope: ProviderScope, r: MissedCallsRequest): Promise<MissedCalls> => {
  const inScope = (alias: string) => inScopeSql(scope, alias);
  // A withheld number (empty) cannot be called back, nor told apart from another caller's. The calls with
  // the listed numbers are read once (`o`) and joined, rather than looked up per missed call: the plan
  // then does not hang on the planner's statistics of a freshly filled table.
  const result = await sql<RawMissed>`
    WITH m AS (
      SELECT k.call_id, k.remote_number, k.remote_name, k.started_at, k.ended_at, k.subscriber_id, k.subscriber_first_name, k.subscriber_last_name,
        COUNT(*) OVER () AS total
      FROM calls k
      WHERE ${inScope('k')} AND k.is_outbound = 0 AND k.answered_at IS NULL AND k.ended_at IS NOT NULL
        AND k.ended_at - k.started_at >= CAST(${r.shortAbandonMs} AS BIGINT)
        AND k.started_at >= CAST(${r.from} AS BIGINT) AND k.started_at < CAST(${r.to} AS BIGINT)
        ${r.queues ? sql`AND ${queueCondition(r.queues)}` : sql``}
      ORDER BY k.started_at DESC, k.call_id DESC
      LIMIT ${r.limit}
    ),
    o AS (
      SELECT b.call_id, b.remote_number, b.started_at, b.answered_at, b.is_outbound
      FROM calls b
      WHERE ${inScope('b')} AND b.remote_number IN (SELECT m.remote_number FROM m WHERE m.remote_number <> '')
        AND b.started_at >= (SELECT MIN(m.started_at) FROM m)
    ),
    f AS (
      SELECT m.call_id,
        MIN(CASE WHEN o.is_outbound = 1 AND o.started_at >= m.ended_at THEN o.started_at END) AS called_back_at,
        SUM(CASE WHEN o.is_outbound = 1 AND o.started_at >= m.ended_at THEN 1 ELSE 0 END) AS attempts,
        MIN(CASE WHEN o.call_id <> m.call_id AND o.answered_at IS NOT NULL AND o.started_at > m.started_at THEN o.answered_at END) AS reached_at
      FROM m LEFT JOIN o ON o.remote_number = m.remote_number
      GROUP BY m.call_id
    )
    SELECT m.*, f.called_back_at, COALESCE(f.attempts, 0) AS attempts, f.reached_at, MIN(o.call_id) AS callback_call_id
    FROM m JOIN f ON f.call_id = m.call_id
    LEFT JOIN o ON o.remote_number = m.remote_number AND o.is_outbound = 1 AND o.started_at = f.called_back_at
    GROUP BY m.call_id, m.remote_number, m.remote_name, m.started_at, m.ended_at, m.subscriber_id, m.subscriber_first_name, m.subscriber_last_name, m.total,
      f.called_back_at, f.attempts, f.reached_at
    ORDER BY m.started_at DESC, m.call_id DESC
  `.execute(db);
  const rows = result.rows.map((row): MissedCallRow => {
    const missed: MissedCallRow = {
      callID: row.call_id,
      remoteNumber: row.remote_number,
      startedAt: Number(row.started_at),
      endedAt: Number(row.ended_at),
      attempts: Number(row.attempts),
    };
    if (row.remote_name !== null) missed.remoteName = row.remote_name;
    if (row.subscriber_id !== null) missed.subscriberID = row.subscriber_id;
    if (row.subscriber_first_name !== null) missed.subscriberFirstName = row.subscriber_first_name;
    if (row.subscriber_last_name !== null) missed.subscriberLastName = row.subscriber_last_name;
    const calledBackAt = optionalNumber(row.called_back_at);
    if (calledBackAt !== undefined) missed.calledBackAt = calledBackAt;
    if (row.callback_call_id !== null) missed.callbackCallID = row.callback_call_id;
    const reachedAt = optionalNumber(row.reached_at);
    if (reachedAt !== undefined) missed.reachedAt = reachedAt;
    return missed;
  });
  return { rows, total: rows.length === 0 ? 0 : Number(result.rows[0]?.total) };
};
