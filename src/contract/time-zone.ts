/** Days in a time zone, alike for the service and the dashboard (a center's "today" starts at its midnight). */

const knownZones = new Set<string>();

/** Whether `zone` is an IANA time zone this runtime knows ("Europe/Berlin", "UTC"); a zone once known is not asked of Intl again. */
export const isTimeZone = (zone: string): boolean => {
  if (knownZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    knownZones.add(zone);
    return true;
  } catch {
    return false;
  }
};

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
/** The wall clock of `zone` at `at`, to the second, written as if it were a UTC instant (calendar arithmetic only). */
export const wallClockAsUTC = (zone: string, at: number): number => {
  let format = partsFormatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormatters.set(zone, format);
  }
  const parts = format.formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
};

/** How far `zone`'s wall clock is ahead of UTC at `at`, in ms (Europe/Berlin in summer: 7,200,000). */
export const utcOffsetIn = (zone: string, at: number): number => wallClockAsUTC(zone, at) - Math.floor(at / 1000) * 1000;

/** The last answer per zone, for the minute it was asked in: a midnight falls on a minute, so the answer holds for all of it. */
const lastMidnight = new Map<string, { minute: number; start: number }>();

/** Epoch ms of the last midnight in `zone` (the zone's offset is read twice, for days that change it). */
export const startOfDayIn = (zone: string, now: number): number => {
  const minute = Math.floor(now / 60_000);
  const known = lastMidnight.get(zone);
  if (known?.minute === minute) return known.start;
  const start = computeStartOfDay(zone, now);
  lastMidnight.set(zone, { minute, start });
  return start;
};

const computeStartOfDay = (zone: string, now: number): number => {
  const wall = wallClockAsUTC(zone, now);
  const midnightWall = wall - (((wall % 86_400_000) + 86_400_000) % 86_400_000);
  const offsetNow = wall - Math.floor(now / 1000) * 1000;
  const guess = midnightWall - offsetNow;
  const offsetAtGuess = wallClockAsUTC(zone, guess) - Math.floor(guess / 1000) * 1000;
  return midnightWall - offsetAtGuess;
};

const DAY_MS = 86_400_000;

/**
 * The instant a wall-clock time (given as if it were UTC) happens in `zone`. A time the clock
 * skips (02:30 on a spring-forward day) is taken as the same length of time after the last
 * instant before the gap, so it still happens once (at 03:30); a time that happens twice (when
 * the clock goes back) is its first.
 */
export const instantOfWallClock = (zone: string, wall: number): number => {
  const before = wall - utcOffsetIn(zone, wall - DAY_MS);
  const after = wall - utcOffsetIn(zone, wall + DAY_MS);
  const valid = [before, after].filter((at) => wallClockAsUTC(zone, at) === wall);
  return valid.length > 0 ? Math.min(...valid) : before;
};

/** A calendar date (2026-03-29) as the instant its day begins in `zone`. */
export const midnightIn = (zone: string, date: string): number => instantOfWallClock(zone, Date.parse(`${date}T00:00:00Z`));
