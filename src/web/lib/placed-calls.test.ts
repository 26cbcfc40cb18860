import { describe, expect, it } from 'vitest';
import { notePlacedCall, PLACED_WITHIN_MS, takePlacedCall } from './placed-calls.js';

describe('placed calls', () => {
  it('knows a number asked for a moment ago, once', () => {
    notePlacedCall('15555550100', 1_000);
    expect(takePlacedCall('15555550199', 2_000)).toBe(false);
    expect(takePlacedCall('15555550100', 2_000)).toBe(true);
    expect(takePlacedCall('15555550100', 2_000)).toBe(false);
  });

  it('forgets a number asked for longer ago than a minute', () => {
    notePlacedCall('15555550100', 1_000);
    expect(takePlacedCall('15555550100', 1_000 + PLACED_WITHIN_MS + 1)).toBe(false);
  });
});
