import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkedSet } from './linked-set.js';

describe('LinkedSet', () => {
  it('behaves like an insertion-ordered set', () => {
    const operation = fc.record({ add: fc.boolean(), value: fc.integer({ min: 0, max: 9 }) });
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 100 }), (operations) => {
        const set = new LinkedSet<number>();
        const model: number[] = [];
        for (const { add, value } of operations) {
          if (add) {
            set.add(value);
            if (!model.includes(value)) model.push(value);
          } else {
            set.delete(value);
            if (model.includes(value)) model.splice(model.indexOf(value), 1);
          }
          expect(set.first()).toBe(model[0]);
          expect(set.size).toBe(model.length);
          expect(set.has(value)).toBe(model.includes(value));
        }
      }),
    );
  });
});
