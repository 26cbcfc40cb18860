/**
 * The sums behind the interval report, counted in the database by three statements both dialects
 * run as written: the calls offered per queue and interval (each with its queue's parameters in
 * force when it started), the changes of each queue's live calls, and the changes of each queue's
 * staffed members. Intervals need not be equally long (a cut first or last one, a clock change in a
 * zone whose offset moves by less than an interval), so they travel as segments of equal ones.
 */
import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import type { HistoryDb } from './history-tables.js';
import { inScopeSql } from './journal-write.js';
import { queueCondition } from './queue-condition.js';
import { AGGREGATES, sumsOf, type RawSums, type ServiceLevelSums } from './service-level-query.js';

/** Past any instant the journal holds: the end of the parameters last in force. */
const FOREVER = Number.MAX_SAFE_INTEGER;

/** Agent states in which a member does not count as staffed. */
const UNSTAFFED_STATES = ['offline', 'inactive', 'unknown'] as const;

/** A queue's parameters from `fromAt` until the next entry of its timeline. */
export interface ParametersInForce {
  fromAt: number;
  answerWithinMs: number;
  shortAbandonMs: number;
  serviceLevelTarget: number;
  members: readonly string[];
}

/** A queue and its parameters over time, oldest first; the first entry also holds before its `fromAt`. */
export interface QueueTimeline {
  queueID: string;
  timeline: readonly ParametersInForce[];
}

export interface IntervalSumsRequest {
  from: number;
  to: number;
  /** Calls still open count as ending, and agents' last states as holding, until this. */
  now: number;
  /** Where each interval begins: `from`, then ascending, each before `to`. */
  starts: readonly number[];
  /** Every queue whose parameters are known, configured or not: its calls are counted with them. */
  timelines: readonly QueueTimeline[];
  /** The queues whose members' states are summed (those the report shows). */
  staffed: readonly QueueTimeline[];
  /** Calls of a queue without a timeline, and in no queue, are counted with these. */
  answerWithinMs: number;
  shortAbandonMs: number;
  queues?: QueueSelection;
}

/** One queue's (`null`: no queue's) figures for one interval, as sums. */
export interface IntervalSums extends ServiceLevelSums {
  queueID: string | null;
  index: number;
  longestWaitMs: number | undefined;
}

export interface IntervalMoves {
  queueID: string | null;
  index: number;
  /** The most calls live at one instant of the interval at which something changed. */
  peak: number;
  /** Calls that became live minus those that ended within the interval. */
  moved: number;
  /** The same, at the interval's first instant only. */
  movedAtStart: number;
}

export interface StaffedMoves {
  /** Position in `staffed`. */
  queue: number;
  index: number;
  /** Members who became staffed minus those who stopped, within the interval. */
  moved: number;
  /** Each change weighted by the ms from it to the interval's end. */
  weightedMs: number;
}

export interface IntervalSumsRows {
  offered: IntervalSums[];
  live: IntervalMoves[];
  staffed: StaffedMoves[];
}

interface Segment {
  from: number;
  to: number;
  step: number;
  first: number;
}

/** Runs of equally long intervals: in each, interval `first + (t − from) ÷ step` holds instant t. */
const segmentsOf = (starts: readonly number[], to: number): Segment[] => {
  const segments: Segment[] = [];
  starts.forEach((start, index) => {
    const end = starts[index + 1] ?? to;
    const last = segments.at(-1);
    if (last && last.to === start && last.step === end - start) last.to = end;
    else segments.push({ from: start, to: end, step: end - start, first: index });
  });
  return segments;
};

const big = (n: number) => sql`CAST(${sql.lit(Math.trunc(n))} AS BIGINT)`;

/** A CTE of literal rows; with none, one row that joins nothing (both dialects need a row to name the columns). */
const valuesOf = (rows: readonly RawBuilder<unknown>[][], empty: RawBuilder<unknown>[]) =>
  sql.join(
    (rows.length === 0 ? [empty] : rows).map((row) => sql`(${sql.join(row)})`),
    sql`, `,
  );

/**
 * An expression over each segment of the range, picked by where instant `at` falls: with one
 * segment (a range without a clock change, or one that moves the clock by whole intervals) no
 * comparison at all. `at` is within the range wherever it is used.
 */
const bySegment = (r: IntervalSumsRequest, at: RawBuilder<unknown>, each: (s: Segment) => RawBuilder<unknown>) => {
  const segments = segmentsOf(r.starts, r.to);
  if (segments.length === 1) return each(segments[0] as Segment);
  return sql`CASE ${sql.join(
    segments.slice(0, -1).map((s) => sql`WHEN ${at} < ${big(s.to)} THEN ${each(s)}`),
    sql` `,
  )} ELSE ${each(segments.at(-1) as Segment)} END`;
};

/** The interval of instant `at`, where that interval begins, and where it ends. */
const indexOf = (r: IntervalSumsRequest, at: RawBuilder<unknown>) => bySegment(r, at, (s) => sql`${big(s.first)} + (${at} - ${big(s.from)}) / ${big(s.step)}`);
const beginningOf = (r: IntervalSumsRequest, at: RawBuilder<unknown>) =>
  bySegment(r, at, (s) => sql`${big(s.from)} + ((${at} - ${big(s.from)}) / ${big(s.step)}) * ${big(s.step)}`);
const endOf = (r: IntervalSumsRequest, at: RawBuilder<unknown>) =>
  bySegment(r, at, (s) => sql`${big(s.from + s.step)} + ((${at} - ${big(s.from)}) / ${big(s.step)}) * ${big(s.step)}`);

/** Each timeline entry's span: [fromAt, next fromAt), the first from the start of time, the last for ever. */
const spans = <T>(timeline: readonly ParametersInForce[], each: (entry: ParametersInForce, from: number, to: number) => T): T[] =>
  timeline.map((entry, i) => each(entry, i === 0 ? 0 : entry.fromAt, timeline[i + 1]?.fromAt ?? FOREVER));

/** A call's parameter in force when it started: its queue's, by the span its start falls in; else the default. */
const inForceAtStart = (r: IntervalSumsRequest, pick: (entry: ParametersInForce) => number, fallback: number) => {
  const known = r.timelines.filter((q) => q.timeline.length > 0);
  if (known.length === 0) return big(fallback);
  const ofQueue = (timeline: readonly ParametersInForce[]) =>
    timeline.length === 1
      ? big(pick(timeline[0] as ParametersInForce))
      : sql`CASE ${sql.join(
          spans(timeline, (entry, _from, to) => ({ entry, to }))
            .slice(0, -1)
            .map(({ entry, to }) => sql`WHEN k.started_at < ${big(to)} THEN ${big(pick(entry))}`),
          sql` `,
        )} ELSE ${big(pick(timeline.at(-1) as ParametersInForce))} END`;
  return sql`CASE k.queue_id ${sql.join(
    known.map((q) => sql`WHEN ${q.queueID} THEN ${ofQueue(q.timeline)}`),
    sql` `,
  )} ELSE ${big(fallback)} END`;
};

/**
 * - `c`: the calls that started in the range, each with its interval, its figures' inputs (as
 *   service-level-query.ts), the parameters of its queue when it started, and how long an inbound
 *   call waited, up to now (`lw`).
 */
const offeredSums = async (db: HistoryDb, scope: ProviderScope, r: IntervalSumsRequest): Promise<IntervalSums[]> => {
  const result = await sql<RawSums & { q: unknown; i: unknown; lw: unknown }>`
    WITH
    c AS (
      SELECT
        k.queue_id AS q,
        ${indexOf(r, sql`k.started_at`)} AS i,
        k.is_outbound AS o,
        CASE WHEN k.answered_at IS NOT NULL THEN k.answered_at - k.started_at END AS wait,
        CASE WHEN k.answered_at IS NOT NULL AND k.ended_at IS NOT NULL THEN k.ended_at - k.answered_at END AS talk,
        CASE WHEN k.answered_at IS NULL AND k.ended_at IS NOT NULL THEN k.ended_at - k.started_at END AS gone,
        ${inForceAtStart(r, (entry) => entry.answerWithinMs, r.answerWithinMs)} AS aw,
        ${inForceAtStart(r, (entry) => entry.shortAbandonMs, r.shortAbandonMs)} AS sa,
        CASE WHEN k.is_outbound = 0 THEN COALESCE(k.answered_at, k.ended_at, ${big(r.now)}) - k.started_at END AS lw
      FROM calls k
      WHERE ${inScopeSql(scope, 'k')}
        AND k.started_at >= ${big(r.from)} AND k.started_at < ${big(r.to)}
        ${r.queues ? sql`AND ${queueCondition(r.queues)}` : sql``}
    )
    SELECT c.q AS q, c.i AS i, ${AGGREGATES}, MAX(c.lw) AS lw
    FROM c GROUP BY c.q, c.i
  `.execute(db);
  return result.rows.map((row) => ({
    queueID: row.q === null ? null : String(row.q),
    index: Number(row.i),
    ...sumsOf(row),
    longestWaitMs: row.lw === null || row.lw === undefined ? undefined : Math.max(0, Number(row.lw)),
  }));
};

/** Calls in no queue, and in a queue without parameters, in the integer keys of `queueNumber`. */
const NO_QUEUE_NUMBER = -1;
const UNKNOWN_QUEUE = -2;

/**
 * A call's queue as a number (its position in `timelines`), so sorting by queue compares integers,
 * not text under the database's collation; a queue without parameters is UNKNOWN_QUEUE and keeps
 * its ID beside.
 */
const queueNumber = (r: IntervalSumsRequest) =>
  r.timelines.length === 0
    ? sql`CASE WHEN k.queue_id IS NULL THEN ${big(NO_QUEUE_NUMBER)} ELSE ${big(UNKNOWN_QUEUE)} END`
    : sql`CASE WHEN k.queue_id IS NULL THEN ${big(NO_QUEUE_NUMBER)} ${sql.join(
        r.timelines.map((q, n) => sql`WHEN k.queue_id = ${q.queueID} THEN ${big(n)}`),
        sql` `,
      )} ELSE ${big(UNKNOWN_QUEUE)} END`;

const queueOfNumber = (r: IntervalSumsRequest, n: number, id: unknown): string | null =>
  n === NO_QUEUE_NUMBER ? null : n === UNKNOWN_QUEUE ? String(id) : (r.timelines[n] as QueueTimeline).queueID;

/**
 * - `c`: each call live at some instant of the range, from its start (or the range's) to its end
 *   (or now); `ev`: +1 where it begins, −1 where it ends inside the range.
 * - `lv`: each queue's live calls after all of an instant's changes (the window's default frame
 *   takes every change at the same instant together); grouped by interval.
 */
const liveMoves = async (db: HistoryDb, scope: ProviderScope, r: IntervalSumsRequest): Promise<IntervalMoves[]> => {
  const result = await sql<{ qn: unknown; q: unknown; i: unknown; peak: unknown; moved: unknown; moved_at_start: unknown }>`
    WITH
    c AS (
      SELECT ${queueNumber(r)} AS qn, k.queue_id AS q,
        CASE WHEN k.started_at > ${big(r.from)} THEN k.started_at ELSE ${big(r.from)} END AS a,
        COALESCE(k.ended_at, ${big(r.now)}) AS b
      FROM calls k
      WHERE ${inScopeSql(scope, 'k')}
        AND k.started_at < ${big(r.to)} AND (k.ended_at IS NULL OR k.ended_at > ${big(r.from)})
        ${r.queues ? sql`AND ${queueCondition(r.queues)}` : sql``}
    ),
    ev (qn, q, at, d) AS (
      SELECT c.qn, CASE WHEN c.qn = ${big(UNKNOWN_QUEUE)} THEN c.q END, c.a, 1 FROM c WHERE c.b > c.a
      UNION ALL
      SELECT c.qn, CASE WHEN c.qn = ${big(UNKNOWN_QUEUE)} THEN c.q END, c.b, -1 FROM c WHERE c.b > c.a AND c.b < ${big(r.to)}
    ),
    lv AS (
      SELECT ev.qn, ev.q, ev.at, ev.d, SUM(ev.d) OVER (PARTITION BY ev.qn, ev.q ORDER BY ev.at) AS n FROM ev
    ),
    x AS (
      SELECT lv.qn, lv.q, ${indexOf(r, sql`lv.at`)} AS i, CASE WHEN lv.at = ${beginningOf(r, sql`lv.at`)} THEN lv.d ELSE 0 END AS d0, lv.d, lv.n
      FROM lv
    )
    SELECT x.qn AS qn, x.q AS q, x.i AS i, MAX(x.n) AS peak, SUM(x.d) AS moved, SUM(x.d0) AS moved_at_start
    FROM x GROUP BY x.qn, x.q, x.i
  `.execute(db);
  return result.rows.map((row) => ({
    queueID: queueOfNumber(r, Number(row.qn), row.q),
    index: Number(row.i),
    peak: Number(row.peak),
    moved: Number(row.moved),
    movedAtStart: Number(row.moved_at_start),
  }));
};

/** Where the interval holding `at` begins (the last start at or before it). */
const startOfIntervalAt = (starts: readonly number[], at: number): number => {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if ((starts[mid] as number) <= at) low = mid;
    else high = mid - 1;
  }
  return starts[low] as number;
};

/**
 * Who counts for a queue when: the members listed by the parameters in force at an interval's
 * start count for all of that interval, so each entry's span is moved to interval starts.
 */
const membershipRows = (r: IntervalSumsRequest, until: number) =>
  r.staffed.flatMap((q, queue) =>
    spans(q.timeline, (entry, from, to) => {
      const begins = nextStartAtOrAfter(r.starts, from, r.to);
      const ends = nextStartAtOrAfter(r.starts, to, r.to);
      const capped = Math.min(ends, until);
      return begins >= capped ? [] : entry.members.map((member) => ({ queue, member, begins, capped }));
    }).flat(),
  );

/** The first interval start at or after `at`; the range's end past the last. */
const nextStartAtOrAfter = (starts: readonly number[], at: number, to: number): number => {
  if (at <= (starts[0] as number)) return starts[0] as number;
  if (at >= to) return to;
  const start = startOfIntervalAt(starts, at);
  if (start === at) return at;
  return starts[starts.indexOf(start) + 1] ?? to;
};

/**
 * - `mem`: each queue's members with the span they count in; `st`: their state changes in the
 *   range (member by member: SQLite keeps a CROSS JOIN's order, so each is a range of the key),
 *   and each one's state in force at its start.
 * - `fl`: each change with whether it leaves the agent staffed, and whether the one before did;
 *   `fx`: only the changes that flip it; `p`: the staffed spans, from a flip on to the next flip.
 * - `mp`: those spans within each membership; `ev`: +1 and −1 at their ends, grouped by interval
 *   with each change weighted by the time left in its interval.
 */
const staffedMoves = async (db: HistoryDb, scope: ProviderScope, r: IntervalSumsRequest): Promise<StaffedMoves[]> => {
  const until = Math.min(r.to, r.now);
  const memberships = membershipRows(r, until);
  if (memberships.length === 0) return [];
  // Agents are numbered, so sorting by agent compares integers, not text under the database's collation.
  const numbers = new Map<string, number>();
  for (const { member } of memberships) if (!numbers.has(member)) numbers.set(member, numbers.size);
  const members = memberships.map(({ queue, member, begins, capped }) => [big(queue), big(numbers.get(member) as number), big(begins), big(capped)]);
  const agents = [...numbers].map(([member, n]) => [big(n), sql`${member}`]);
  const staffed = sql`CASE WHEN st.state IN (${sql.join(UNSTAFFED_STATES.map((state) => sql.lit(state)))}) THEN 0 ELSE 1 END`;
  const result = await sql<{ q: unknown; i: unknown; moved: unknown; weighted: unknown }>`
    WITH
    mem (q, n, f, t) AS (VALUES ${valuesOf(members, [])}),
    who (n, sub) AS (VALUES ${valuesOf(agents, [])}),
    st AS (
      SELECT who.n AS n, s.at AS at, s.state AS state
      FROM who CROSS JOIN agent_states s
      WHERE ${inScopeSql(scope, 's')} AND s.subscriber_id = who.sub AND s.at >= ${big(r.from)} AND s.at < ${big(until)}
      UNION ALL
      SELECT who.n, s.at, s.state
      FROM who JOIN agent_states s ON ${inScopeSql(scope, 's')} AND s.subscriber_id = who.sub
      WHERE s.at = (
        SELECT MAX(x.at) FROM agent_states x
        WHERE ${inScopeSql(scope, 'x')} AND x.subscriber_id = who.sub AND x.at < ${big(r.from)}
      )
    ),
    fl AS (
      SELECT st.n, st.at, ${staffed} AS now_on, LAG(${staffed}) OVER (PARTITION BY st.n ORDER BY st.at) AS was_on
      FROM st
    ),
    fx AS (
      SELECT fl.n, fl.at, fl.now_on, LEAD(fl.at) OVER (PARTITION BY fl.n ORDER BY fl.at) AS next_at
      FROM fl WHERE fl.was_on IS NULL OR fl.was_on <> fl.now_on
    ),
    p AS (
      SELECT fx.n,
        CASE WHEN fx.at > ${big(r.from)} THEN fx.at ELSE ${big(r.from)} END AS a,
        COALESCE(fx.next_at, ${big(until)}) AS b
      FROM fx WHERE fx.now_on = 1
    ),
    mp AS (
      SELECT mem.q,
        CASE WHEN p.a > mem.f THEN p.a ELSE mem.f END AS a,
        CASE WHEN p.b < mem.t THEN p.b ELSE mem.t END AS b
      FROM p JOIN mem ON mem.n = p.n AND p.a < mem.t AND p.b > mem.f
    ),
    ev (q, at, d) AS (
      SELECT mp.q, mp.a, 1 FROM mp
      UNION ALL
      SELECT mp.q, mp.b, -1 FROM mp WHERE mp.b < ${big(r.to)}
    ),
    x AS (
      SELECT ev.q, ${indexOf(r, sql`ev.at`)} AS i, ev.d, ev.d * (${endOf(r, sql`ev.at`)} - ev.at) AS w
      FROM ev
    )
    SELECT x.q AS q, x.i AS i, SUM(x.d) AS moved, SUM(x.w) AS weighted
    FROM x GROUP BY x.q, x.i
  `.execute(db);
  return result.rows.map((row) => ({ queue: Number(row.q), index: Number(row.i), moved: Number(row.moved), weightedMs: Number(row.weighted) }));
};

/**
 * The three statements in one read transaction, so they see the same journal. On PostgreSQL the
 * sorts of a month's changes get the memory to stay off disk, and the statements, run once each,
 * skip the JIT compilation that would cost more than it saves.
 */
export const intervalSums = (db: HistoryDb, scope: ProviderScope, r: IntervalSumsRequest): Promise<IntervalSumsRows> =>
  db.transaction().execute(async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
      await sql`SET LOCAL jit = off`.execute(trx);
    }
    return { offered: await offeredSums(trx, scope, r), live: await liveMoves(trx, scope, r), staffed: await staffedMoves(trx, scope, r) };
  });
