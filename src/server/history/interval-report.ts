/**
 * The interval report, made where it is read (a reader thread): the database's sums per queue and
 * interval become the figures of `contract/reports.ts`, with agents needed by Erlang C, and the
 * answer leaves as its final bytes, so tens of thousands of rows never cross to the event loop as
 * objects.
 */
import type { ProviderScope } from '../../contract/paths.js';
import type { IntervalMinutes, IntervalReport, IntervalRow, ReportQueue } from '../../contract/reports.js';
import { agentsFor } from '../queues/erlang.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import type { HistoryDb } from './history-tables.js';
import { intervalSums, type IntervalMoves, type IntervalSums, type QueueTimeline } from './interval-report-query.js';
import { intervalStarts } from './report-intervals.js';
import { queueParameterHistory, type QueueParametersInForce } from './report-journal.js';
import { emptySums, figuresOf } from './service-level-figures.js';

/** A configured queue as the config says now. */
export interface ConfiguredQueue {
  queueID: string;
  name: string;
  answerWithinMs: number;
  shortAbandonMs: number;
  serviceLevelTarget: number;
  members: readonly string[];
}

export interface IntervalReportRequest {
  from: number;
  to: number;
  now: number;
  intervalMinutes: IntervalMinutes;
  timeZone: string;
  /** Every configured queue, in the config's order. */
  configured: readonly ConfiguredQueue[];
  /** Only these; without, every configured queue, those no longer configured that were offered calls, and the calls in no queue. */
  queues?: QueueSelection;
  /** For the calls in no queue (and of a queue the journal has no parameters of). */
  answerWithinMs: number;
  shortAbandonMs: number;
}

/** The answer's bytes (UTF-8 JSON of an IntervalReport). */
export type IntervalReportBody = Uint8Array;

const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Each queue's parameter history as timelines; a configured queue the journal has none of counts with its parameters now. */
const timelinesOf = (history: readonly QueueParametersInForce[], configured: readonly ConfiguredQueue[]): Map<string, QueueTimeline & { name: string }> => {
  const timelines = new Map<string, QueueTimeline & { name: string; timeline: QueueParametersInForce[] }>();
  for (const row of history) {
    const known = timelines.get(row.queueID);
    if (known) {
      known.timeline.push(row);
      known.name = row.name;
    } else timelines.set(row.queueID, { queueID: row.queueID, name: row.name, timeline: [row] });
  }
  for (const queue of configured)
    if (!timelines.has(queue.queueID)) timelines.set(queue.queueID, { queueID: queue.queueID, name: queue.name, timeline: [{ ...queue, members: [...queue.members], fromAt: 0 }] });
  return timelines;
};

/** The entry of a timeline in force at `at`: the last that began at or before it, else the first. */
const inForceAt = (timeline: QueueTimeline['timeline'], at: number) => {
  let found = timeline[0];
  for (const entry of timeline) if (entry.fromAt <= at) found = entry;
  return found;
};

interface ShownQueue {
  queueID: string | null;
  name: string;
  timeline?: QueueTimeline;
}

const keyOf = (queueID: string | null, index: number) => `${queueID ?? ''}\u0000${index}`;

/** Peaks per interval: the live count at each interval's first instant is carried from the changes before it. */
const peaksOf = (moves: readonly IntervalMoves[], queueID: string | null, count: number): number[] => {
  const mine = new Map(moves.filter((m) => m.queueID === queueID).map((m) => [m.index, m]));
  const peaks: number[] = [];
  let live = 0;
  for (let index = 0; index < count; index += 1) {
    const move = mine.get(index);
    const atStart = live + (move?.movedAtStart ?? 0);
    peaks.push(Math.max(atStart, move?.peak ?? 0));
    live += move?.moved ?? 0;
  }
  return peaks;
};

export const intervalReport = async (db: HistoryDb, scope: ProviderScope, r: IntervalReportRequest): Promise<IntervalReportBody> => {
  const starts = intervalStarts(r.timeZone, r.from, r.to, r.intervalMinutes);
  const ends = starts.map((_, i) => starts[i + 1] ?? r.to);
  const timelines = timelinesOf(await queueParameterHistory(db, scope), r.configured);
  const configured = r.queues ? r.configured.filter((q) => r.queues?.ids.includes(q.queueID)) : r.configured;
  // Queues no longer configured are shown only without a filter, and only if they had calls; their members are summed in case.
  const unconfigured = r.queues ? [] : [...timelines.values()].filter((t) => !r.configured.some((q) => q.queueID === t.queueID));
  const staffed = [...configured.map((q) => timelines.get(q.queueID) as QueueTimeline), ...unconfigured];
  const sums = await intervalSums(db, scope, {
    from: r.from,
    to: r.to,
    now: r.now,
    starts,
    timelines: [...timelines.values()],
    staffed,
    answerWithinMs: r.answerWithinMs,
    shortAbandonMs: r.shortAbandonMs,
    ...(r.queues ? { queues: r.queues } : {}),
  });
  const shown: ShownQueue[] = configured.map((q) => ({ queueID: q.queueID, name: q.name, timeline: timelines.get(q.queueID) as QueueTimeline }));
  if (!r.queues) {
    const others = [...new Set(sums.offered.map((s) => s.queueID).concat(sums.live.map((m) => m.queueID)))]
      .filter((id): id is string => id !== null && !r.configured.some((q) => q.queueID === id))
      .sort();
    for (const id of others) {
      const timeline = timelines.get(id);
      shown.push({ queueID: id, name: timeline?.name ?? id, ...(timeline ? { timeline } : {}) });
    }
  }
  if (!r.queues || r.queues.none) shown.push({ queueID: null, name: 'No queue' });

  const offered = new Map<string, IntervalSums>(sums.offered.map((s) => [keyOf(s.queueID, s.index), s]));
  const staffedMs = staffed.map((_, queue) => {
    const mine = new Map(sums.staffed.filter((s) => s.queue === queue).map((s) => [s.index, s]));
    let members = 0;
    return starts.map((start, index) => {
      const move = mine.get(index);
      const ms = members * ((ends[index] as number) - start) + (move?.weightedMs ?? 0);
      members += move?.moved ?? 0;
      return ms;
    });
  });
  const columns = shown.map((queue) => {
    const position = staffed.findIndex((t) => t.queueID === queue.queueID);
    return { queue, peaks: peaksOf(sums.live, queue.queueID, starts.length), staffedMs: position < 0 ? undefined : staffedMs[position] };
  });

  const rowOf = (column: (typeof columns)[number], index: number): IntervalRow => {
    const { queue } = column;
    const start = starts[index] as number;
    const end = ends[index] as number;
    const s = offered.get(keyOf(queue.queueID, index));
    const figures = figuresOf(s ?? emptySums());
    const entry = queue.timeline ? inForceAt(queue.timeline.timeline, start) : undefined;
    const answerWithinMs = entry?.answerWithinMs ?? r.answerWithinMs;
    const elapsed = Math.min(end, r.now) - start;
    const agentsStaffed =
      queue.queueID === null ? null : elapsed <= 0 || !column.staffedMs ? 0 : Math.round(((column.staffedMs[index] as number) / elapsed) * 100) / 100;
    return {
      start: iso(start),
      queueID: queue.queueID,
      answerWithinSeconds: answerWithinMs / 1000,
      shortAbandonSeconds: (entry?.shortAbandonMs ?? r.shortAbandonMs) / 1000,
      serviceLevelTarget: entry?.serviceLevelTarget ?? null,
      ...figures,
      longestWaitSeconds: s?.longestWaitMs === undefined ? 0 : seconds(s.longestWaitMs),
      peakConcurrentCalls: column.peaks[index] as number,
      agentsStaffed,
      agentsNeeded: agentsNeeded(queue.queueID, figures.offered, figures.averageTalkSeconds, end - start, answerWithinMs, entry?.serviceLevelTarget),
    };
  };

  const queues: ReportQueue[] = shown.map((q) => ({ queueID: q.queueID, name: q.name }));
  const head: Omit<IntervalReport, 'rows'> = { fromDate: iso(r.from), toDate: iso(r.to), intervalMinutes: r.intervalMinutes, timeZone: r.timeZone, queues };
  const parts: string[] = [`${JSON.stringify(head).slice(0, -1)},"rows":[`];
  let first = true;
  for (let index = 0; index < starts.length; index += 1)
    for (const column of columns) {
      parts.push(`${first ? '' : ','}${JSON.stringify(rowOf(column, index))}`);
      first = false;
    }
  parts.push(']}');
  return Buffer.from(parts.join(''), 'utf8');
};

/** Erlang C on the interval's own offered calls and handle time, per INTERVAL_DEFINITIONS.agentsNeeded. */
const agentsNeeded = (
  queueID: string | null,
  offered: number,
  averageTalkSeconds: number | null,
  spanMs: number,
  answerWithinMs: number,
  serviceLevelTarget: number | undefined,
): number | null => {
  if (queueID === null || serviceLevelTarget === undefined) return null;
  if (offered === 0) return 0;
  if (averageTalkSeconds === null) return null;
  return agentsFor({
    offeredPerHour: (offered * 3_600_000) / spanMs,
    averageHandleSeconds: averageTalkSeconds,
    answerWithinSeconds: answerWithinMs / 1000,
    serviceLevelTarget,
  }).agents;
};
