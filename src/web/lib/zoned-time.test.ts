import { describe, expect, it } from 'vitest';
import { fromZonedInput, toZonedInput, zonedParts } from './zoned-time.js';

describe('zoned time', () => {
  it('reads and writes datetime-local values in the given zone, across a DST change', () => {
    const summer = Date.parse('2026-07-01T12:30:00Z');
    expect(toZonedInput(summer, 'Europe/Paris')).toBe('2026-07-01T14:30');
    expect(fromZonedInput('2026-07-01T14:30', 'Europe/Paris')).toBe(summer);
    expect(fromZonedInput('2026-11-22T09:00', 'Europe/Paris')).toBe(Date.parse('2026-11-22T08:00:00Z'));
    expect(fromZonedInput('2026-11-22T09:00', 'Asia/Kolkata')).toBe(Date.parse('2026-11-22T03:30:00Z'));
    expect(fromZonedInput('tomorrow', 'UTC')).toBeUndefined();
  });

  it('gives the weekday Monday first, in the zone', () => {
    // Sunday 23:30 UTC is already Monday in Tokyo.
    expect(zonedParts(Date.parse('2026-11-22T23:30:00Z'), 'UTC')).toMatchObject({ weekday: 6, hour: 23 });
    expect(zonedParts(Date.parse('2026-11-22T23:30:00Z'), 'Asia/Tokyo')).toMatchObject({ weekday: 0, hour: 8 });
  });
});
