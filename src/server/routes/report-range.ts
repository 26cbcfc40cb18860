/** The range of a report or an export: its defaults, a calendar date as midnight in a zone, and the documented cap, with 400s naming the field. */
import { parseQueryDate } from '../../contract/call-record.js';
import { MAX_REPORT_DAYS } from '../../contract/reports.js';
import { midnightIn, startOfDayIn } from '../../contract/time-zone.js';
import { ApiProblem } from '../http/api-problem.js';

const DAY_MS = 86_400_000;
/** A month of calendar days holds a 25-hour day where the clock falls back. */
const CLOCK_CHANGE_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A query date as an instant: a calendar date is its midnight in `zone`. */
const instantOf = (text: string, zone: string): number => (text.length === 10 ? midnightIn(zone, text) : (parseQueryDate(text) as number));

export interface ReportRange {
  from: number;
  to: number;
}

/**
 * `toDate` defaults to now, `fromDate` to the midnight that begins toDate's day; at most `maxDays`
 * calendar days (a 25-hour day among them is no reason to refuse).
 */
export const reportRangeOf = (query: { fromDate?: string; toDate?: string }, zone: string, now: number, maxDays = MAX_REPORT_DAYS): ReportRange => {
  const to = query.toDate === undefined ? now : instantOf(query.toDate, zone);
  const from = query.fromDate === undefined ? startOfDayIn(zone, Math.min(now, to - 1)) : instantOf(query.fromDate, zone);
  if (from >= to)
    throw new ApiProblem('invalid_request', `fromDate (${iso(from)}) is not before toDate (${iso(to)}).`, {
      errors: [{ field: 'fromDate', message: 'must be before toDate' }],
    });
  if (to - from > maxDays * DAY_MS + CLOCK_CHANGE_MS)
    throw new ApiProblem('invalid_request', `The range from fromDate (${iso(from)}) to toDate (${iso(to)}) is longer than ${maxDays} days.`, {
      errors: [{ field: 'fromDate', message: `must be at most ${maxDays} days before toDate` }],
    });
  return { from, to };
};
