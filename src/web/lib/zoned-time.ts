/** Wall-clock times in an explicit time zone, for date-time inputs and calendar grouping. */

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
const partsFormatter = (zone: string) => {
  let found = partsFormatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    });
    partsFormatters.set(zone, found);
  }
  return found;
};

export const zonedParts = (ms: number, zone: string): ZonedParts => {
  const parts = Object.fromEntries(partsFormatter(zone).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(String(parts.weekday)),
  };
};

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-22T14:03", the value of an <input type="datetime-local"> showing `ms` in `zone`. */
export const toZonedInput = (ms: number, zone: string): string => {
  const p = zonedParts(ms, zone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
};

/** The instant a datetime-local value names in `zone`, or undefined when it is not one. */
export const fromZonedInput = (value: string, zone: string): number | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const asUTC = Date.UTC(year, month - 1, day, hour, minute);
  // Two passes find the offset in force at that wall time, also next to a DST change.
  let guess = asUTC;
  for (let pass = 0; pass < 2; pass += 1) {
    const p = zonedParts(guess, zone);
    guess = asUTC - (Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - guess);
  }
  return guess;
};

export const weekdayNames = WEEKDAYS;
