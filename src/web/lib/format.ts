/** Formatting of numbers, durations and times for display; one explicit time zone throughout. */

/** "+1 (555) 123-4567" for North American numbers, "+44 2079 460958" style grouping otherwise. */
export const formatPhoneNumber = (digits: string): string => {
  if (digits === '') return 'Withheld';
  if (digits.length === 11 && digits.startsWith('1'))
    return `+1 (${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7)}`;
  if (digits.length === 10) return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
  if (digits.length <= 6) return digits;
  const country = digits.length > 11 ? digits.slice(0, 2) : digits.slice(0, 1);
  const rest = digits.slice(country.length);
  return `+${country} ${rest.replace(/(\d{4})(?=\d)/g, '$1 ')}`;
};

/** "0:07", "4:05", "1:02:03": minutes and seconds, hours when needed. */
export const formatDuration = (ms: number): string => {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
};

/** "12 s", "3 min", "2 h": for ages such as "updated 2 s ago". */
export const formatAge = (ms: number): string => {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
};

export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

export const isValidTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (zone: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${zone}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat('en-GB', { timeZone: zone, ...options });
    formatters.set(key, found);
  }
  return found;
};

/** "14:03:27" in the given zone. */
export const formatClockTime = (iso: string | number, zone: string): string =>
  formatter(zone, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

/** "14:03" in the given zone. */
export const formatShortTime = (iso: string | number, zone: string): string =>
  formatter(zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

/** "22 Nov 14:03:27" in the given zone. */
export const formatDateTime = (iso: string | number, zone: string): string =>
  formatter(zone, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );

/** "CET", "GMT+1", "UTC": the zone's short name at that moment. */
export const timeZoneAbbreviation = (zone: string, at: number = Date.now()): string =>
  formatter(zone, { timeZoneName: 'short' })
    .formatToParts(new Date(at))
    .find((part) => part.type === 'timeZoneName')?.value ?? zone;
