/** Realistic call lists of a chosen size for benchmarks, taken from the simulator at a busy hour. */
import { ManualClock } from '../../src/server/clock.js';
import type { PhoneSystem, ProviderCall } from '../../src/server/providers/phone-system.js';
import { createPhoneSystemSimulator } from '../../src/server/providers/simulator/phone-system-simulator.js';
import { createRandom } from '../../src/server/providers/simulator/random.js';

/** A weekday at 10:00 UTC, when the simulator's daily curve peaks. */
const BUSY_HOUR = Date.parse('2026-11-24T10:00:00.000Z');

/** `count` live calls, as a large simulated call center has them at its busiest; times moved to `now`. */
export const benchCalls = async (count: number, now = Date.now()): Promise<ProviderCall[]> => {
  const agents = Math.ceil(count * 1.25);
  const simulator = createPhoneSystemSimulator({
    clock: new ManualClock(BUSY_HOUR),
    seed: 7,
    name: 'bench',
    agents,
    traffic: 1.8,
  });
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

/** How a busy center's list moves, one change at a time, in this order: a new call rings, the oldest ringing one is answered, a talking one ends. */
const CHANGE_CYCLE = ['ring', 'answer', 'end'] as const;
type Change = (typeof CHANGE_CYCLE)[number];

/**
 * A provider whose calls change all the time like a busy call center's, at a fixed rate: every
 * `stepMs`, `ratePerSecond` of the list's size per second is spread over the step, a third each
 * new calls ringing, calls answered and calls ended (gone from the list at once, as a dialog that
 * ended leaves Kamailio's), so the count of live calls stays where it started. A call that ends
 * is drawn at random, so changes land anywhere in the table. Like the simulator, it tells the
 * service of each step (`watchChanges`); a poller sees the sum of the steps since its last poll.
 */
export const changingPhoneSystem = (initial: ProviderCall[], ratePerSecond: number, stepMs = 100): PhoneSystem => {
  const random = createRandom(11);
  const calls = new Map(initial.map((call) => [call.callID, call]));
  /** Call IDs in no order, for drawing one at random and removing it in O(1). */
  const ids = initial.map((call) => call.callID);
  const ringing = initial.filter((call) => call.answeredAt === undefined).map((call) => call.callID);
  const perStep = (initial.length * ratePerSecond * stepMs) / 1000;
  let owed = 0;
  let cycle = 0;
  let serial = 0;

  const ring = (now: number) => {
    const template = initial[serial % initial.length] as ProviderCall;
    serial += 1;
    const call = {
      ...template,
      callID: `bench-${serial}`,
      providerCallID: `bench-${serial}@pbx.bench`,
      startedAt: now,
      answeredAt: undefined,
    };
    calls.set(call.callID, call);
    ids.push(call.callID);
    ringing.push(call.callID);
  };
  const answer = (now: number) => {
    const callID = ringing.shift();
    const call = callID === undefined ? undefined : calls.get(callID);
    if (call) calls.set(call.callID, { ...call, answeredAt: now });
  };
  const end = () => {
    // Talking calls outnumber ringing ones by far: a few draws find one.
    for (let draw = 0; draw < 20; draw += 1) {
      const index = Math.floor(random.next() * ids.length);
      const callID = ids[index] as string;
      if (calls.get(callID)?.answeredAt === undefined) continue;
      ids[index] = ids[ids.length - 1] as string;
      ids.pop();
      calls.delete(callID);
      return;
    }
  };
  const apply: Record<Change, (now: number) => void> = { ring, answer, end };

  const watchers = new Set<() => void>();
  const step = () => {
    const now = Date.now();
    owed += perStep;
    for (; owed >= 1; owed -= 1) {
      apply[CHANGE_CYCLE[cycle % CHANGE_CYCLE.length] as Change](now);
      cycle += 1;
    }
    for (const onChange of watchers) onChange();
  };
  const timer = setInterval(step, stepMs);
  timer.unref();

  return {
    listCalls: async () => [...calls.values()],
    placeCall: async () => undefined,
    listSubscribers: async () => [],
    watchChanges: (onChange) => {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
    close: async () => clearInterval(timer),
  };
};

/**
 * A floor of `agents` agents, `ratePerSecond` of whom change state each second (spread over steps
 * of `stepMs`): an available agent's phone rings, a ringing one answers, one on a call hangs up,
 * and now and then a phone drops off or registers again. Calls are pushed at once (`watchChanges`),
 * registrations read as the service lists subscribers; the board follows both.
 */
export const floorPhoneSystem = (agents: number, ratePerSecond: number, stepMs = 100): PhoneSystem => {
  const random = createRandom(13);
  const subscribers = Array.from({ length: agents }, (_, i) => ({
    providerSubscriberID: `agt-${String(i + 1).padStart(4, '0')}`,
    firstName: `Agent`,
    lastName: `${i + 1}`,
    email: `agent${i + 1}@bench.example`,
    extension: String(1000 + i),
    number: `1555${String(1_000_000 + i).slice(1)}`,
    registered: true,
    active: true,
  }));
  /** Each agent's call, if any. */
  const calls = new Map<string, ProviderCall>();
  const perStep = (agents * ratePerSecond * stepMs) / 1000;
  let owed = 0;
  let serial = 0;

  const change = (now: number) => {
    const agent = subscribers[Math.floor(random.next() * agents)] as (typeof subscribers)[number];
    const id = agent.providerSubscriberID;
    const call = calls.get(id);
    if (!agent.registered) {
      agent.registered = true;
      return;
    }
    if (!call) {
      // One change in twenty is a phone that drops; the others, a call that rings.
      if (random.next() < 0.05) {
        agent.registered = false;
        return;
      }
      serial += 1;
      calls.set(id, {
        callID: `floor-${serial}`,
        providerCallID: `floor-${serial}@pbx.bench`,
        isOutbound: false,
        isMissedCall: false,
        remoteNumber: `1415555${String(serial % 10_000).padStart(4, '0')}`,
        startedAt: now,
        subscriberID: id,
        subscriberFirstName: agent.firstName,
        subscriberLastName: agent.lastName,
        subscriberExtension: agent.extension,
      });
    } else if (call.answeredAt === undefined) calls.set(id, { ...call, answeredAt: now });
    else calls.delete(id);
  };

  const watchers = new Set<() => void>();
  const timer = setInterval(() => {
    const now = Date.now();
    owed += perStep;
    for (; owed >= 1; owed -= 1) change(now);
    for (const onChange of watchers) onChange();
  }, stepMs);
  timer.unref();

  return {
    listCalls: async () => [...calls.values()],
    placeCall: async () => undefined,
    listSubscribers: async () => subscribers.map((subscriber) => ({ ...subscriber })),
    watchChanges: (onChange) => {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
    close: async () => clearInterval(timer),
  };
};
