/** The time window of a history query: defaults, order and the documented cap, with 400s naming the field. */
import { bucketSecondsFor, MAX_BUCKETS } from '../../contract/analytics.js';
import { DEFAULT_WINDOW_MS, MAX_WINDOW_DAYS, MAX_WINDOW_MS, parseQueryDate } from '../../contract/call-record.js';
import { ApiProblem } from '../http/api-problem.js';

export interface QueryWindow {
  from: number;
  to: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A missing `toDate` is now, a missing `fromDate` 24 hours before `toDate`; dates are already validated. */
export const resolveWindow = (query: { fromDate?: string; toDate?: string }, now: number): QueryWindow => {
  const to = query.toDate === undefined ? now : (parseQueryDate(query.toDate) as number);
  const from = query.fromDate === undefined ? to - DEFAULT_WINDOW_MS : (parseQueryDate(query.fromDate) as number);
  if (from > to)
    throw new ApiProblem('invalid_request', `fromDate (${iso(from)}) is after toDate (${iso(to)}).`, {
      errors: [{ field: 'fromDate', message: 'must not be after toDate' }],
    });
  if (to - from > MAX_WINDOW_MS)
    throw new ApiProblem('invalid_request', `The window from fromDate (${iso(from)}) to toDate (${iso(to)}) is longer than ${MAX_WINDOW_DAYS} days.`, {
      errors: [{ field: 'fromDate', message: `must be at most ${MAX_WINDOW_DAYS} days before toDate` }],
    });
  return { from, to };
};

/** The bucket size asked for, or the smallest nice one that fits the window; 400 naming `bucketSeconds` past MAX_BUCKETS. */
export const bucketSecondsOf = (asked: string | undefined, window: QueryWindow): number => {
  const seconds = asked === undefined ? bucketSecondsFor(window.to - window.from) : Number(asked);
  if (Math.ceil((window.to - window.from) / (seconds * 1000)) > MAX_BUCKETS)
    throw new ApiProblem('invalid_request', `bucketSeconds (${seconds}) would cut this window into more than ${MAX_BUCKETS} buckets.`, {
      errors: [{ field: 'bucketSeconds', message: `must leave at most ${MAX_BUCKETS} buckets in the window` }],
    });
  return seconds;
};

/** A window with nothing in it is a question without an answer. */
export const requireNonEmpty = (window: QueryWindow): void => {
  if (window.from === window.to)
    throw new ApiProblem('invalid_request', 'fromDate equals toDate: the window is empty.', {
      errors: [{ field: 'fromDate', message: 'must be before toDate' }],
    });
};
