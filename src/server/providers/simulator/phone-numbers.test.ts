import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { internationalNumber, northAmericanNumber, outsideNumber } from './phone-numbers.js';
import { createRandom } from './random.js';

describe('phone numbers', () => {
  it('draws valid North American numbers: 1, NXX area, NXX exchange (no N11, no 555), four digits', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const number = northAmericanNumber(createRandom(seed));
        expect(number).toMatch(/^1[2-9][0-9]{2}[2-9][0-9]{6}$/);
        const exchange = number.slice(4, 7);
        expect(exchange.endsWith('11') || exchange === '555').toBe(false);
      }),
    );
  });

  it('draws international numbers from the UK, Germany, France and a few more', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        expect(internationalNumber(createRandom(seed))).toMatch(/^(44|49|33|52|61)[0-9]{9,11}$/);
      }),
    );
  });

  it('mostly draws North American numbers for outside parties', () => {
    const random = createRandom(9);
    const numbers = Array.from({ length: 2000 }, () => outsideNumber(random));
    const abroad = numbers.filter((number) => !number.startsWith('1')).length;
    expect(abroad).toBeGreaterThan(100);
    expect(abroad).toBeLessThan(320);
  });
});
