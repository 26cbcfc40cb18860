import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fifo } from './fifo.js';

describe('Fifo', () => {
  it('hands items back in the order they came, across compactions', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 5000 }), (pushes) => {
        const fifo = new Fifo<number>();
        const model: number[] = [];
        pushes.forEach((push, index) => {
          if (push) {
            fifo.push(index);
            model.push(index);
          } else {
            expect(fifo.shift()).toBe(model.shift());
          }
          expect(fifo.peek()).toBe(model[0]);
          expect(fifo.size).toBe(model.length);
        });
        expect([...fifo.values()]).toEqual(model);
      }),
      { numRuns: 30 },
    );
  });
});
