/**
 * The interval report as the charts draw it: one point per interval start, each queue's service
 * level and the target in force in that interval; offered calls against agents needed and staffed.
 * Every series is a step that holds through its interval, so a last point at the report's end
 * closes the last step.
 */
import type { IntervalReport, IntervalRow, ReportQueue } from '../../../../contract/reports.js';
import { MOST_QUEUE_LINES } from '../../../components/charts/queue-series.js';

export type SeriesPoint = { at: number } & Record<string, number | null | [number, number]>;

export const levelKey = (index: number) => `level${index}`;
export const targetKey = (index: number) => `target${index}`;

const percentOf = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);

/** Rows grouped by interval start, in order. */
const byStart = (rows: readonly IntervalRow[]): [number, IntervalRow[]][] => {
  const groups = new Map<number, IntervalRow[]>();
  for (const row of rows) {
    const at = Date.parse(row.start);
    const group = groups.get(at);
    if (group) group.push(row);
    else groups.set(at, [row]);
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]);
};

/** The report's queues with their calls offered over the range. */
const offeredPerQueue = (report: IntervalReport): Map<string | null, number> => {
  const offered = new Map<string | null, number>();
  for (const row of report.rows) offered.set(row.queueID, (offered.get(row.queueID) ?? 0) + row.offered);
  return offered;
};

/** The queues drawn as lines: configured queues (the calls in no queue have no target), the busiest first, as many as the chart tells apart. */
export const drawnQueues = (report: IntervalReport): ReportQueue[] => {
  const offered = offeredPerQueue(report);
  return report.queues
    .filter((queue) => queue.queueID !== null)
    .map((queue, order) => ({ queue, order, offered: offered.get(queue.queueID) ?? 0 }))
    .sort((a, b) => b.offered - a.offered || a.order - b.order)
    .slice(0, MOST_QUEUE_LINES)
    .map(({ queue }) => queue);
};

/** Adds the closing point at the report's end: the last interval's values again. */
const closed = (points: SeriesPoint[], to: number): SeriesPoint[] => {
  const last = points.at(-1);
  return last && last.at < to ? [...points, { ...last, at: to }] : points;
};

/** Service level (in %) and the target in force (in %) per interval, for each of `queues` by its index. */
export const serviceLevelPoints = (report: IntervalReport, queues: readonly ReportQueue[]): SeriesPoint[] =>
  closed(
    byStart(report.rows).map(([at, rows]) => {
      const point: SeriesPoint = { at };
      queues.forEach((queue, q) => {
        const row = rows.find((r) => r.queueID === queue.queueID);
        point[levelKey(q)] = percentOf(row?.serviceLevel ?? null);
        point[targetKey(q)] = percentOf(row?.serviceLevelTarget ?? null);
      });
      return point;
    }),
    Date.parse(report.toDate),
  );

export interface StaffingPoint {
  at: number;
  offered: number;
  needed: number | null;
  staffed: number | null;
  /** [staffed, needed] where fewer were staffed than needed: the gap the chart shades. */
  gap: [number, number] | null;
  /** Agents short (needed − staffed, rounded up), 0 when none. */
  short: number;
}

/** Agents staffed as shown: to a tenth. */
export const roundStaffed = (staffed: number | null): number | null => (staffed === null ? null : Math.round(staffed * 10) / 10);

/** Agents short in an interval (needed − staffed as shown, rounded up), 0 when none or unknown. */
export const agentsShort = (needed: number | null, staffed: number | null): number =>
  needed !== null && staffed !== null && staffed < needed ? Math.ceil(needed - staffed) : 0;

const sumOrNull = (values: readonly (number | null)[]): number | null => {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
};

/**
 * Offered calls, agents needed and staffed per interval, for one queue or summed over the
 * configured queues (`queueID` undefined). Summed, an agent in two queues counts in each.
 */
export const staffingPoints = (report: IntervalReport, queueID: string | undefined): StaffingPoint[] => {
  const points = byStart(report.rows).map(([at, all]) => {
    const rows = all.filter((row) => row.queueID !== null && (queueID === undefined || row.queueID === queueID));
    const needed = sumOrNull(rows.map((row) => row.agentsNeeded));
    const staffed = sumOrNull(rows.map((row) => row.agentsStaffed));
    const rounded = roundStaffed(staffed);
    const short = agentsShort(needed, rounded);
    const gap: [number, number] | null = short > 0 && needed !== null && rounded !== null ? [rounded, needed] : null;
    return {
      at,
      offered: rows.reduce((sum, row) => sum + row.offered, 0),
      needed,
      staffed: rounded,
      gap,
      short,
    };
  });
  const last = points.at(-1);
  const to = Date.parse(report.toDate);
  return last && last.at < to ? [...points, { ...last, at: to }] : points;
};

/** The intervals' starts and ends, for the tables and readouts: an interval is cut at the report's end. */
export const intervalEnd = (start: number, intervalMinutes: number, to: number): number =>
  Math.min(start + intervalMinutes * 60_000, to);
