import { describe, expect, it } from 'vitest';
import { figures } from '../../../test-support/service-levels.js';
import { combineFigures } from './combine-figures.js';

describe('the figures of several providers together', () => {
  it('adds the counts and recomputes the shares and the mean answer from them, weighting each by its calls', () => {
    const one = figures({ offered: 10, answered: 8, answeredWithin: 8, abandoned: 0, serviceLevel: 1, abandonRate: 0, averageAnswerSeconds: 5, longestAnswerSeconds: 12 });
    const two = figures({ offered: 10, answered: 2, answeredWithin: 0, abandoned: 6, serviceLevel: 0, abandonRate: 0.75, averageAnswerSeconds: 50, longestAnswerSeconds: 70 });
    expect(combineFigures([one, two])).toEqual({
      offered: 20,
      answered: 10,
      answeredWithin: 8,
      shortAbandoned: 0,
      abandoned: 6,
      waiting: 0,
      serviceLevel: 0.5,
      abandonRate: 0.375,
      averageAnswerSeconds: 14,
      longestAnswerSeconds: 70,
    });
    expect(combineFigures([figures()])).toMatchObject({ serviceLevel: null, abandonRate: null, averageAnswerSeconds: null, longestAnswerSeconds: null });
  });
});
