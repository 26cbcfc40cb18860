import { describe, expect, it, vi } from 'vitest';
import { perList } from './per-list.js';

describe('perList', () => {
  it('works a list out once, and a new list anew', () => {
    const sum = vi.fn((list: readonly number[]) => list.reduce((total, value) => total + value, 0));
    const cached = perList(sum);
    const list = [1, 2, 3];
    expect(cached(list)).toBe(6);
    expect(cached(list)).toBe(6);
    expect(sum).toHaveBeenCalledTimes(1);
    expect(cached([...list, 4])).toBe(10);
    expect(sum).toHaveBeenCalledTimes(2);
  });

  it('keeps a result that is undefined too', () => {
    const first = vi.fn((list: readonly number[]) => list[0]);
    const cached = perList(first);
    const empty: number[] = [];
    expect(cached(empty)).toBeUndefined();
    expect(cached(empty)).toBeUndefined();
    expect(first).toHaveBeenCalledTimes(1);
  });
});
