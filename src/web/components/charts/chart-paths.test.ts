import { describe, expect, it } from 'vitest';
import { bars, countAxis, line, nearestPoint, stepArea, stepLine, valueTicks, type Frame, type Value } from './chart-paths.js';

// 100 px wide from 0 to 100 ms, 100 px tall from 0 to 10: a point at (t, n) is drawn at (t, 100 - 10n).
const frame: Frame = { left: 0, top: 0, width: 100, height: 100, from: 0, to: 100, yTop: 10 };

interface P {
  at: number;
  a: number | null;
  b: number | null;
}
const a: Value<P> = (p) => p.a;
const sum: Value<P> = (p) => (p.a === null || p.b === null ? null : p.a + p.b);
const zero: Value<P> = () => 0;

const three: P[] = [
  { at: 0, a: 2, b: 1 },
  { at: 50, a: 4, b: 0 },
  { at: 100, a: 1, b: 3 },
];

describe('chart paths', () => {
  it('steps: each value held until the next point', () => {
    expect(stepLine(three, a, frame)).toBe('M0 80H50V60H100V90');
    expect(stepLine(three, sum, frame)).toBe('M0 70H50V60H100V60');
  });

  it('stacks one stepped area on another, back along the lower one', () => {
    expect(stepArea(three, zero, a, frame)).toBe('M0 80H50V60H100V90V100V100H50V100H0Z');
    // At 100 from 90 up to the previous value's 60, across, then down to 80.
    expect(stepArea(three, a, sum, frame)).toBe('M0 70H50V60H100V60V90V60H50V80H0Z');
  });

  it('breaks where a value is missing, and draws nothing without points', () => {
    const broken: P[] = [
      { at: 0, a: 1, b: 0 },
      { at: 20, a: 1, b: 0 },
      { at: 21, a: null, b: null },
      { at: 80, a: 5, b: 5 },
      { at: 100, a: 5, b: 5 },
    ];
    expect(stepLine(broken, a, frame)).toBe('M0 90H20V90M80 50H100V50');
    expect(line(broken, sum, frame)).toBe('M0 90L20 90M80 0L100 0');
    expect(stepLine([], a, frame)).toBe('');
    expect(stepArea([], zero, a, frame)).toBe('');
  });

  it('draws a bar per point across its bucket, none where it is empty', () => {
    expect(bars(three, zero, (p) => p.b, 10, frame)).toBe('M-10 100V90H10V100ZM90 100V70H110V100Z');
  });

  it('places the plot inside its frame', () => {
    const placed = { left: 40, top: 12, width: 200, height: 60, from: 1000, to: 3000, yTop: 6 };
    expect(stepLine([{ at: 1000, a: 3, b: 0 }, { at: 2000, a: 3, b: 0 }], a, placed)).toBe('M40 42H140V42');
  });
});

describe('nearestPoint', () => {
  const points = [0, 10, 30].map((at) => ({ at }));
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

describe('value axes', () => {
  it.each([
    [4, [0, 1, 2, 3, 4]],
    [6, [0, 2, 4, 6]],
    [12, [0, 5, 10]],
    [30, [0, 10, 20, 30]],
    [130, [0, 50, 100]],
    [2400, [0, 500, 1000, 1500, 2000]],
  ])('ticks for a top of %i: %j', (top, ticks) => {
    expect(valueTicks(top)).toEqual(ticks);
  });

  it.each([
    [0, 1, [0, 1]],
    [3, 3, [0, 1, 2, 3]],
    [7, 8, [0, 2, 4, 6, 8]],
    [23, 25, [0, 5, 10, 15, 20, 25]],
    [480, 500, [0, 100, 200, 300, 400, 500]],
  ])('a count axis up to %i tops at %i', (max, top, ticks) => {
    expect(countAxis(max)).toEqual({ yTop: top, ticks });
  });
});
