import { describe, expect, it } from 'vitest';
import { roundDown, tickLabel, tickStepMinutes, timeAxis, zonedTicks } from './time-ticks.js';
import { zonedParts } from './zoned-time.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string) => Date.parse(iso);
/** Ticks as the zone's wall clock reads them: "2026-11-22 14:00". */
const wall = (ticks: number[], zone: string) =>
  ticks.map((t) => {
    const p = zonedParts(t, zone);
    return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')} ${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
  });
const minuteOfDay = (t: number, zone: string) => {
  const p = zonedParts(t, zone);
  return p.hour * 60 + p.minute;
};

describe('tickStepMinutes', () => {
  it.each([
    [HOUR, 6, 10],
    [HOUR, 12, 5],
    [DAY, 8, 180],
    [DAY, 12, 120],
    [7 * DAY, 8, 1440],
    [7 * DAY, 4, 2880],
    [31 * DAY, 6, 10080],
  ])('over %d ms with room for %d ticks, steps %d minutes', (span, room, step) => {
    expect(tickStepMinutes(span, room)).toBe(step);
  });
});

describe('zonedTicks', () => {
  it('puts a 24 h window that ends at 23:59 on the round hours, not on 21:49 and 22:54', () => {
    const to = at('2026-11-22T23:59:00Z');
    const { ticks, stepMinutes } = timeAxis(to - DAY, to, 'UTC', 8);
    expect(stepMinutes).toBe(180);
    expect(wall(ticks, 'UTC')).toEqual([
      '2026-11-22 00:00',
      '2026-11-22 03:00',
      '2026-11-22 06:00',
      '2026-11-22 09:00',
      '2026-11-22 12:00',
      '2026-11-22 15:00',
      '2026-11-22 18:00',
      '2026-11-22 21:00',
    ]);
  });

  it('puts a 7 d window on the local midnights of the displayed zone', () => {
    const to = at('2026-11-23T02:15:00Z');
    const ticks = zonedTicks(to - 7 * DAY, to, 'America/New_York', 1440);
    expect(ticks).toHaveLength(7);
    for (const t of ticks) expect(minuteOfDay(t, 'America/New_York')).toBe(0);
    expect(tickLabel(ticks[0] as number, 'America/New_York', 1440)).toBe('Mon 16');
  });

  it('keeps hours round in zones half or three quarters of an hour off UTC', () => {
    const from = at('2026-11-22T10:07:00Z');
    expect(wall(zonedTicks(from, from + 3 * HOUR, 'Asia/Kolkata', 60), 'Asia/Kolkata')).toEqual([
      '2026-11-22 16:00',
      '2026-11-22 17:00',
      '2026-11-22 18:00',
    ]);
    expect(wall(zonedTicks(from, from + HOUR, 'Asia/Kathmandu', 10), 'Asia/Kathmandu').map((t) => t.slice(-2))).toEqual([
      '00',
      '10',
      '20',
      '30',
      '40',
      '50',
    ]);
  });

  it('ticks a 1 h window every ten minutes, on the clock of the zone', () => {
    const to = at('2026-11-22T14:37:20Z');
    const { ticks, stepMinutes } = timeAxis(to - HOUR, to, 'Europe/Paris', 6);
    expect(stepMinutes).toBe(10);
    expect(wall(ticks, 'Europe/Paris')).toEqual([
      '2026-11-22 14:40',
      '2026-11-22 14:50',
      '2026-11-22 15:00',
      '2026-11-22 15:10',
      '2026-11-22 15:20',
      '2026-11-22 15:30',
    ]);
  });

  it('stays on round local hours across the spring-forward change, skipping the hour that does not exist', () => {
    // Paris, 29 March 2026: 02:00 becomes 03:00.
    const ticks = zonedTicks(at('2026-03-28T23:00:00Z'), at('2026-03-29T03:00:00Z'), 'Europe/Paris', 60);
    expect(wall(ticks, 'Europe/Paris')).toEqual([
      '2026-03-29 00:00',
      '2026-03-29 01:00',
      '2026-03-29 03:00',
      '2026-03-29 04:00',
      '2026-03-29 05:00',
    ]);
  });

  it('stays on round local hours and midnights across the fall-back change', () => {
    // Paris, 25 October 2026: 03:00 becomes 02:00 again; that day has 25 hours.
    const from = at('2026-10-24T22:00:00Z');
    const sixHours = zonedTicks(from, from + 25 * HOUR, 'Europe/Paris', 360);
    expect(wall(sixHours, 'Europe/Paris')).toEqual([
      '2026-10-25 00:00',
      '2026-10-25 06:00',
      '2026-10-25 12:00',
      '2026-10-25 18:00',
      '2026-10-26 00:00',
    ]);
    const days = zonedTicks(at('2026-10-20T00:00:00Z'), at('2026-10-30T00:00:00Z'), 'Europe/Paris', 1440);
    for (const t of days) expect(minuteOfDay(t, 'Europe/Paris')).toBe(0);
    expect(days).toHaveLength(10);
  });

  it('starts weeks on Mondays', () => {
    const ticks = zonedTicks(at('2026-11-01T00:00:00Z'), at('2026-12-01T00:00:00Z'), 'Asia/Tokyo', 10080);
    expect(ticks.map((t) => zonedParts(t, 'Asia/Tokyo').weekday)).toEqual([0, 0, 0, 0, 0]);
    expect(tickLabel(ticks[0] as number, 'Asia/Tokyo', 10080)).toBe('2 Nov');
  });

  it('includes both ends when they are round, and gives nothing for an empty window', () => {
    expect(wall(zonedTicks(at('2026-11-22T10:00:00Z'), at('2026-11-22T12:00:00Z'), 'UTC', 60), 'UTC')).toEqual([
      '2026-11-22 10:00',
      '2026-11-22 11:00',
      '2026-11-22 12:00',
    ]);
    expect(zonedTicks(at('2026-11-22T10:01:00Z'), at('2026-11-22T10:59:00Z'), 'UTC', 60)).toEqual([]);
  });
});

describe('tickLabel', () => {
  it('gives the time within a day and the day at a local midnight', () => {
    expect(tickLabel(at('2026-11-22T15:00:00Z'), 'UTC', 180)).toBe('15:00');
    expect(tickLabel(at('2026-11-24T00:00:00Z'), 'UTC', 180)).toBe('Tue 24');
    expect(tickLabel(at('2026-11-23T18:30:00Z'), 'Asia/Kolkata', 60)).toBe('Tue 24');
  });
});

describe('roundDown', () => {
  it("finds the start of the hour on the zone's clock", () => {
    expect(roundDown(at('2026-11-22T14:37:00Z'), 'UTC', 60)).toBe(at('2026-11-22T14:00:00Z'));
    expect(roundDown(at('2026-11-22T14:37:00Z'), 'Asia/Kolkata', 60)).toBe(at('2026-11-22T14:30:00Z'));
    expect(roundDown(at('2026-11-22T14:30:00Z'), 'Asia/Kolkata', 60)).toBe(at('2026-11-22T14:30:00Z'));
  });
});
