import { describe, expect, it } from 'vitest';
import { midnightIn } from '../../contract/time-zone.js';
import { intervalStarts } from './report-intervals.js';

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

describe('report intervals', () => {
  it('has 23 and 25 hours of intervals on the days Europe/Berlin changes its clocks', () => {
    const spring = { from: midnightIn('Europe/Berlin', '2026-03-29'), to: midnightIn('Europe/Berlin', '2026-03-30') };
    const autumn = { from: midnightIn('Europe/Berlin', '2026-10-25'), to: midnightIn('Europe/Berlin', '2026-10-26') };
    expect([iso(spring.from), iso(spring.to), iso(autumn.from), iso(autumn.to)]).toEqual([
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
      '2026-10-24T22:00:00.000Z',
      '2026-10-25T23:00:00.000Z',
    ]);
    for (const [minutes, perHour] of [[15, 4], [30, 2], [60, 1]] as const) {
      expect(intervalStarts('Europe/Berlin', spring.from, spring.to, minutes)).toHaveLength(23 * perHour);
      expect(intervalStarts('Europe/Berlin', autumn.from, autumn.to, minutes)).toHaveLength(25 * perHour);
    }
    // The hour from 02:00 to 03:00 repeats: both are intervals of their own.
    expect(intervalStarts('Europe/Berlin', autumn.from, autumn.to, 60).slice(2, 5).map(iso)).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T02:00:00.000Z',
    ]);
  });

  it('starts on the hour of a zone off UTC by half or three quarters of an hour, and cuts the first at fromDate', () => {
    const day = midnightIn('Asia/Kolkata', '2026-10-25');
    expect(iso(day)).toBe('2026-10-24T18:30:00.000Z');
    expect(intervalStarts('Asia/Kolkata', day, day + 24 * HOUR, 60).every((at) => iso(at).slice(13, 16) === ':30')).toBe(true);
    expect(intervalStarts('Asia/Kathmandu', Date.parse('2026-10-25T00:00:00Z'), Date.parse('2026-10-25T03:00:00Z'), 60).map(iso)).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:15:00.000Z',
      '2026-10-25T01:15:00.000Z',
      '2026-10-25T02:15:00.000Z',
    ]);
  });

  it('follows a clock change of half an hour (Lord Howe Island) by the wall clock', () => {
    // 2026-10-04 02:00 local (+10:30) becomes 02:30 (+11): 02:00 never shows, so the interval from 01:00 runs 90 minutes to 03:00.
    const day = midnightIn('Australia/Lord_Howe', '2026-10-04');
    const starts = intervalStarts('Australia/Lord_Howe', day, midnightIn('Australia/Lord_Howe', '2026-10-05'), 60);
    expect(starts.slice(0, 4).map(iso)).toEqual(['2026-10-03T13:30:00.000Z', '2026-10-03T14:30:00.000Z', '2026-10-03T16:00:00.000Z', '2026-10-03T17:00:00.000Z']);
    expect(starts).toHaveLength(23);
  });
});
