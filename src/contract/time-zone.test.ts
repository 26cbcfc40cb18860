import { describe, expect, it } from 'vitest';
import { isTimeZone, startOfDayIn } from './time-zone.js';

describe('startOfDayIn', () => {
  it.each([
    ['UTC', '2026-11-22T14:30:00.000Z', '2026-11-22T00:00:00.000Z'],
    ['Europe/Berlin', '2026-11-22T23:30:00.000Z', '2026-11-22T23:00:00.000Z'],
    ['America/New_York', '2026-11-22T03:00:00.000Z', '2026-11-21T05:00:00.000Z'],
    // Clocks went forward at 02:00 that morning: midnight was still winter time.
    ['Europe/Berlin', '2026-03-29T12:00:00.000Z', '2026-03-28T23:00:00.000Z'],
    ['America/New_York', '2026-11-01T12:00:00.000Z', '2026-11-01T04:00:00.000Z'],
  ])('in %s at %s is %s', (zone, now, midnight) => {
    expect(new Date(startOfDayIn(zone, Date.parse(now))).toISOString()).toBe(midnight);
  });
});

describe('isTimeZone', () => {
  it('knows IANA zones and refuses anything else', () => {
    expect(['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires'].map(isTimeZone)).toEqual([true, true, true]);
    expect(['Mars/Olympus', '', 'GMT+25'].map(isTimeZone)).toEqual([false, false, false]);
  });
});
