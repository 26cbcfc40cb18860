/** Realistic call lists of a chosen size for benchmarks, taken from the simulator at a busy hour. */
import { ManualClock } from '../../src/server/clock.js';
import type { PhoneSystem, ProviderCall } from '../../src/server/providers/phone-system.js';
import { createPhoneSystemSimulator } from '../../src/server/providers/simulator/phone-system-simulator.js';

/** A weekday at 10:00 UTC, when the simulator's daily curve peaks. */
const BUSY_HOUR = Date.parse('2026-11-24T10:00:00.000Z');

/** `count` live calls, as a large simulated call center has them at its busiest; times moved to `now`. */
export const benchCalls = async (count: number, now = Date.now()): Promise<ProviderCall[]> => {
  const agents = Math.ceil(count * 1.25);
  const simulator = createPhoneSystemSimulator({ clock: new ManualClock(BUSY_HOUR), seed: 7, name: 'bench', agents, traffic: 1.8 });
  const calls = (await simulator.listCalls(AbortSignal.timeout(60_000))).filter((call) => call.endedAt === undefined);
  if (calls.length < count) throw new Error(`the simulator held ${calls.length} live calls, fewer than the ${count} asked for`);
  const shift = now - BUSY_HOUR;
  return calls.slice(0, count).map((call) => ({
    ...call,
    startedAt: call.startedAt + shift,
    ...(call.answeredAt !== undefined ? { answeredAt: call.answeredAt + shift } : {}),
  }));
};

/** The same calls on every poll: what a quiet provider looks like (all polls after the first are 304s). */
export const staticPhoneSystem = (calls: ProviderCall[]): PhoneSystem => ({
  listCalls: async () => calls,
  placeCall: async () => undefined,
  listSubscribers: async () => [],
  close: async () => undefined,
});

/**
 * A provider whose list changes on every poll like a busy call center's: `churn` of the calls
 * end and as many new ones start ringing, and ringing calls get answered.
 */
export const churningPhoneSystem = (initial: ProviderCall[], churn = 0.05): PhoneSystem => {
  let calls = initial;
  let serial = 0;
  return {
    listCalls: async () => {
      const now = Date.now();
      const replace = Math.max(1, Math.round(calls.length * churn));
      const kept = calls.slice(replace).map((call) =>
        call.answeredAt === undefined && now - call.startedAt > 8_000 ? { ...call, answeredAt: now } : call,
      );
      const fresh = calls.slice(0, replace).map((call) => ({
        ...call,
        callID: `bench-${(serial += 1)}`,
        providerCallID: `bench-${serial}@pbx.bench`,
        startedAt: now,
        answeredAt: undefined,
      }));
      calls = [...kept, ...fresh];
      return calls;
    },
    placeCall: async () => undefined,
    listSubscribers: async () => [],
    close: async () => undefined,
  };
};
