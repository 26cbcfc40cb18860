import { describe, expect, it } from 'vitest';
import { absencesOn } from './presence.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const day = Math.floor(Date.parse('2026-11-24T00:00:00Z') / DAY);

describe('when the simulated agents are away', () => {
  it('is the same for the same seed, day and agent, and differs from day to day', () => {
    expect(absencesOn(7, day, 3, 24)).toEqual(absencesOn(7, day, 3, 24));
    expect(absencesOn(7, day + 1, 3, 24)).not.toEqual(absencesOn(7, day, 3, 24));
  });

  it('takes each agent off duty for 2 to 3 hours a day, the shifts staggered over the whole day', () => {
    const offShifts = Array.from({ length: 24 }, (_, index) => absencesOn(1, day, index, 24).filter((a) => a.reason === 'off-shift'));
    for (const [shift] of offShifts) {
      expect(shift).toBeDefined();
      expect((shift?.to ?? 0) - (shift?.from ?? 0)).toBeGreaterThanOrEqual(2 * HOUR);
      expect((shift?.to ?? 0) - (shift?.from ?? 0)).toBeLessThanOrEqual(3 * HOUR);
    }
    // Agent i's shift ends near hour i: never all at once.
    const hours = offShifts.map(([shift]) => Math.floor(((shift?.from ?? 0) - day * DAY) / HOUR));
    expect(new Set(hours).size).toBeGreaterThanOrEqual(16);
  });

  it('puts two short breaks in business hours, never inside the off-duty window, and drops a phone for under 90 s now and then', () => {
    let drops = 0;
    for (let index = 0; index < 200; index += 1) {
      const absences = absencesOn(2, day, index, 200);
      const [offShift] = absences.filter((a) => a.reason === 'off-shift');
      for (const absence of absences.filter((a) => a.reason === 'break')) {
        expect(absence.from).toBeGreaterThanOrEqual(day * DAY + 8 * HOUR);
        expect(absence.from).toBeLessThanOrEqual(day * DAY + 18 * HOUR);
        expect(absence.to - absence.from).toBeGreaterThanOrEqual(10 * MINUTE);
        expect(absence.to - absence.from).toBeLessThanOrEqual(20 * MINUTE);
        expect(absence.to <= (offShift?.from ?? 0) || absence.from >= (offShift?.to ?? 0)).toBe(true);
      }
      for (const drop of absences.filter((a) => a.reason === 'phone-drop')) {
        drops += 1;
        expect(drop.to - drop.from).toBeGreaterThanOrEqual(20_000);
        expect(drop.to - drop.from).toBeLessThanOrEqual(90_000);
      }
    }
    // About two a day per phone.
    expect(drops / 200).toBeGreaterThan(1.5);
    expect(drops / 200).toBeLessThan(2.5);
  });
});
