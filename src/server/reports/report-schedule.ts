/**
 * When a scheduled report is due and which period it covers, in the service's time zone. A daily
 * report sent on day D covers day D−1 (midnight to midnight); a weekly one sent in week W covers
 * the Monday-to-Sunday week before W. Only the latest due period is ever owed: a period missed
 * while the service was stopped is sent once at start, and one older than that is not sent.
 */
import { instantOfWallClock, wallClockAsUTC } from '../../contract/time-zone.js';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** "daily 07:00" or "weekly mon 07:00": when in the day (and the week) the report goes out. */
export interface ScheduleTime {
  every: 'daily' | 'weekly';
  /** 0 for Monday … 6 for Sunday; weekly only. */
  weekday?: number;
  hour: number;
  minute: number;
}

const SCHEDULE_TEXT = /^(daily|weekly (mon|tue|wed|thu|fri|sat|sun)) ([01][0-9]|2[0-3]):([0-5][0-9])$/;

export const SCHEDULE_RULE =
  'must be "daily HH:MM" or "weekly DAY HH:MM" (DAY one of mon, tue, wed, thu, fri, sat, sun; 24-hour time, e.g. "weekly mon 07:00")';

/** The schedule's text as a time, or undefined when it is not one. */
export const parseScheduleTime = (text: string): ScheduleTime | undefined => {
  const match = SCHEDULE_TEXT.exec(text);
  if (!match) return undefined;
  const [, every = '', day, hour = '', minute = ''] = match;
  return every === 'daily'
    ? { every: 'daily', hour: Number(hour), minute: Number(minute) }
    : { every: 'weekly', weekday: WEEKDAYS.indexOf(day as Weekday), hour: Number(hour), minute: Number(minute) };
};

/** One period a schedule reports on: [from, to) in epoch ms, its key in the sent-log, and when its report became due. */
export interface ReportPeriod {
  /** "2026-11-28" for a day, "2026-W48" for an ISO week. */
  key: string;
  from: number;
  to: number;
  dueAt: number;
}

const DAY_MS = 86_400_000;

/** A calendar date, as the UTC midnight of that date (calendar arithmetic only: no zone in it). */
type CalendarDate = number;

const calendarDateOf = (zone: string, at: number): CalendarDate => {
  const wall = wallClockAsUTC(zone, at);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
};

/** 0 for Monday … 6 for Sunday. */
const weekdayOf = (date: CalendarDate) => (new Date(date).getUTCDay() + 6) % 7;

const dateKey = (date: CalendarDate) => new Date(date).toISOString().slice(0, 10);

/** The ISO week of a Monday: "2026-W48" (its year is that of the week's Thursday). */
const isoWeekKey = (monday: CalendarDate) => {
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
};

const dueOn = (zone: string, time: ScheduleTime, date: CalendarDate) =>
  instantOfWallClock(zone, date + (time.hour * 60 + time.minute) * 60_000);

/** The period whose report went due on `sendDate`. */
const periodSentOn = (zone: string, time: ScheduleTime, sendDate: CalendarDate): ReportPeriod => {
  const dueAt = dueOn(zone, time, sendDate);
  if (time.every === 'daily') {
    const day = sendDate - DAY_MS;
    return { key: dateKey(day), from: instantOfWallClock(zone, day), to: instantOfWallClock(zone, sendDate), dueAt };
  }
  const monday = sendDate - weekdayOf(sendDate) * DAY_MS - 7 * DAY_MS;
  return { key: isoWeekKey(monday), from: instantOfWallClock(zone, monday), to: instantOfWallClock(zone, monday + 7 * DAY_MS), dueAt };
};

/** The latest period whose report is due at `now` (its due time has come): the one a schedule owes, if it was not sent. */
export const latestDuePeriod = (zone: string, time: ScheduleTime, now: number): ReportPeriod => {
  const today = calendarDateOf(zone, now);
  const step = time.every === 'daily' ? 1 : 7;
  const back = time.every === 'daily' ? 0 : (weekdayOf(today) - (time.weekday ?? 0) + 7) % 7;
  let sendDate = today - back * DAY_MS;
  if (dueOn(zone, time, sendDate) > now) sendDate -= step * DAY_MS;
  return periodSentOn(zone, time, sendDate);
};
