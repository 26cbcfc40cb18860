import { describe, expect, it } from 'vitest';
import { axisRoom, countAxis, valueTicks } from './chart-axes.js';

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

describe('axis room', () => {
  it('grows with the font and the longest label, measured from neither', () => {
    const small = axisRoom(12, 2);
    expect(axisRoom(24, 2).yWidth).toBeGreaterThan(small.yWidth);
    expect(axisRoom(12, 5).yWidth).toBeGreaterThan(small.yWidth);
    expect(axisRoom(24, 2).xHeight).toBeGreaterThan(small.xHeight);
  });
});
