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

describe('the simulated agents over a weekday', () => {
  it('log off for their shift and breaks and come back, never in the middle of a call; the first agent and those on leave keep their state', () => {
    const directory = createDirectory({ seed: 4, agents: 24, emailDomain: 'example.com' });
    const onLeave = directory.subscribers.filter((s) => !s.registered).map((s) => s.providerSubscriberID);
    const center = new CallCenter(
      { seed: 4, dialMode: 'two-step', traffic: 1, keepEndedMs: 0, callIDPrefix: 'sim', sipHost: 'pbx.test' },
      directory,
      TUESDAY - HOUR,
    );
    const wentOff = new Set<string>();
    const cameBack = new Set<string>();
    let previous = new Map(center.subscribers().map((s) => [s.providerSubscriberID, s.registered]));
    for (let minute = 0; minute < 24 * 60; minute += 1) {
      center.advanceTo(TUESDAY + minute * 60_000);
      const subscribers = center.subscribers();
      const unregistered = new Set(subscribers.filter((s) => !s.registered).map((s) => s.providerSubscriberID));
      for (const call of center.listCalls((t) => t)) {
        if (call.endedAt === undefined && call.subscriberID !== undefined) expect(unregistered.has(call.subscriberID), `${call.subscriberID} on ${call.callID}`).toBe(false);
      }
      for (const s of subscribers) {
        const was = previous.get(s.providerSubscriberID);
        if (was && !s.registered) wentOff.add(s.providerSubscriberID);
        if (was === false && s.registered) cameBack.add(s.providerSubscriberID);
      }
      previous = new Map(subscribers.map((s) => [s.providerSubscriberID, s.registered]));
      // Never more than a third of the floor away at once.
      expect(unregistered.size).toBeLessThanOrEqual(8);
    }
    const working = directory.subscribers.filter((s, index) => index > 0 && s.registered && s.active).map((s) => s.providerSubscriberID);
    expect(working.every((id) => wentOff.has(id) && cameBack.has(id))).toBe(true);
    expect(wentOff.has('agt-0001')).toBe(false);
    expect(onLeave.length).toBeGreaterThanOrEqual(1);
    for (const id of onLeave) expect(cameBack.has(id)).toBe(false);
  });
});

