import { describe, expect, it } from 'vitest';
import type { ProviderCall } from '../phone-system.js';
import { CallCenter } from './call-center.js';
import { createDirectory } from './directory.js';

const HOUR = 3_600_000;
/** A Tuesday; the traffic curve reads UTC hours. */
const TUESDAY = Date.parse('2026-11-24T00:00:00Z');

/** Service level per hour of the day (answered within 20 s of the callers not giving up in under 5 s), as the journal counts it. */
const serviceLevelByHour = (calls: readonly ProviderCall[]) =>
  Array.from({ length: 24 }, (_, hour) => {
    const inbound = calls.filter((c) => !c.isOutbound && c.startedAt >= TUESDAY + hour * HOUR && c.startedAt < TUESDAY + (hour + 1) * HOUR);
    const answered = inbound.filter((c) => c.answeredAt !== undefined);
    const abandoned = inbound.filter((c) => c.answeredAt === undefined && (c.endedAt as number) - c.startedAt >= 5000).length;
    return answered.filter((c) => (c.answeredAt as number) - c.startedAt <= 20_000).length / (answered.length + abandoned);
  });

describe('the simulated call center over a weekday, at the demo’s size (24 agents, traffic 1)', () => {
  it('queues callers in the busy hours, where service level falls below 0.85, and answers at once at night (above 0.95)', () => {
    for (const seed of [1, 2, 3]) {
      const ended: ProviderCall[] = [];
      const center = new CallCenter(
        { seed, dialMode: 'two-step', traffic: 1, keepEndedMs: 120_000, callIDPrefix: 'sim', sipHost: 'pbx.test', onCallEnded: (call) => ended.push(call) },
        createDirectory({ seed, agents: 24, emailDomain: 'example.com' }),
        TUESDAY - HOUR,
      );
      center.advanceTo(TUESDAY + 25 * HOUR);
      const levels = serviceLevelByHour(ended);
      const night = [...levels.slice(0, 6), ...levels.slice(20)];
      expect(Math.min(...levels.slice(8, 17)), `seed ${seed}: ${levels.map((l) => l.toFixed(2)).join(' ')}`).toBeLessThan(0.85);
      expect(Math.min(...night), `seed ${seed}: ${levels.map((l) => l.toFixed(2)).join(' ')}`).toBeGreaterThan(0.95);
    }
  });
});
