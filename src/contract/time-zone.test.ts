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

  it('turns to the new day at midnight itself, asked every second around it (answers are kept per minute)', () => {
    for (const [zone, midnight] of [
      ['UTC', '2026-11-23T00:00:00.000Z'],
      ['Asia/Kathmandu', '2026-11-22T18:15:00.000Z'],
      ['Europe/Berlin', '2026-03-29T22:00:00.000Z'],
    ] as const) {
      const at = Date.parse(midnight);
      for (let t = at - 90_000; t < at + 90_000; t += 1000)
        expect(startOfDayIn(zone, t), `${zone} at ${new Date(t).toISOString()}`).toBe(t < at ? startOfDayIn(zone, at - 3_600_000) : at);
    }
  });
});

describe('isTimeZone', () => {
  it('knows IANA zones and refuses anything else', () => {
    expect(['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires'].map(isTimeZone)).toEqual([true, true, true]);
    expect(['Mars/Olympus', '', 'GMT+25'].map(isTimeZone)).toEqual([false, false, false]);
  });
});
