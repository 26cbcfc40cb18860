/** Formatting of numbers, durations and times for display; one explicit time zone throughout. */
import { phoneRules } from './phone-rules-loader.js';
import { defaultPhoneCountry, type CountryCode } from './phone-country.js';

/** Up to this many digits a number is an extension or a short code, dialed as written. */
const SHORT_NUMBER_DIGITS = 6;
/** E.164's longest number. */
const LONGEST_NUMBER_DIGITS = 15;

const isPhoneNumberDigits = (digits: string): boolean =>
  /^\d+$/.test(digits) && digits.length > SHORT_NUMBER_DIGITS && digits.length <= LONGEST_NUMBER_DIGITS;

const formatted = new Map<string, string>();
/** Numbers come back poll after poll: each is formatted once, and the memo forgets everything past this size. */
const MEMO_LIMIT = 20_000;

/**
 * A remote number as people write it. `digits` is what the API carries (digits only, empty when
 * withheld); a number that carries its country code is shown with it ("+44 20 7946 0958"), one
 * without is read as a number of `country` and shown as that country writes it ("020 7946 0958").
 * Extensions, short codes and anything that is no phone number are shown as given, and so is
 * every number until the phone rules have loaded (just after the first data).
 */
export const formatPhoneNumber = (digits: string, country: CountryCode = defaultPhoneCountry()): string => {
  if (digits === '') return 'Withheld';
  const rules = phoneRules();
  if (!rules || !isPhoneNumberDigits(digits)) return digits;
  const key = `${country}:${digits}`;
  let text = formatted.get(key);
  if (text === undefined) {
    text = rules.writePhoneNumber(digits, country);
    if (formatted.size >= MEMO_LIMIT) formatted.clear();
    formatted.set(key, text);
  }
  return text;
};

/**
 * The national way of writing a number given with its country code ("020 7946 0958" for
 * 442079460958), so that a search typed as a local caller would write it still finds it.
 */
export const nationalPhoneNumber = (digits: string, country: CountryCode = defaultPhoneCountry()): string | undefined => {
  const rules = phoneRules();
  return rules && isPhoneNumberDigits(digits) ? rules.writeNationalNumber(digits, country) : undefined;
};

/** "0:07", "4:05", "1:02:03": minutes and seconds, hours when needed. */
export const formatDuration = (ms: number): string => {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
};

/** "73.7 %" for a share of 0.737; "—" where there is none. */
export const formatShare = (share: number | null): string => (share === null ? '—' : `${Math.round(share * 1000) / 10} %`);

/** A duration given in seconds as `formatDuration` writes it; "—" where there is none. */
export const formatSeconds = (value: number | null): string => (value === null ? '—' : formatDuration(value * 1000));

/** "12 s", "3 min", "2 h": for ages such as "updated 2 s ago". */
export const formatAge = (ms: number): string => {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
};

/** Asking Intl builds a formatter: every view renders many times a second, so the answer is kept for a minute (a laptop that travels still follows). */
const ZONE_KEPT_MS = 60_000;
let browserZone: { zone: string; at: number } | undefined;

export const browserTimeZone = (): string => {
  const now = Date.now();
  if (!browserZone || now - browserZone.at > ZONE_KEPT_MS || now < browserZone.at)
    browserZone = { zone: Intl.DateTimeFormat().resolvedOptions().timeZone, at: now };
  return browserZone.zone;
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

/** "Europe/Paris (CET)", or the zone once when its short name is its name ("UTC"). */
export const timeZoneLabel = (zone: string, at: number = Date.now()): string => {
  const abbreviation = timeZoneAbbreviation(zone, at);
  return abbreviation === zone ? zone : `${zone} (${abbreviation})`;
};
