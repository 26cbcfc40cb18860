/**
 * The reports' range, interval and their URL parameters: a preset of whole days (today, yesterday,
 * the last 7 days, this month) or custom days, each day from midnight to midnight in the displayed
 * time zone; `?period=`, `fromDay=` and `toDay=` (both included), `interval=`.
 */
import { INTERVAL_MINUTES, MAX_REPORT_DAYS, type IntervalMinutes } from '../../../../contract/reports.js';
import { fromZonedInput, zonedParts } from '../../../lib/zoned-time.js';

export const PERIOD_PRESETS = [
  { id: 'today', label: 'Today' },
  { id: 'yesterday', label: 'Yesterday' },
  { id: '7d', label: 'Last 7 days' },
  { id: 'month', label: 'This month' },
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number]['id'];
export const DEFAULT_PERIOD: PeriodPreset = 'today';
export const DEFAULT_INTERVAL: IntervalMinutes = 30;

/** A calendar day, "2026-11-22". */
export type Day = string;

export type ReportPeriod = { kind: 'preset'; preset: PeriodPreset } | { kind: 'custom'; fromDay: Day; toDay: Day };

export interface ReportSettings {
  period: ReportPeriod;
  intervalMinutes: IntervalMinutes;
}

/** The instants a report asks for: [from, to). */
export interface ReportWindow {
  from: number;
  to: number;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day `ms` falls on in `zone`. */
export const dayOf = (ms: number, zone: string): Day => {
  const p = zonedParts(ms, zone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
};

/** The day `count` days after `day` (before, when negative), by the calendar. */
export const addDays = (day: Day, count: number): Day => {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + count)).toISOString().slice(0, 10);
};

/** Midnight at the start of `day` in `zone`, or undefined when `day` is not a day. */
export const midnightOf = (day: Day, zone: string): number | undefined =>
  DAY_PATTERN.test(day) && addDays(day, 0) === day ? fromZonedInput(`${day}T00:00`, zone) : undefined;

const daysBetween = (fromDay: Day, toDay: Day) => Math.round((Date.parse(toDay) - Date.parse(fromDay)) / 86_400_000) + 1;

/** Why custom days cannot be shown, or undefined when they can. */
export const customDaysProblem = (fromDay: Day, toDay: Day): string | undefined => {
  if (!DAY_PATTERN.test(fromDay) || !DAY_PATTERN.test(toDay)) return 'Enter both a first and a last day.';
  if (fromDay > toDay) return 'The first day must not be after the last.';
  if (daysBetween(fromDay, toDay) > MAX_REPORT_DAYS) return `A report spans at most ${MAX_REPORT_DAYS} days.`;
  return undefined;
};

const isPreset = (text: string | null): text is PeriodPreset => PERIOD_PRESETS.some((p) => p.id === text);
const isInterval = (value: number): value is IntervalMinutes => (INTERVAL_MINUTES as readonly number[]).includes(value);

/** What the address says; anything it does not say, or says wrongly, is the default. */
export const parseReportSettings = (params: URLSearchParams): ReportSettings => {
  const interval = Number(params.get('interval'));
  const intervalMinutes = isInterval(interval) ? interval : DEFAULT_INTERVAL;
  const period = params.get('period');
  const fromDay = params.get('fromDay') ?? '';
  const toDay = params.get('toDay') ?? '';
  if (
    period === 'custom' &&
    customDaysProblem(fromDay, toDay) === undefined &&
    midnightOf(fromDay, 'UTC') !== undefined &&
    midnightOf(toDay, 'UTC') !== undefined
  )
    return { period: { kind: 'custom', fromDay, toDay }, intervalMinutes };
  return { period: { kind: 'preset', preset: isPreset(period) ? period : DEFAULT_PERIOD }, intervalMinutes };
};

/** The parameters that say `settings`; the defaults are written too, so a shared address means the same later. */
export const reportParams = ({ period, intervalMinutes }: ReportSettings): Record<string, string> => ({
  period: period.kind === 'preset' ? period.preset : 'custom',
  ...(period.kind === 'custom' ? { fromDay: period.fromDay, toDay: period.toDay } : {}),
  interval: String(intervalMinutes),
});

/** The days a period covers at `now`, the last included. */
export const periodDays = (period: ReportPeriod, now: number, zone: string): { fromDay: Day; toDay: Day } => {
  if (period.kind === 'custom') return { fromDay: period.fromDay, toDay: period.toDay };
  const today = dayOf(now, zone);
  switch (period.preset) {
    case 'today':
      return { fromDay: today, toDay: today };
    case 'yesterday':
      return { fromDay: addDays(today, -1), toDay: addDays(today, -1) };
    case '7d':
      return { fromDay: addDays(today, -7), toDay: addDays(today, -1) };
    case 'month':
      return { fromDay: `${today.slice(0, 8)}01`, toDay: today };
  }
};

/**
 * The instants a period covers at `now`: from its first midnight to the midnight after its last
 * day, or to the current minute when that is sooner (a report of today ends now; one query serves
 * a whole minute).
 */
export const periodWindow = (period: ReportPeriod, now: number, zone: string): ReportWindow => {
  const { fromDay, toDay } = periodDays(period, now, zone);
  const from = midnightOf(fromDay, zone) ?? now;
  const end = midnightOf(addDays(toDay, 1), zone) ?? now;
  const minute = Math.floor(now / 60_000) * 60_000;
  return { from, to: Math.max(from + 60_000, Math.min(end, minute)) };
};
