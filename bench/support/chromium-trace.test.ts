import { describe, expect, it } from 'vitest';
import { coveredMs } from './chromium-trace.js';

const event = (ms: number, durMs: number) => ({ ts: ms * 1000, dur: durMs * 1000 });

describe('coveredMs', () => {
  it("counts an event nested in another once, as Chromium nests a frame's paint and its root's", () => {
    expect(coveredMs([event(0, 10), event(1, 8)])).toBe(10);
  });

  it('counts overlapping events by their union, and apart ones each, in any order', () => {
    expect(coveredMs([event(20, 5), event(0, 10), event(5, 10)])).toBe(20);
  });

  it('is 0 for no events, or events without a duration', () => {
    expect(coveredMs([])).toBe(0);
    expect(coveredMs([{ ts: 5 }])).toBe(0);
  });
});
