/** What sets one simulated run apart: how its simulated time maps to the clock, and the prefixes of its call IDs. */
import { deriveSeed } from './random.js';

export interface Timeline {
  toSim(clockTime: number): number;
  toClock(simTime: number): number;
}

/** Simulated time equals clock time at `origin` and runs `speed` times faster from there (and slower before it). */
export const createTimeline = (origin: number, speed: number): Timeline => ({
  toSim: (clockTime) => Math.floor(origin + (clockTime - origin) * speed),
  toClock: (simTime) => Math.round(origin + (simTime - origin) / speed),
});

/** Start time and seed: two runs share call IDs only if they share both. */
export const callIDPrefix = (seed: number, start: number): string =>
  `sim-${start.toString(36)}-${deriveSeed(seed, 'call-id-prefix').toString(36).padStart(7, '0')}`;

/** The SIP host part of every providerCallID, from the provider's name. */
export const sipHostFor = (name: string): string =>
  `pbx.${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')}.sim`;
