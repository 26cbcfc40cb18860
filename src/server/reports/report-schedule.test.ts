import { describe, expect, it } from 'vitest';
import { instantOfWallClock } from '../../contract/time-zone.js';
import { latestDuePeriod, parseScheduleTime, type ScheduleTime } from './report-schedule.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

const time = (text: string): ScheduleTime => {
  const parsed = parseScheduleTime(text);
  if (!parsed) throw new Error(`not a schedule: ${text}`);
  return parsed;
};

const due = (zone: string, text: string, now: string) => {
  const period = latestDuePeriod(zone, time(text), at(now));
  return { key: period.key, from: iso(period.from), to: iso(period.to), dueAt: iso(period.dueAt) };
};

describe('schedule text', () => {
  it('reads daily and weekly times, and refuses anything else', () => {
    expect(parseScheduleTime('daily 07:00')).toEqual({ every: 'daily', hour: 7, minute: 0 });
    expect(parseScheduleTime('weekly mon 07:30')).toEqual({ every: 'weekly', weekday: 0, hour: 7, minute: 30 });
    expect(parseScheduleTime('weekly sun 23:59')).toEqual({ every: 'weekly', weekday: 6, hour: 23, minute: 59 });
    for (const bad of [
      'daily 7:00',
      'daily 24:00',
      'daily 07:60',
      'weekly 07:00',
      'weekly monday 07:00',
      'hourly 07:00',
      'Daily 07:00',
      ' daily 07:00',
    ])
      expect(parseScheduleTime(bad)).toBeUndefined();
  });
});

describe('the period a daily schedule owes', () => {
  it('is yesterday once the time has come today, and the day before yesterday until then', () => {
    expect(due('Europe/Berlin', 'daily 07:00', '2026-11-28T06:00:00Z')).toEqual({
      key: '2026-11-27',
      from: '2026-11-26T23:00:00.000Z',
      to: '2026-11-27T23:00:00.000Z',
      dueAt: '2026-11-28T06:00:00.000Z',
    });
    expect(due('Europe/Berlin', 'daily 07:00', '2026-11-28T05:59:59Z').key).toBe('2026-11-26');
  });

  it('keeps 07:00 local across the spring-forward day, which it reports as 23 hours', () => {
    // Berlin skips 02:00-03:00 on 29 March 2026.
    expect(due('Europe/Berlin', 'daily 07:00', '2026-03-29T05:00:00Z')).toMatchObject({
      key: '2026-03-28',
      dueAt: '2026-03-29T05:00:00.000Z',
    });
    const next = due('Europe/Berlin', 'daily 07:00', '2026-03-30T05:00:00Z');
    expect(next).toMatchObject({ key: '2026-03-29', from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z' });
  });

  it('reports the fall-back day as 25 hours and sends at its first 02:30', () => {
    // Berlin repeats 02:00-03:00 on 25 October 2026.
    const period = due('Europe/Berlin', 'daily 02:30', '2026-10-25T03:00:00Z');
    expect(period).toMatchObject({ key: '2026-10-24', dueAt: '2026-10-25T00:30:00.000Z' });
    const day = latestDuePeriod('Europe/Berlin', time('daily 07:00'), at('2026-10-26T07:00:00Z'));
    expect(day.key).toBe('2026-10-25');
    expect(day.to - day.from).toBe(25 * 3_600_000);
  });

  it("still sends once when its time falls in the gap of a spring-forward day: at the gap's end", () => {
    expect(iso(instantOfWallClock('Europe/Berlin', Date.UTC(2026, 2, 29, 2, 30)))).toBe('2026-03-29T01:30:00.000Z');
    expect(due('Europe/Berlin', 'daily 02:30', '2026-03-29T01:29:00Z').key).toBe('2026-03-27');
    expect(due('Europe/Berlin', 'daily 02:30', '2026-03-29T01:30:00Z')).toMatchObject({
      key: '2026-03-28',
      dueAt: '2026-03-29T01:30:00.000Z',
    });
    expect(due('Europe/Berlin', 'daily 02:30', '2026-03-30T00:29:00Z').key).toBe('2026-03-28');
    expect(due('Europe/Berlin', 'daily 02:30', '2026-03-30T00:30:00Z').key).toBe('2026-03-29');
  });

  it('owes only the latest missed period after a stop of several days, and names the next due time', () => {
    expect(due('UTC', 'daily 07:00', '2026-11-28T12:00:00Z').key).toBe('2026-11-27');
    expect(due('America/New_York', 'daily 07:00', '2026-11-28T13:00:00Z')).toMatchObject({
      key: '2026-11-27',
      dueAt: '2026-11-28T12:00:00.000Z',
    });
  });
});

describe('the period a weekly schedule owes', () => {
  it('is the Monday-to-Sunday week before the week of its send day', () => {
    // 30 November 2026 is a Monday.
    expect(due('UTC', 'weekly mon 07:00', '2026-11-30T07:00:00Z')).toEqual({
      key: '2026-W48',
      from: '2026-11-23T00:00:00.000Z',
      to: '2026-11-30T00:00:00.000Z',
      dueAt: '2026-11-30T07:00:00.000Z',
    });
    expect(due('UTC', 'weekly mon 07:00', '2026-11-30T06:59:00Z').key).toBe('2026-W47');
    expect(due('UTC', 'weekly mon 07:00', '2026-12-06T23:00:00Z').key).toBe('2026-W48');
    expect(due('UTC', 'weekly wed 07:00', '2026-12-02T08:00:00Z')).toMatchObject({
      key: '2026-W48',
      dueAt: '2026-12-02T07:00:00.000Z',
    });
  });

  it('names ISO weeks across a new year, and spans a clock change in 167 hours', () => {
    // 4 January 2027 is a Monday; the week before is 2026's 53rd.
    expect(due('UTC', 'weekly mon 07:00', '2027-01-04T08:00:00Z').key).toBe('2026-W53');
    expect(due('UTC', 'weekly mon 07:00', '2026-01-05T08:00:00Z').key).toBe('2026-W01');
    const week = latestDuePeriod('Europe/Berlin', time('weekly mon 07:00'), at('2026-03-30T06:00:00Z'));
    expect(week.key).toBe('2026-W13');
    expect(week.to - week.from).toBe(167 * 3_600_000);
  });
});
