/**
 * Concurrent calls over a window, bucketed, computed in the database with one SQL statement
 * that both dialects run as written (recursive CTEs and window functions, no dialect builtins).
 */
import { sql } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import type { HistoryDb } from './history-tables.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import { queueCondition } from './queue-condition.js';

export interface ConcurrencyRequest {
  from: number;
  to: number;
  bucketMs: number;
  /** Calls still open count as live until now. */
  now: number;
  /** Only these queues' calls. */
  queues?: QueueSelection;
}

export interface ConcurrencyBucketRow {
  start: number;
  /** Length of the bucket in ms (the last one may be cut short by the window's end). */
  spanMs: number;
  /** Call-milliseconds inside the bucket: divided by `spanMs` it is the average concurrency. */
  busyMs: number;
  peak: number;
  peakInbound: number;
  peakOutbound: number;
  started: number;
  missed: number;
}

interface RawBucket {
  start: unknown;
  span: unknown;
  busy: unknown;
  peak: unknown;
  peak_in: unknown;
  peak_out: unknown;
  started: unknown;
  missed: unknown;
}

/**
 * - `c`: the provider's calls overlapping the window; an open call ends "now".
 * - `p`: one row per (call, bucket it overlaps), by recursion from its first bucket to its last.
 * - `ov`: per bucket, call-time inside it and the calls live at its first instant.
 * - `lv`: the live count after every start (+1) and end (-1), ends first at equal times, in
 *   total and per direction; `pk` takes each bucket's highest.
 * - A bucket's peak is the higher of its starting level and its events' levels.
 */
export const concurrencyBuckets = async (db: HistoryDb, scope: ProviderScope, r: ConcurrencyRequest): Promise<ConcurrencyBucketRow[]> => {
  const result = await sql<RawBucket>`
    WITH RECURSIVE
    w AS (
      SELECT CAST(${r.from} AS BIGINT) AS f, CAST(${r.to} AS BIGINT) AS t, CAST(${r.bucketMs} AS BIGINT) AS s, CAST(${r.now} AS BIGINT) AS n
    ),
    c AS (
      SELECT k.started_at AS st, COALESCE(k.ended_at, w.n) AS en, k.is_outbound AS o, k.is_missed AS m
      FROM calls k CROSS JOIN w
      WHERE k.account_id = ${scope.accountID} AND k.application_id = ${scope.applicationID} AND k.provider_id = ${scope.providerID}
        AND k.started_at < w.t AND (k.ended_at IS NULL OR k.ended_at > w.f)
        ${r.queues ? sql`AND ${queueCondition(r.queues)}` : sql``}
    ),
    p (st, en, o, i, last_i) AS (
      SELECT c.st, c.en, c.o,
        CASE WHEN c.st > w.f THEN (c.st - w.f) / w.s ELSE CAST(0 AS BIGINT) END,
        ((CASE WHEN c.en < w.t THEN c.en ELSE w.t END) - 1 - w.f) / w.s
      FROM c CROSS JOIN w
      WHERE c.en > c.st AND c.en > w.f
      UNION ALL
      SELECT p.st, p.en, p.o, p.i + 1, p.last_i FROM p WHERE p.i < p.last_i
    ),
    ov AS (
      SELECT x.i,
        SUM((CASE WHEN x.en < x.be THEN x.en ELSE x.be END) - (CASE WHEN x.st > x.bs THEN x.st ELSE x.bs END)) AS busy,
        SUM(CASE WHEN x.st <= x.bs THEN 1 ELSE 0 END) AS at_start,
        SUM(CASE WHEN x.st <= x.bs AND x.o = 0 THEN 1 ELSE 0 END) AS in_at_start,
        SUM(CASE WHEN x.st <= x.bs AND x.o = 1 THEN 1 ELSE 0 END) AS out_at_start
      FROM (
        SELECT p.st, p.en, p.o, p.i, w.f + p.i * w.s AS bs,
          CASE WHEN w.f + (p.i + 1) * w.s < w.t THEN w.f + (p.i + 1) * w.s ELSE w.t END AS be
        FROM p CROSS JOIN w
      ) x
      GROUP BY x.i
    ),
    ev (at, d, o) AS (
      SELECT c.st, 1, c.o FROM c WHERE c.en > c.st
      UNION ALL
      SELECT c.en, -1, c.o FROM c WHERE c.en > c.st
    ),
    lv AS (
      SELECT ev.at, ev.o,
        SUM(ev.d) OVER (ORDER BY ev.at, ev.d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS total,
        SUM(ev.d) OVER (PARTITION BY ev.o ORDER BY ev.at, ev.d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS dir
      FROM ev
    ),
    pk AS (
      SELECT (lv.at - w.f) / w.s AS i, MAX(lv.total) AS peak,
        MAX(CASE WHEN lv.o = 0 THEN lv.dir END) AS peak_in,
        MAX(CASE WHEN lv.o = 1 THEN lv.dir END) AS peak_out
      FROM lv CROSS JOIN w
      WHERE lv.at >= w.f AND lv.at < w.t
      GROUP BY (lv.at - w.f) / w.s
    ),
    sc AS (
      SELECT (c.st - w.f) / w.s AS i, COUNT(*) AS started, SUM(c.m) AS missed
      FROM c CROSS JOIN w
      WHERE c.st >= w.f
      GROUP BY (c.st - w.f) / w.s
    ),
    b (i) AS (
      SELECT CAST(0 AS BIGINT)
      UNION ALL
      SELECT b.i + 1 FROM b CROSS JOIN w WHERE (b.i + 1) * w.s < w.t - w.f
    )
    SELECT
      w.f + b.i * w.s AS start,
      (CASE WHEN w.f + (b.i + 1) * w.s < w.t THEN w.f + (b.i + 1) * w.s ELSE w.t END) - (w.f + b.i * w.s) AS span,
      COALESCE(ov.busy, 0) AS busy,
      CASE WHEN COALESCE(pk.peak, 0) > COALESCE(ov.at_start, 0) THEN pk.peak ELSE COALESCE(ov.at_start, 0) END AS peak,
      CASE WHEN COALESCE(pk.peak_in, 0) > COALESCE(ov.in_at_start, 0) THEN pk.peak_in ELSE COALESCE(ov.in_at_start, 0) END AS peak_in,
      CASE WHEN COALESCE(pk.peak_out, 0) > COALESCE(ov.out_at_start, 0) THEN pk.peak_out ELSE COALESCE(ov.out_at_start, 0) END AS peak_out,
      COALESCE(sc.started, 0) AS started,
      COALESCE(sc.missed, 0) AS missed
    FROM b CROSS JOIN w
    LEFT JOIN ov ON ov.i = b.i
    LEFT JOIN pk ON pk.i = b.i
    LEFT JOIN sc ON sc.i = b.i
    ORDER BY b.i
  `.execute(db);
  return result.rows.map((row) => ({
    start: Number(row.start),
    spanMs: Number(row.span),
    busyMs: Number(row.busy),
    peak: Number(row.peak),
    peakInbound: Number(row.peak_in),
    peakOutbound: Number(row.peak_out),
    started: Number(row.started),
    missed: Number(row.missed),
  }));
};
