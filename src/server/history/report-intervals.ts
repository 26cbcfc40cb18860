/**
 * Where a report's intervals begin: on the hour in the service's time zone and every
 * intervalMinutes after, by the wall clock, so a day that puts the clocks forward has 23 hours of
 * intervals and one that puts them back 25.
 */
import { utcOffsetIn } from '../../contract/time-zone.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Every zone's offset today is a whole number of quarter hours, so a wall-clock boundary falls on this grid of UTC. */
const GRID_MS = 15 * MINUTE_MS;

/** The zone's offset at each grid point of [from, to): read twice a day, and at each point only on a day whose offset changes. */
const offsetsOnGrid = (zone: string, first: number, to: number): ((at: number) => number) => {
  const byDay = new Map<number, number | undefined>();
  return (at) => {
    const day = Math.floor((at - first) / DAY_MS);
    if (!byDay.has(day)) {
      const start = utcOffsetIn(zone, first + day * DAY_MS);
      const end = utcOffsetIn(zone, Math.min(first + (day + 1) * DAY_MS, to + DAY_MS));
      byDay.set(day, start === end ? start : undefined);
    }
    return byDay.get(day) ?? utcOffsetIn(zone, at);
  };
};

/**
 * The starts of the intervals of [from, to), ascending: `from` itself, then every instant after it
 * and before `to` at which the wall clock in `zone` shows a whole multiple of `minutes` past midnight.
 */
export const intervalStarts = (zone: string, from: number, to: number, minutes: number): number[] => {
  const starts = [from];
  const first = Math.floor(from / GRID_MS) * GRID_MS + GRID_MS;
  const offsetAt = offsetsOnGrid(zone, first, to);
  const step = minutes * MINUTE_MS;
  for (let at = first; at < to; at += GRID_MS) {
    const wall = at + offsetAt(at);
    if (((wall % step) + step) % step === 0) starts.push(at);
  }
  return starts;
};
