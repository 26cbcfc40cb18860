/** Seeded pseudo-random numbers for the simulator: the same seed always gives the same stream. */

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform 32-bit unsigned integer. */
  uint32(): number;
  uniform(min: number, max: number): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** One of the entries' values, each with a chance proportional to its weight. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T;
  bernoulli(probability: number): boolean;
  exponential(mean: number): number;
  /** Standard normal (mean 0, standard deviation 1). */
  normal(): number;
  lognormal(median: number, sigma: number): number;
}

const TWO_TO_THE_32 = 0x1_0000_0000;

export const createRandom = (seed: number): Random => {
  const nextUint32 = sfc32(splitmix32(hashSeed(seed)));
  const next = () => nextUint32() / TWO_TO_THE_32;
  const random: Random = {
    next,
    uint32: nextUint32,
    uniform: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor((max - min + 1) * next()),
    pick: (items) => {
      if (items.length === 0) throw new Error('cannot pick from an empty list');
      return items[Math.floor(items.length * next())] as (typeof items)[number];
    },
    weighted: (entries) => pickWeighted(entries, next()),
    bernoulli: (probability) => next() < probability,
    // 1 - next() lies in (0, 1], so the logarithm stays finite.
    exponential: (mean) => -mean * Math.log(1 - next()),
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
    lognormal: (median, sigma) => median * Math.exp(sigma * random.normal()),
  };
  return random;
};

/** A seed for an independent stream, so that one part of the simulation never shifts another's draws. */
export const deriveSeed = (seed: number, label: string): number => {
  let hash = hashSeed(seed) ^ 0x811c9dc5;
  for (let index = 0; index < label.length; index += 1) {
    hash = Math.imul(hash ^ label.charCodeAt(index), 0x01000193);
  }
  return mix32(hash);
};

const pickWeighted = <T>(entries: ReadonlyArray<readonly [T, number]>, draw: number): T => {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let remaining = draw * total;
  for (const [value, weight] of entries) {
    remaining -= weight;
    if (remaining < 0) return value;
  }
  const last = entries.at(-1);
  if (!last) throw new Error('cannot pick from an empty list');
  return last[0];
};

/** Folds any safe integer (negative or above 2^32 included) into 32 well-mixed bits. */
const hashSeed = (seed: number): number => {
  const low = seed >>> 0;
  const high = Math.floor(seed / TWO_TO_THE_32) >>> 0;
  return mix32(low ^ mix32(high ^ 0x9e3779b9));
};

const mix32 = (value: number): number => {
  let z = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
};

const splitmix32 = (state: number) => () => {
  state = (state + 0x9e3779b9) | 0;
  return mix32(state);
};

/** Chris Doty-Humphrey's Small Fast Counter: fast, 128-bit state, passes PractRand. */
const sfc32 = (seedWords: () => number): (() => number) => {
  let a = seedWords();
  let b = seedWords();
  let c = seedWords();
  let d = seedWords();
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let warmup = 0; warmup < 12; warmup += 1) next();
  return next;
};
