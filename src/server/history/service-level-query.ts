/**
 * Service level and the figures beside it over a window, counted in the database with one SQL
 * statement both dialects run as written: per bucket of start time, and per subscriber. The
 * definitions are those of `contract/service-levels.ts`; the sums here become its figures in
 * `service-level-figures.ts`.
 */
import { sql } from 'kysely';
import { ANSWER_TIME_BOUNDS } from '../../contract/service-levels.js';
import type { ProviderScope } from '../../contract/paths.js';
import type { HistoryDb } from './history-tables.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import { queueCondition } from './queue-condition.js';

export interface ServiceLevelRequest {
  from: number;
  to: number;
  bucketMs: number;
  answerWithinMs: number;
  shortAbandonMs: number;
  /** Whether to group by subscriber too; a center's thousands of agents make that the larger part of the answer. */
  subscribers?: boolean;
  /** Only these queues' calls. */
  queues?: QueueSelection;
  /** Only the calls that ended before this (a queue's figures of the day, taken up to where its live calls begin). */
  endedBefore?: number;
}

/** What a group of calls adds up to: counts, and sums and maxima in ms. */
export interface ServiceLevelSums {
  offered: number;
  answered: number;
  answeredWithin: number;
  shortAbandoned: number;
  abandoned: number;
  waiting: number;
  answerMsSum: number;
  answerMsMax: number | undefined;
  talkMsSum: number;
  talked: number;
  outboundPlaced: number;
  outboundConnected: number;
  outboundTalkMsSum: number;
  outboundTalked: number;
  /** Answered calls within each of ANSWER_TIME_BOUNDS, in order. */
  answeredWithinBounds: number[];
}

export interface SubscriberSums extends ServiceLevelSums {
  subscriberID: string;
  firstName?: string;
  lastName?: string;
  extension?: string;
}

export interface ServiceLevelRows {
  /** Bucket index (from the window's start) and its sums; buckets without calls are left out. */
  buckets: (ServiceLevelSums & { index: number })[];
  subscribers: SubscriberSums[];
}

/** One aggregate column per sum, over the per-call columns of `c` (see below). */
export const AGGREGATES = sql`
  SUM(CASE WHEN c.o = 0 THEN 1 ELSE 0 END) AS offered,
  SUM(CASE WHEN c.o = 0 AND c.wait IS NOT NULL THEN 1 ELSE 0 END) AS answered,
  SUM(CASE WHEN c.o = 0 AND c.wait IS NOT NULL AND c.wait <= c.aw THEN 1 ELSE 0 END) AS within,
  SUM(CASE WHEN c.o = 0 AND c.gone IS NOT NULL AND c.gone < c.sa THEN 1 ELSE 0 END) AS short_abandoned,
  SUM(CASE WHEN c.o = 0 AND c.gone IS NOT NULL AND c.gone >= c.sa THEN 1 ELSE 0 END) AS abandoned,
  SUM(CASE WHEN c.o = 0 AND c.wait IS NULL AND c.gone IS NULL THEN 1 ELSE 0 END) AS waiting,
  SUM(CASE WHEN c.o = 0 THEN c.wait ELSE 0 END) AS wait_sum,
  MAX(CASE WHEN c.o = 0 THEN c.wait END) AS wait_max,
  SUM(CASE WHEN c.o = 0 AND c.talk IS NOT NULL THEN c.talk ELSE 0 END) AS talk_sum,
  SUM(CASE WHEN c.o = 0 AND c.talk IS NOT NULL THEN 1 ELSE 0 END) AS talked,
  SUM(c.o) AS out_placed,
  SUM(CASE WHEN c.o = 1 AND c.wait IS NOT NULL THEN 1 ELSE 0 END) AS out_connected,
  SUM(CASE WHEN c.o = 1 AND c.talk IS NOT NULL THEN c.talk ELSE 0 END) AS out_talk_sum,
  SUM(CASE WHEN c.o = 1 AND c.talk IS NOT NULL THEN 1 ELSE 0 END) AS out_talked,
  ${sql.join(
    ANSWER_TIME_BOUNDS.map((bound) => sql`SUM(CASE WHEN c.o = 0 AND c.wait IS NOT NULL AND c.wait <= ${sql.lit(bound * 1000)} THEN 1 ELSE 0 END) AS ${sql.ref(`w${bound}`)}`),
    sql`, `,
  )}
`;

export type RawSums = Record<string, unknown>;

const number = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));

export const sumsOf = (row: RawSums): ServiceLevelSums => ({
  offered: number(row.offered),
  answered: number(row.answered),
  answeredWithin: number(row.within),
  shortAbandoned: number(row.short_abandoned),
  abandoned: number(row.abandoned),
  waiting: number(row.waiting),
  answerMsSum: number(row.wait_sum),
  answerMsMax: row.wait_max === null || row.wait_max === undefined ? undefined : Number(row.wait_max),
  talkMsSum: number(row.talk_sum),
  talked: number(row.talked),
  outboundPlaced: number(row.out_placed),
  outboundConnected: number(row.out_connected),
  outboundTalkMsSum: number(row.out_talk_sum),
  outboundTalked: number(row.out_talked),
  answeredWithinBounds: ANSWER_TIME_BOUNDS.map((bound) => number(row[`w${bound}`])),
});

/**
 * - `c`: the provider's calls that started in the window, each with its bucket, direction, time to
 *   answer (`wait`, when answered), talk (answered and ended), and time to give up (`gone`: ended
 *   unanswered); `aw` and `sa` carry the two thresholds to every row.
 * - Grouped once by bucket and once by subscriber, in one statement.
 */
export const serviceLevelRows = async (db: HistoryDb, scope: ProviderScope, r: ServiceLevelRequest): Promise<ServiceLevelRows> => {
  const result = await sql<RawSums & { i: unknown; sub: unknown; first_name: unknown; last_name: unknown; extension: unknown }>`
    WITH
    c AS (
      SELECT
        (k.started_at - CAST(${r.from} AS BIGINT)) / CAST(${r.bucketMs} AS BIGINT) AS i,
        k.subscriber_id AS sub, k.subscriber_first_name AS fn, k.subscriber_last_name AS ln, k.subscriber_extension AS ext,
        k.is_outbound AS o,
        CASE WHEN k.answered_at IS NOT NULL THEN k.answered_at - k.started_at END AS wait,
        CASE WHEN k.answered_at IS NOT NULL AND k.ended_at IS NOT NULL THEN k.ended_at - k.answered_at END AS talk,
        CASE WHEN k.answered_at IS NULL AND k.ended_at IS NOT NULL THEN k.ended_at - k.started_at END AS gone,
        CAST(${r.answerWithinMs} AS BIGINT) AS aw,
        CAST(${r.shortAbandonMs} AS BIGINT) AS sa
      FROM calls k
      WHERE k.account_id = ${scope.accountID} AND k.application_id = ${scope.applicationID} AND k.provider_id = ${scope.providerID}
        AND k.started_at >= CAST(${r.from} AS BIGINT) AND k.started_at < CAST(${r.to} AS BIGINT)
        ${r.queues ? sql`AND ${queueCondition(r.queues)}` : sql``}
        ${r.endedBefore === undefined ? sql`` : sql`AND k.ended_at < CAST(${r.endedBefore} AS BIGINT)`}
    )
    SELECT c.i AS i, CAST(NULL AS TEXT) AS sub, CAST(NULL AS TEXT) AS first_name, CAST(NULL AS TEXT) AS last_name, CAST(NULL AS TEXT) AS extension, ${AGGREGATES}
    FROM c GROUP BY c.i
    ${r.subscribers === false ? sql`` : sql`UNION ALL
    SELECT CAST(NULL AS BIGINT), c.sub, MAX(c.fn), MAX(c.ln), MAX(c.ext), ${AGGREGATES}
    FROM c WHERE c.sub IS NOT NULL GROUP BY c.sub`}
  `.execute(db);
  const rows: ServiceLevelRows = { buckets: [], subscribers: [] };
  for (const row of result.rows) {
    if (row.sub === null) {
      rows.buckets.push({ index: Number(row.i), ...sumsOf(row) });
      continue;
    }
    const subscriber: SubscriberSums = { subscriberID: String(row.sub), ...sumsOf(row) };
    if (row.first_name !== null) subscriber.firstName = String(row.first_name);
    if (row.last_name !== null) subscriber.lastName = String(row.last_name);
    if (row.extension !== null) subscriber.extension = String(row.extension);
    rows.subscribers.push(subscriber);
  }
  rows.buckets.sort((a, b) => a.index - b.index);
  return rows;
};

/** One queue's parameters, for figures grouped by queue (each queue's calls counted with its own). */
export interface QueueParameters {
  queueID: string;
  answerWithinMs: number;
  shortAbandonMs: number;
}

export interface QueueServiceLevelRequest {
  from: number;
  to: number;
  bucketMs: number;
  queues: readonly QueueParameters[];
  /** The calls in no queue, or in a queue no longer configured: counted with these. */
  answerWithinMs: number;
  shortAbandonMs: number;
}

/** Sums per queue (`queueID` null: in no queue) and bucket; buckets without calls are left out. */
export type QueueServiceLevelRows = (ServiceLevelSums & { queueID: string | null; index: number })[];

/** A per-row threshold: each queue's own, else the default. */
const perQueue = (queues: readonly QueueParameters[], pick: (q: QueueParameters) => number, fallback: number) =>
  queues.length === 0
    ? sql`CAST(${fallback} AS BIGINT)`
    : sql`CASE ${sql.join(
        queues.map((q) => sql`WHEN k.queue_id = ${q.queueID} THEN CAST(${pick(q)} AS BIGINT)`),
        sql` `,
      )} ELSE CAST(${fallback} AS BIGINT) END`;

/** The same figures per queue and bucket, in one statement: each call with its queue's own answer time and short-abandon time. */
export const serviceLevelRowsByQueue = async (db: HistoryDb, scope: ProviderScope, r: QueueServiceLevelRequest): Promise<QueueServiceLevelRows> => {
  const result = await sql<RawSums & { i: unknown; q: unknown }>`
    WITH
    c AS (
      SELECT
        (k.started_at - CAST(${r.from} AS BIGINT)) / CAST(${r.bucketMs} AS BIGINT) AS i,
        k.queue_id AS q,
        k.is_outbound AS o,
        CASE WHEN k.answered_at IS NOT NULL THEN k.answered_at - k.started_at END AS wait,
        CASE WHEN k.answered_at IS NOT NULL AND k.ended_at IS NOT NULL THEN k.ended_at - k.answered_at END AS talk,
        CASE WHEN k.answered_at IS NULL AND k.ended_at IS NOT NULL THEN k.ended_at - k.started_at END AS gone,
        ${perQueue(r.queues, (q) => q.answerWithinMs, r.answerWithinMs)} AS aw,
        ${perQueue(r.queues, (q) => q.shortAbandonMs, r.shortAbandonMs)} AS sa
      FROM calls k
      WHERE k.account_id = ${scope.accountID} AND k.application_id = ${scope.applicationID} AND k.provider_id = ${scope.providerID}
        AND k.started_at >= CAST(${r.from} AS BIGINT) AND k.started_at < CAST(${r.to} AS BIGINT)
    )
    SELECT c.q AS q, c.i AS i, ${AGGREGATES}
    FROM c GROUP BY c.q, c.i
  `.execute(db);
  return result.rows
    .map((row) => ({ queueID: row.q === null ? null : String(row.q), index: Number(row.i), ...sumsOf(row) }))
    .sort((a, b) => (a.queueID ?? '').localeCompare(b.queueID ?? '') || a.index - b.index);
};
