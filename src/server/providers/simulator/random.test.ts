import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom, deriveSeed } from './random.js';

const draws = (seed: number, count = 8) => {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => random.next());
};

const sample = (count: number, draw: () => number) => Array.from({ length: count }, draw).sort((a, b) => a - b);

describe('createRandom', () => {
  it('repeats its stream for the same seed and changes it for another', () => {
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
    expect(draws(2 ** 40)).not.toEqual(draws(2 ** 40 + 1));
  });

  it('keeps every draw within its bounds', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 50 }), (seed, min, span) => {
        const random = createRandom(seed);
        const next = random.next();
        const int = random.int(min, min + span);
        const uniform = random.uniform(min, min + span);
        expect(next).toBeGreaterThanOrEqual(0);
        expect(next).toBeLessThan(1);
        expect(Number.isInteger(int) && int >= min && int <= min + span).toBe(true);
        expect(uniform >= min && uniform <= min + span).toBe(true);
      }),
    );
  });

  it('reaches both ends of an integer range', () => {
    const random = createRandom(1);
    const seen = new Set(Array.from({ length: 200 }, () => random.int(1, 3)));
    expect([...seen].sort()).toEqual([1, 2, 3]);
  });

  it('draws exponential and lognormal values around their mean and median', () => {
    const random = createRandom(3);
    const exponential = sample(20_000, () => random.exponential(10));
    const mean = exponential.reduce((sum, value) => sum + value, 0) / exponential.length;
    expect(mean).toBeGreaterThan(9.5);
    expect(mean).toBeLessThan(10.5);
    const lognormal = sample(20_000, () => random.lognormal(180, 0.9));
    expect(lognormal[10_000]).toBeGreaterThan(170);
    expect(lognormal[10_000]).toBeLessThan(190);
  });

  it('picks by weight and refuses an empty list', () => {
    const random = createRandom(4);
    const picks = Array.from({ length: 10_000 }, () =>
      random.weighted([
        ['rare', 1],
        ['common', 9],
      ] as const),
    );
    const rare = picks.filter((pick) => pick === 'rare').length;
    expect(rare).toBeGreaterThan(800);
    expect(rare).toBeLessThan(1200);
    expect(() => random.pick([])).toThrow('empty');
  });
});

describe('deriveSeed', () => {
  it('gives independent streams per label', () => {
    expect(deriveSeed(1, 'traffic')).toBe(deriveSeed(1, 'traffic'));
    expect(deriveSeed(1, 'traffic')).not.toBe(deriveSeed(1, 'directory'));
    expect(deriveSeed(1, 'traffic')).not.toBe(deriveSeed(2, 'traffic'));
  });
});
