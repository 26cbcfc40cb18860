import { afterEach, describe, expect, it } from 'vitest';
import { markCallsReceived, measurePollToCommit, POLL_TO_COMMIT } from './perf-marks.js';

const measures = () => performance.getEntriesByName(POLL_TO_COMMIT, 'measure').length;

afterEach(() => performance.clearMeasures());

describe('poll-to-commit measures', () => {
  it('measures a commit only after an arrival', () => {
    measurePollToCommit();
    expect(measures()).toBe(0);
    markCallsReceived();
    measurePollToCommit();
    measurePollToCommit();
    expect(measures()).toBe(1);
  });

  it('keeps at most 500 in the browser buffer on a screen that runs for days', () => {
    for (let i = 0; i < 1_203; i += 1) {
      markCallsReceived();
      measurePollToCommit();
    }
    expect(measures()).toBeGreaterThan(0);
    expect(measures()).toBeLessThanOrEqual(500);
  });
});
