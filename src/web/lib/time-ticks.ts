/**
 * Time-axis ticks on round wall-clock times of the displayed zone: whole hours, local midnights,
 * Mondays; evenly spaced on the clock, also in zones half or three quarters of an hour off UTC
 * and across daylight-saving changes.
 */
import { formatShortTime } from './format.js';
import { weekdayNames, zonedParts } from './zoned-time.js';

const MINUTE = 60_000;
const DAY_MINUTES = 1440;
const WEEK_MINUTES = 7 * DAY_MINUTES;

/** The steps an axis may use, in wall-clock minutes: each divides the next larger unit evenly. */
export const TICK_STEPS_MINUTES = [
  1,
  2,
  5,
  10,
  15,
  30,
  60,
  120,
  180,
  360,
  720,
  DAY_MINUTES,
  2 * DAY_MINUTES,
  WEEK_MINUTES,
] as const;

/** The smallest step that puts at most `maxTicks` ticks on the span (at least one step is always possible). */
export const tickStepMinutes = (spanMs: number, maxTicks: number): number => {
  const budget = Math.max(1, Math.floor(maxTicks));
  return TICK_STEPS_MINUTES.find((step) => spanMs / (step * MINUTE) <= budget) ?? WEEK_MINUTES;
};

/** The zone's wall clock as a count of milliseconds, as if it were UTC: local midnights are whole days of it. */
const wallClock = (at: number, zone: string): number => {
  const p = zonedParts(at, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) + (at % MINUTE);
};

/**
 * The instant a wall-clock time names, or undefined when the clock skips it (a spring-forward
 * gap). Two passes find the offset in force, as next to a DST change the first guess is an hour off.
 */
const instantOf = (wall: number, zone: string): number | undefined => {
  let guess = wall;
  for (let pass = 0; pass < 2; pass += 1) guess = wall - (wallClock(guess, zone) - guess);
  return wallClock(guess, zone) === wall ? guess : undefined;
};

/** Weeks start on Monday; 1970-01-01, day 0 of the wall clock, was a Thursday. */
const MONDAY_SHIFT_MINUTES = 3 * DAY_MINUTES;

/** The first wall-clock time at or after `wall` that is a multiple of the step (Mondays for weeks). */
const firstRound = (wall: number, stepMinutes: number): number => {
  const step = stepMinutes * MINUTE;
  const shift = stepMinutes === WEEK_MINUTES ? MONDAY_SHIFT_MINUTES * MINUTE : 0;
  return Math.ceil((wall + shift) / step) * step - shift;
};

/** A generous bound: no axis needs more, and a mistaken step cannot spin through a year of minutes. */
const MAX_STEPS = 1000;

/** Every round time of the step from `from` to `to` (inclusive), in `zone`, as instants. */
export const zonedTicks = (from: number, to: number, zone: string, stepMinutes: number): number[] => {
  const ticks: number[] = [];
  const step = stepMinutes * MINUTE;
  let wall = firstRound(wallClock(from, zone), stepMinutes);
  for (let count = 0; count < MAX_STEPS; count += 1, wall += step) {
    const at = instantOf(wall, zone);
    if (at === undefined) continue;
    if (at > to) break;
    if (at >= from && at > (ticks[ticks.length - 1] ?? -Infinity)) ticks.push(at);
  }
  return ticks;
};

/** The latest round time of the step at or before `at` ("14:00" for 14:37 with an hourly step). */
export const roundDown = (at: number, zone: string, stepMinutes: number): number =>
  zonedTicks(at - stepMinutes * MINUTE, at, zone, stepMinutes).at(-1) ?? at;

/** At most `maxTicks` round ticks over the window, and the step chosen (for their labels). */
export const timeAxis = (from: number, to: number, zone: string, maxTicks: number): { ticks: number[]; stepMinutes: number } => {
  const stepMinutes = tickStepMinutes(to - from, maxTicks);
  return { ticks: zonedTicks(from, to, zone, stepMinutes), stepMinutes };
};

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A tick's label: "14:00" within a day; at a local midnight the day instead ("Tue 24"), so the
 * axis says where a day begins; "24 Nov" once ticks are a week apart.
 */
export const tickLabel = (at: number, zone: string, stepMinutes: number): string => {
  const p = zonedParts(at, zone);
  if (stepMinutes >= WEEK_MINUTES) return `${p.day} ${monthNames[p.month - 1]}`;
  if (stepMinutes >= DAY_MINUTES || (p.hour === 0 && p.minute === 0)) return `${weekdayNames[p.weekday]} ${p.day}`;
  return formatShortTime(at, zone);
};
