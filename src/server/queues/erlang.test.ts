import { describe, expect, it } from 'vitest';
import { agentsFor, erlangB, erlangC, predictedServiceLevel } from './erlang.js';

describe('Erlang C staffing', () => {
  it('meets the published test vector: 200 calls an hour of 180 s, 80 % in 20 s', () => {
    const a = (200 / 3600) * 180;
    expect(a).toBeCloseTo(10, 12);
    expect(predictedServiceLevel(13, a, 20, 180)).toBeCloseTo(0.796, 3);
    expect(agentsFor({ offeredPerHour: 200, averageHandleSeconds: 180, answerWithinSeconds: 20, serviceLevelTarget: 0.8 })).toEqual({
      agents: 14,
      serviceLevel: 0.888,
    });
    expect(agentsFor({ offeredPerHour: 200, averageHandleSeconds: 180, answerWithinSeconds: 20, serviceLevelTarget: 0.9 })).toEqual({
      agents: 15,
      serviceLevel: 0.941,
    });
  });

  it('agrees with the factorial form where that form is exact', () => {
    const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
    const byFactorials = (n: number, a: number) => {
      let sum = 0;
      for (let k = 0; k < n; k += 1) sum += a ** k / factorial(k);
      const top = (a ** n / factorial(n)) * (n / (n - a));
      return top / (sum + top);
    };
    for (const [n, a] of [[3, 2], [12, 10], [20, 17.5], [5, 0.5]] as const) expect(erlangC(n, a)).toBeCloseTo(byFactorials(n, a), 12);
    expect(erlangB(0, 4)).toBe(1);
  });

  it('stays finite at a large center, where factorials overflow', () => {
    const result = agentsFor({ offeredPerHour: 40_000, averageHandleSeconds: 240, answerWithinSeconds: 20, serviceLevelTarget: 0.8 });
    expect(result.agents).toBeGreaterThan(2667);
    expect(result.agents).toBeLessThan(2750);
    expect(result.serviceLevel).toBeGreaterThanOrEqual(0.8);
  });

  it('needs no agent when no call is offered, and always more agents than erlangs', () => {
    expect(agentsFor({ offeredPerHour: 0, averageHandleSeconds: 180, answerWithinSeconds: 20, serviceLevelTarget: 0.8 })).toEqual({ agents: 0, serviceLevel: null });
    const tiny = agentsFor({ offeredPerHour: 2, averageHandleSeconds: 60, answerWithinSeconds: 600, serviceLevelTarget: 0.01 });
    expect(tiny.agents).toBe(1);
  });
});
