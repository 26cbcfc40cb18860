/**
 * Performance API marks around a poll: when its response arrived (before parsing), and when the
 * table committed its calls. Benchmarks and the browser's performance panel read the
 * `callboard:poll-to-commit` measure: parsing, checking, sharing and rendering, all of it.
 */

export const CALLS_RECEIVED = 'callboard:calls-received';
export const POLL_TO_COMMIT = 'callboard:poll-to-commit';

export const markCallsReceived = (): void => {
  performance.mark(CALLS_RECEIVED);
};

/** Call from a layout effect once the new calls are in the DOM. */
export const measurePollToCommit = (): void => {
  if (performance.getEntriesByName(CALLS_RECEIVED, 'mark').length === 0) return;
  performance.measure(POLL_TO_COMMIT, CALLS_RECEIVED);
  performance.clearMarks(CALLS_RECEIVED);
  // Keep the buffer bounded on a screen that polls for days.
  if (performance.getEntriesByName(POLL_TO_COMMIT, 'measure').length > 500) performance.clearMeasures(POLL_TO_COMMIT);
};
