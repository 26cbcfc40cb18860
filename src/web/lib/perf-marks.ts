/**
 * Performance API marks around an update: when its bytes were in (a poll's whole body, a read of
 * the stream holding events; before parsing), and when the screen committed it. Benchmarks and
 * the browser's performance panel read the measures: `callboard:poll-to-commit` for the calls
 * (parsing, checking, sharing and rendering, all of it), `callboard:agents-to-commit` for the
 * agent board, `callboard:queues-to-commit` for the Queues panel. A poll's transfer, from the
 * response's first byte, is in its resource timing.
 */

export const CALLS_RECEIVED = 'callboard:calls-received';
export const POLL_TO_COMMIT = 'callboard:poll-to-commit';
export const AGENTS_RECEIVED = 'callboard:agents-received';
export const AGENTS_TO_COMMIT = 'callboard:agents-to-commit';
export const QUEUES_RECEIVED = 'callboard:queues-received';
export const QUEUES_TO_COMMIT = 'callboard:queues-to-commit';

/** Measures taken of each name since its buffer was last cleared. */
const taken = new Map<string, number>();

const measureSince = (received: string, measure: string): void => {
  if (performance.getEntriesByName(received, 'mark').length === 0) return;
  performance.measure(measure, received);
  performance.clearMarks(received);
  // Keep the buffer bounded on a screen that runs for days. Counted here: asking the browser for
  // the entries would build up to 500 objects on every commit.
  const count = (taken.get(measure) ?? 0) + 1;
  taken.set(measure, count > 500 ? 0 : count);
  if (count > 500) performance.clearMeasures(measure);
};

export const markCallsReceived = (): void => {
  performance.mark(CALLS_RECEIVED);
};

/** Call from a layout effect once the new calls are in the DOM. */
export const measurePollToCommit = (): void => measureSince(CALLS_RECEIVED, POLL_TO_COMMIT);

export const markAgentsReceived = (): void => {
  performance.mark(AGENTS_RECEIVED);
};

/** Call from a layout effect once the board's new states are in the DOM. */
export const measureAgentsToCommit = (): void => measureSince(AGENTS_RECEIVED, AGENTS_TO_COMMIT);

export const markQueuesReceived = (): void => {
  performance.mark(QUEUES_RECEIVED);
};

/** Call from a layout effect once the queues' new figures are in the DOM. */
export const measureQueuesToCommit = (): void => measureSince(QUEUES_RECEIVED, QUEUES_TO_COMMIT);
