import { describe, expect, it } from 'vitest';
import { areaPaths, nearestPoint, valueTicks, type Frame } from './chart-geometry.js';

// 100 px wide from 0 to 100 ms, 100 px tall from 0 to 10 calls: a point at (t, n) is drawn at (t, 100 - 10n).
const frame: Frame = { left: 0, top: 0, width: 100, height: 100, from: 0, to: 100, yTop: 10 };

describe('areaPaths', () => {
  it('stacks outbound on inbound, each count held until the next point', () => {
    const paths = areaPaths(
      [
        { at: 0, inbound: 2, outbound: 1 },
        { at: 50, inbound: 4, outbound: 0 },
        { at: 100, inbound: 1, outbound: 3 },
      ],
      frame,
    );
    expect(paths.inbound.line).toBe('M0 80H50V60H100V90');
    expect(paths.inbound.area).toBe('M0 80H50V60H100V90V100H0Z');
    expect(paths.outbound.line).toBe('M0 70H50V60H100V60');
    // Back along inbound's top: at 100 from 90 up to the previous count's 60, across, then down to 80.
    expect(paths.outbound.area).toBe('M0 70H50V60H100V60V90V60H50V80H0Z');
  });

  it('breaks the areas where a point has no counts, and draws nothing without points', () => {
    const paths = areaPaths(
      [
        { at: 0, inbound: 1, outbound: 0 },
        { at: 20, inbound: 1, outbound: 0 },
        { at: 21, inbound: null, outbound: null },
        { at: 80, inbound: 5, outbound: 5 },
        { at: 100, inbound: 5, outbound: 5 },
      ],
      frame,
    );
    expect(paths.inbound.line).toBe('M0 90H20V90M80 50H100V50');
    expect(paths.outbound.line).toBe('M0 90H20V90M80 0H100V0');
    expect(areaPaths([], frame)).toEqual({ inbound: { area: '', line: '' }, outbound: { area: '', line: '' } });
  });

  it('places the plot inside its frame', () => {
    const paths = areaPaths([{ at: 1000, inbound: 3, outbound: 0 }, { at: 2000, inbound: 3, outbound: 0 }], {
      left: 40,
      top: 12,
      width: 200,
      height: 60,
      from: 1000,
      to: 3000,
      yTop: 6,
    });
    expect(paths.inbound.line).toBe('M40 42H140V42');
  });
});

describe('nearestPoint', () => {
  const points = [0, 10, 30].map((at) => ({ at, inbound: 1, outbound: 0 }));
  it.each([
    [-5, 0],
    [4, 0],
    [6, 1],
    [19, 1],
    [21, 2],
    [99, 2],
  ])('at %i is point %i', (at, index) => {
    expect(nearestPoint(points, at)).toBe(index);
  });
  it('is undefined without points', () => {
    expect(nearestPoint([], 5)).toBeUndefined();
  });
});

describe('valueTicks', () => {
  it.each([
    [4, [0, 1, 2, 3, 4]],
    [6, [0, 2, 4, 6]],
    [12, [0, 5, 10]],
    [30, [0, 10, 20, 30]],
    [130, [0, 50, 100]],
    [2400, [0, 500, 1000, 1500, 2000]],
  ])('for a top of %i: %j', (top, ticks) => {
    expect(valueTicks(top)).toEqual(ticks);
  });
});
