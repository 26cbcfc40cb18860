/**
 * When the simulated agents' phones are off, day by day: the center runs around the clock with
 * staggered shifts, so each agent is off duty for 2 to 3 hours a day and about one in ten is at any
 * hour; in business hours each takes two breaks of 10 to 20 minutes; and now and then a phone
 * drops its registration for up to a minute and a half. Drawn per agent and per simulated day from
 * the seed alone, so a day looks the same whenever it is simulated (live or as the past).
 */
import { createRandom, deriveSeed } from './random.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type AbsenceReason = 'off-shift' | 'break' | 'phone-drop';

export interface Absence {
  readonly reason: AbsenceReason;
  /** Simulated epoch ms. */
  readonly from: number;
  readonly to: number;
}

/** A phone drops about twice a day. */
const DROPS_PER_DAY = 2;

/**
 * The absences of agent `index` (of `agents`) that begin on simulated UTC day `day` (days since the
 * epoch), in order. Off-duty windows start staggered over the day, so shift changes are spread out
 * rather than all at once; breaks fall in business hours, never inside the off-duty window.
 */
export const absencesOn = (seed: number, day: number, index: number, agents: number): Absence[] => {
  const random = createRandom(deriveSeed(seed, `presence:${day}:${index}`));
  const midnight = day * DAY;
  const offFrom = midnight + (((index / agents) * DAY + random.uniform(-30 * MINUTE, 30 * MINUTE)) % DAY + DAY) % DAY;
  const offShift: Absence = { reason: 'off-shift', from: Math.round(offFrom), to: Math.round(offFrom + random.uniform(2 * HOUR, 3 * HOUR)) };
  const absences: Absence[] = [offShift];
  for (let taken = 0; taken < 2; taken += 1) {
    const from = Math.round(midnight + random.uniform(8 * HOUR, 18 * HOUR));
    const to = Math.round(from + random.uniform(10 * MINUTE, 20 * MINUTE));
    if (to > offShift.from && from < offShift.to) continue;
    absences.push({ reason: 'break', from, to });
  }
  for (let at = midnight + random.exponential(DAY / DROPS_PER_DAY); at < midnight + DAY; at += random.exponential(DAY / DROPS_PER_DAY)) {
    const from = Math.round(at);
    absences.push({ reason: 'phone-drop', from, to: Math.round(from + random.uniform(20_000, 90_000)) });
  }
  return absences.sort((a, b) => a.from - b.from);
};

export const dayOf = (simTime: number): number => Math.floor(simTime / DAY);
export const DAY_MS = DAY;
