import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { remoteNumberSchema } from '../../../contract/call-record.js';
import { subscriberSchema, type Subscriber } from '../../../contract/subscriber.js';
import { ManualClock, systemClock } from '../../clock.js';
import { ProviderFailure, SubscriberRejection, type ProviderCall } from '../phone-system.js';
import { createPhoneSystemSimulator, type PhoneSystemSimulator } from './phone-system-simulator.js';
import type { PhoneSystemSimulatorOptions } from './simulator-options.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** A Monday; the traffic curve reads UTC hours. */
const MONDAY = Date.parse('2026-03-02T00:00:00Z');
const CUSTOMER = '14155550123';

const signal = () => new AbortController().signal;

const start = (options: Partial<PhoneSystemSimulatorOptions> = {}, at = MONDAY + 10 * HOUR) => {
  const clock = new ManualClock(at);
  const sim = createPhoneSystemSimulator({ clock, seed: 42, name: 'Test PBX', ...options });
  return { clock, sim };
};

const calls = (sim: PhoneSystemSimulator) => sim.listCalls(signal());

const availableAgent = async (sim: PhoneSystemSimulator, skip = 0): Promise<Subscriber> => {
  const agents = (await sim.listSubscribers(signal())).filter((s) => s.registered && s.active);
  const agent = agents[skip];
  if (!agent) throw new Error('no available agent');
  return agent;
};

/** An available agent on no call right now. */
const idleAgent = async (sim: PhoneSystemSimulator): Promise<Subscriber> => {
  const busy = new Set((await calls(sim)).filter((call) => call.endedAt === undefined).map((call) => call.subscriberID));
  const agent = (await sim.listSubscribers(signal())).find((s) => s.registered && s.active && !busy.has(s.providerSubscriberID));
  if (!agent) throw new Error('no idle agent');
  return agent;
};

/** Places a call and returns the one record it added. */
const place = async (sim: PhoneSystemSimulator, agent: Subscriber, remoteNumber = CUSTOMER): Promise<ProviderCall> => {
  const before = new Set((await calls(sim)).map((call) => call.callID));
  await sim.placeCall({ providerSubscriberID: agent.providerSubscriberID, remoteNumber }, signal());
  const added = (await calls(sim)).filter((call) => !before.has(call.callID));
  expect(added).toHaveLength(1);
  return added[0] as ProviderCall;
};

/** Every call seen while polling each minute for `durationMs`, in its latest state. */
const watch = async (clock: ManualClock, sim: PhoneSystemSimulator, durationMs: number): Promise<ProviderCall[]> => {
  const seen = new Map<string, ProviderCall>();
  for (let elapsed = 0; elapsed < durationMs; elapsed += MINUTE) {
    clock.advance(MINUTE);
    for (const call of await calls(sim)) seen.set(call.callID, call);
  }
  return [...seen.values()];
};

const find = async (sim: PhoneSystemSimulator, callID: string) => (await calls(sim)).find((call) => call.callID === callID);

/** The invariants every listing must keep, whatever the seed, load or history. */
const expectValidListing = (listing: ProviderCall[], now: number, keepEndedMs: number) => {
  expect(new Set(listing.map((call) => call.callID)).size).toBe(listing.length);
  expect(new Set(listing.map((call) => call.providerCallID)).size).toBe(listing.length);
  for (const call of listing) {
    expect(remoteNumberSchema.safeParse(call.remoteNumber).success).toBe(true);
    expect(call.providerCallID).toMatch(/^[0-9a-f]{24}@pbx\.test-pbx\.sim$/);
    expect(call.startedAt).toBeLessThanOrEqual(now);
    if (call.answeredAt !== undefined) expect(call.answeredAt).toBeGreaterThanOrEqual(call.startedAt);
    if (call.endedAt !== undefined) {
      expect(call.endedAt).toBeGreaterThanOrEqual(call.answeredAt ?? call.startedAt);
      expect(call.endedAt).toBeLessThanOrEqual(now);
      expect(now - call.endedAt).toBeLessThan(keepEndedMs);
    }
    if (call.isMissedCall) {
      expect(call.isOutbound).toBe(false);
      expect(call.answeredAt).toBeUndefined();
      expect(call.endedAt).toBeDefined();
    }
    if (call.isOutbound || call.answeredAt !== undefined) expect(call.subscriberID).toBeDefined();
    const subscriberFields = [
      call.subscriberID,
      call.subscriberFirstName,
      call.subscriberLastName,
      call.subscriberEmail,
      call.subscriberExtension,
      call.subscriberNumber,
    ];
    expect(new Set(subscriberFields.map((field) => field === undefined)).size).toBe(1);
    expect(call.remoteName === undefined).toBe(call.chosenContactID === undefined);
  }
};

/** An outbound call that never connected: ended, not answered, and never "missed". */
const expectFailedAt = (call: ProviderCall | undefined, endedAt: number) => {
  expect(call).toMatchObject({ endedAt, isMissedCall: false });
  expect(call).not.toHaveProperty('answeredAt');
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

describe('simulated traffic', () => {
  it('is the same for the same seed however often it is polled, placed calls included', async () => {
    const often = start();
    const once = start();
    const agent = await availableAgent(often.sim);
    const request = { providerSubscriberID: agent.providerSubscriberID, remoteNumber: CUSTOMER };
    for (let elapsed = 0; elapsed < 10 * MINUTE; elapsed += 1700) {
      often.clock.advance(1700);
      await calls(often.sim);
      if (elapsed === 1700 * 100) await often.sim.placeCall(request, signal());
    }
    once.clock.advance(1700 * 101);
    await once.sim.placeCall(request, signal());
    once.clock.set(often.clock.now());
    expect(await calls(once.sim)).toEqual(await calls(often.sim));
  });

  it('differs for another seed', async () => {
    const one = start();
    const other = start({ seed: 43 });
    expect((await calls(one.sim)).map((call) => call.remoteNumber)).not.toEqual(
      (await calls(other.sim)).map((call) => call.remoteNumber),
    );
  });

  it('starts in full swing after its warm-up, and empty without one', async () => {
    const warm = start();
    const cold = start({ warmupMs: 0 });
    const listing = await calls(warm.sim);
    expect(warm.sim.control.liveCount()).toBeGreaterThanOrEqual(5);
    expect(listing.some((call) => call.answeredAt !== undefined && call.startedAt < warm.clock.now() - MINUTE)).toBe(true);
    expect(await calls(cold.sim)).toEqual([]);
  });

  it('keeps a busy but sane call center all day long, busier at 11:00 than at 03:00 UTC', () => {
    const { clock, sim } = start({}, MONDAY);
    const live: number[] = [];
    for (let minute = 0; minute < 24 * 60; minute += 1) {
      clock.advance(MINUTE);
      live.push(sim.control.liveCount());
    }
    const mean = (fromHour: number, toHour: number) =>
      live.slice(fromHour * 60, toHour * 60).reduce((sum, n) => sum + n, 0) / ((toHour - fromHour) * 60);
    expect(Math.min(...live)).toBeGreaterThanOrEqual(3);
    expect(median(live)).toBeGreaterThanOrEqual(5);
    expect(median(live)).toBeLessThanOrEqual(20);
    expect(Math.max(...live)).toBeLessThanOrEqual(35);
    expect(mean(10, 12)).toBeGreaterThan(1.5 * mean(2, 4));
  });

  it('reports only live and recently ended calls, and counts the live ones', async () => {
    const { clock, sim } = start();
    clock.advance(15 * MINUTE);
    const listing = await calls(sim);
    expect(listing.filter((call) => call.endedAt === undefined)).toHaveLength(sim.control.liveCount());
    expectValidListing(listing, clock.now(), 120_000);
  });

  it('carries names and contact IDs for known remote parties, and withheld numbers as empty', async () => {
    const { clock, sim } = start();
    const all = await watch(clock, sim, HOUR);
    expect(all.some((call) => call.remoteName && call.chosenContactID?.match(/^ct-[0-9]{6}$/))).toBe(true);
    expect(all.some((call) => call.remoteNumber === '' && !call.isOutbound)).toBe(true);
    expect(all.some((call) => call.isOutbound)).toBe(true);
    expect(all.some((call) => /^(44|49|33)/.test(call.remoteNumber))).toBe(true);
  });

  it('keeps its records valid for any seed, load, speed and placed calls', async () => {
    const step = fc.oneof(
      fc.record({ advance: fc.integer({ min: 1, max: 10 * MINUTE }) }),
      fc.record({ place: fc.nat({ max: 60 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0.2, max: 3, noNaN: true }),
        fc.constantFrom('two-step' as const, 'direct' as const),
        fc.array(step, { minLength: 1, maxLength: 8 }),
        async (seed, agents, traffic, dialMode, steps) => {
          const { clock, sim } = start({ seed, agents, traffic, dialMode });
          const subscribers = await sim.listSubscribers(signal());
          for (const action of steps) {
            if ('advance' in action) clock.advance(action.advance);
            else {
              const agent = subscribers[action.place % subscribers.length] as Subscriber;
              await sim
                .placeCall({ providerSubscriberID: agent.providerSubscriberID, remoteNumber: CUSTOMER }, signal())
                .catch((error: unknown) => expect(error).toBeInstanceOf(SubscriberRejection));
            }
            const listing = await calls(sim);
            expectValidListing(listing, clock.now(), 120_000);
            expect(listing.filter((call) => call.endedAt === undefined)).toHaveLength(sim.control.liveCount());
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('gives call IDs that never repeat across simulator instances', async () => {
    const first = start();
    const second = start({}, MONDAY + 10 * HOUR + 1);
    const ids = new Set((await calls(first.sim)).map((call) => call.callID));
    expect((await calls(second.sim)).some((call) => ids.has(call.callID))).toBe(false);
  });

  it('hands out copies that callers cannot use to change it', async () => {
    const { sim } = start();
    const [call] = await calls(sim);
    if (!call) throw new Error('expected calls');
    call.remoteNumber = 'tampered';
    const [subscriber] = await sim.listSubscribers(signal());
    if (!subscriber) throw new Error('expected subscribers');
    subscriber.registered = !subscriber.registered;
    expect((await calls(sim))[0]?.remoteNumber).not.toBe('tampered');
    expect((await sim.listSubscribers(signal()))[0]?.registered).toBe(!subscriber.registered);
  });

  it('runs simulated time `speed` times faster than the clock', async () => {
    const { clock, sim } = start({ speed: 60, dialMode: 'direct' });
    sim.control.scriptNextPlacedCall({ remote: 'answer', remoteRingMs: 6 * SECOND, talkMs: 10 * MINUTE });
    const call = await place(sim, await availableAgent(sim));
    clock.advance(100);
    expect((await find(sim, call.callID))?.answeredAt).toBe(call.startedAt + 100);
    clock.advance(10 * SECOND);
    expect((await find(sim, call.callID))?.endedAt).toBe(call.startedAt + 10_100);
  });

  it('holds about 10,000 live calls for 12,000 agents at traffic 1.25 on a weekday morning', () => {
    const { sim } = start({ agents: 12_000, traffic: 1.25 });
    expect(sim.control.liveCount()).toBeGreaterThan(9000);
    expect(sim.control.liveCount()).toBeLessThan(11_000);
  }, 60_000);
});

describe('missed calls', () => {
  it('are inbound, ended and never answered, and disappear keepEndedMs after they end', async () => {
    const { clock, sim } = start();
    let missed: ProviderCall | undefined;
    while (!missed) {
      clock.advance(30 * SECOND);
      missed = (await calls(sim)).find((call) => call.isMissedCall);
    }
    expect(missed.isOutbound).toBe(false);
    expect(missed).not.toHaveProperty('answeredAt');
    const endedAt = missed.endedAt as number;
    clock.set(endedAt + 120_000 - 1);
    expect(await find(sim, missed.callID)).toEqual(missed);
    clock.set(endedAt + 120_000);
    expect(await find(sim, missed.callID)).toBeUndefined();
  });

  it('pile up without an agent when nobody can take calls', async () => {
    const { clock, sim } = start();
    for (const subscriber of await sim.listSubscribers(signal())) {
      sim.control.setSubscriberStatus(subscriber.providerSubscriberID, { registered: false });
    }
    const since = clock.now();
    clock.advance(20 * MINUTE);
    const newCalls = (await calls(sim)).filter((call) => call.startedAt > since);
    expect(newCalls.length).toBeGreaterThan(5);
    expect(newCalls.every((call) => !call.isOutbound && call.subscriberID === undefined)).toBe(true);
    expect(newCalls.some((call) => call.isMissedCall)).toBe(true);
  });

  it('are not listed at all with keepEndedMs 0', async () => {
    const { clock, sim } = start({ keepEndedMs: 0 });
    clock.advance(10 * MINUTE);
    expect((await calls(sim)).every((call) => call.endedAt === undefined)).toBe(true);
  });
});

describe('placeCall, two-step', () => {
  it('rings the agent, then the remote party, connects, and ends', async () => {
    const { clock, sim } = start();
    const agent = await availableAgent(sim);
    sim.control.scriptNextPlacedCall({
      agent: 'answer',
      agentRingMs: 3000,
      remote: 'answer',
      remoteRingMs: 5000,
      talkMs: MINUTE,
    });
    const call = await place(sim, agent);
    expect(call).toMatchObject({
      isOutbound: true,
      isMissedCall: false,
      remoteNumber: CUSTOMER,
      startedAt: clock.now(),
      subscriberID: agent.providerSubscriberID,
      subscriberFirstName: agent.firstName,
      subscriberLastName: agent.lastName,
      subscriberEmail: agent.email,
      subscriberExtension: agent.extension,
      subscriberNumber: agent.number,
    });
    expect(call).not.toHaveProperty('answeredAt');
    // The agent's phone rings, then they pick up and hear the remote number dialed.
    expect(call).not.toHaveProperty('subscriberAnsweredAt');
    clock.advance(3000);
    expect((await find(sim, call.callID))?.subscriberAnsweredAt).toBe(call.startedAt + 3000);
    clock.advance(4999);
    expect((await find(sim, call.callID))?.answeredAt).toBeUndefined();
    clock.advance(1);
    const connected = await find(sim, call.callID);
    expect(connected?.answeredAt).toBe(call.startedAt + 8000);
    expect(connected).not.toHaveProperty('endedAt');
    clock.advance(MINUTE);
    expect(await find(sim, call.callID)).toMatchObject({ endedAt: call.startedAt + 68_000, isMissedCall: false });
  });

  it('ends after 30 s, not missed, when the agent does not pick up', async () => {
    const { clock, sim } = start();
    sim.control.scriptNextPlacedCall({ agent: 'no-answer' });
    const call = await place(sim, await availableAgent(sim));
    clock.advance(30 * SECOND);
    expectFailedAt(await find(sim, call.callID), call.startedAt + 30_000);
  });

  it.each(['busy', 'no-answer'] as const)('ends unanswered when the remote number is %s', async (remote) => {
    const { clock, sim } = start();
    sim.control.scriptNextPlacedCall({ agent: 'answer', agentRingMs: 2000, remote, remoteRingMs: 20_000 });
    const call = await place(sim, await availableAgent(sim));
    clock.advance(22 * SECOND);
    expectFailedAt(await find(sim, call.callID), call.startedAt + 22_000);
  });

  it('still rings an agent who is on another call', async () => {
    const { sim } = start();
    const busy = (await calls(sim)).find(
      (call) => call.answeredAt !== undefined && call.endedAt === undefined && call.subscriberID,
    );
    const agent = (await sim.listSubscribers(signal())).find((s) => s.providerSubscriberID === busy?.subscriberID);
    if (!agent) throw new Error('expected a busy agent');
    expect((await place(sim, agent)).subscriberID).toBe(agent.providerSubscriberID);
  });

  it('keeps the agent from taking other calls while on it', async () => {
    const { clock, sim } = start({ traffic: 3 });
    const agent = await availableAgent(sim);
    sim.control.scriptNextPlacedCall({ agent: 'answer', remote: 'answer', talkMs: 30 * MINUTE });
    const call = await place(sim, agent);
    const seen = await watch(clock, sim, 20 * MINUTE);
    const others = seen.filter((c) => c.subscriberID === agent.providerSubscriberID && c.callID !== call.callID);
    expect(others.filter((c) => c.startedAt > call.startedAt)).toEqual([]);
  });

  it('names the remote party when the number belongs to a known contact', async () => {
    const { clock, sim } = start();
    let known: ProviderCall | undefined;
    while (!known) {
      clock.advance(MINUTE);
      known = (await calls(sim)).find((call) => call.chosenContactID);
    }
    const call = await place(sim, await availableAgent(sim), known.remoteNumber);
    expect(call).toMatchObject({ remoteName: known.remoteName, chosenContactID: known.chosenContactID });
  });
});

describe('placeCall, direct', () => {
  it('dials the remote number at once, in a single record', async () => {
    const { clock, sim } = start({ dialMode: 'direct' });
    const agent = await availableAgent(sim);
    sim.control.scriptNextPlacedCall({ agent: 'no-answer', remote: 'answer', remoteRingMs: 4000, talkMs: MINUTE });
    const call = await place(sim, agent);
    // No ring at the agent's phone: their side is connected from the start.
    expect(call).toMatchObject({ isOutbound: true, subscriberID: agent.providerSubscriberID, subscriberAnsweredAt: call.startedAt });
    expect(call).not.toHaveProperty('answeredAt');
    clock.advance(4000);
    expect((await find(sim, call.callID))?.answeredAt).toBe(call.startedAt + 4000);
  });
});

describe('placeCall rejections', () => {
  const rejection = async (sim: PhoneSystemSimulator, request: Parameters<PhoneSystemSimulator['placeCall']>[0]) => {
    const error: unknown = await sim.placeCall(request, signal()).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(SubscriberRejection);
    return error as SubscriberRejection;
  };
  const byStatus = async (sim: PhoneSystemSimulator, registered: boolean, active: boolean) => {
    const subscriber = (await sim.listSubscribers(signal())).find((s) => s.registered === registered && s.active === active);
    if (!subscriber) throw new Error('expected such a subscriber');
    return subscriber;
  };

  it('refuses an unknown subscriber', async () => {
    const { sim } = start();
    const error = await rejection(sim, { providerSubscriberID: 'agt-9999', remoteNumber: CUSTOMER });
    expect(error.code).toBe('subscriber_not_found');
    expect(error.message).toContain('agt-9999');
  });

  it('refuses a subscriber whose phone is offline, saying who it is', async () => {
    const { sim } = start();
    const subscriber = await byStatus(sim, false, true);
    const error = await rejection(sim, { providerSubscriberID: subscriber.providerSubscriberID, remoteNumber: CUSTOMER });
    expect(error.code).toBe('subscriber_not_registered');
    expect(error.message).toBe(
      `Extension ${subscriber.extension} (${subscriber.firstName} ${subscriber.lastName}) is not registered: their phone is offline`,
    );
  });

  it('refuses an inactive subscriber', async () => {
    const { sim } = start();
    const subscriber = await byStatus(sim, true, false);
    const error = await rejection(sim, { providerSubscriberID: subscriber.providerSubscriberID, remoteNumber: CUSTOMER });
    expect(error.code).toBe('subscriber_inactive');
    expect(error.message).toContain(`Extension ${subscriber.extension} (${subscriber.firstName} ${subscriber.lastName})`);
  });

  it('refuses a request whose extension or number is not the subscriber’s', async () => {
    const { sim } = start();
    const subscriber = await availableAgent(sim);
    const wrongExtension = await rejection(sim, {
      providerSubscriberID: subscriber.providerSubscriberID,
      remoteNumber: CUSTOMER,
      providerSubscriberExtension: '999',
    });
    expect(wrongExtension.code).toBe('subscriber_mismatch');
    expect(wrongExtension.message).toContain('not extension 999');
    const wrongNumber = await rejection(sim, {
      providerSubscriberID: subscriber.providerSubscriberID,
      remoteNumber: CUSTOMER,
      providerSubscriberNumber: '15555550000',
    });
    expect(wrongNumber.code).toBe('subscriber_mismatch');
  });

  it('accepts a request whose extension and number match', async () => {
    const { sim } = start();
    const subscriber = await availableAgent(sim);
    await expect(
      sim.placeCall(
        {
          providerSubscriberID: subscriber.providerSubscriberID,
          remoteNumber: CUSTOMER,
          providerSubscriberExtension: subscriber.extension,
          providerSubscriberNumber: subscriber.number,
        },
        signal(),
      ),
    ).resolves.toBeUndefined();
  });

  it('follows status changes made through the control', async () => {
    const { clock, sim } = start({}, MONDAY + 3 * HOUR);
    const subscriber = await idleAgent(sim);
    sim.control.setSubscriberStatus(subscriber.providerSubscriberID, { registered: false });
    const error = await rejection(sim, { providerSubscriberID: subscriber.providerSubscriberID, remoteNumber: CUSTOMER });
    expect(error.code).toBe('subscriber_not_registered');
    const since = clock.now();
    const theirs = (await watch(clock, sim, HOUR)).filter((call) => call.subscriberID === subscriber.providerSubscriberID);
    expect(theirs.filter((call) => call.startedAt > since)).toEqual([]);
    sim.control.setSubscriberStatus(subscriber.providerSubscriberID, { registered: true });
    await expect(
      sim.placeCall({ providerSubscriberID: subscriber.providerSubscriberID, remoteNumber: CUSTOMER }, signal()),
    ).resolves.toBeUndefined();
  });
});

describe('endCall', () => {
  it('ends a talking call at once, and what was still to come of it never happens', async () => {
    const { clock, sim } = start({ keepEndedMs: HOUR });
    const agent = await idleAgent(sim);
    await sim.control.scriptNextPlacedCall({ agent: 'answer', agentRingMs: 1000, remote: 'answer', remoteRingMs: 1000, talkMs: 10 * MINUTE });
    const placed = await place(sim, agent);
    clock.advance(5 * SECOND);
    const talking = await find(sim, placed.callID);
    expect(talking?.answeredAt).toBeDefined();

    const told = await sim.endCall(talking as ProviderCall, signal());
    expect(told).toEqual([{ callID: placed.callID, at: clock.now(), fields: expect.objectContaining({ endedAt: clock.now(), isMissedCall: false }) }]);
    const ended = await find(sim, placed.callID);
    expect(ended?.endedAt).toBe(clock.now());
    expect(ended?.isMissedCall).toBe(false);
    clock.advance(11 * MINUTE);
    expect((await find(sim, placed.callID))?.endedAt).toBe(ended?.endedAt);
    // The agent is free again after their wrap-up: they can be called once more.
    await expect(place(sim, agent)).resolves.toBeDefined();
  });

  it('counts an inbound caller it hung up on before an agent answered as missed', async () => {
    const { clock, sim } = start({ agents: 1, traffic: 1 });
    let ringing: ProviderCall | undefined;
    for (let i = 0; i < 600 && !ringing; i += 1) {
      clock.advance(SECOND);
      ringing = (await calls(sim)).find((call) => !call.isOutbound && call.endedAt === undefined && call.answeredAt === undefined);
    }
    expect(ringing).toBeDefined();
    await sim.endCall(ringing as ProviderCall, signal());
    expect(await find(sim, (ringing as ProviderCall).callID)).toMatchObject({ isMissedCall: true, endedAt: clock.now() });
  });

  it('refuses a call that is no longer live', async () => {
    const { clock, sim } = start();
    const agent = await idleAgent(sim);
    await sim.control.scriptNextPlacedCall({ agent: 'no-answer' });
    const placed = await place(sim, agent);
    clock.advance(5 * MINUTE);
    await expect(sim.endCall(placed, signal())).rejects.toMatchObject({ name: 'CallNotEndable', reason: 'ended' });
  });
});

describe('listSubscribers', () => {
  it('returns the directory in the contract’s shape with the configured email domain', async () => {
    const { sim } = start({ agents: 30, emailDomain: 'acme.test' });
    const subscribers = await sim.listSubscribers(signal());
    expect(subscribers).toHaveLength(30);
    for (const subscriber of subscribers) {
      expect(subscriberSchema.parse(subscriber)).toEqual(subscriber);
      expect(subscriber.email.endsWith('@acme.test')).toBe(true);
    }
  });
});

describe('failures', () => {
  const request = { providerSubscriberID: 'agt-0001', remoteNumber: CUSTOMER };
  const everyMethod = (sim: PhoneSystemSimulator, abort: AbortSignal) => [
    sim.listCalls(abort),
    sim.placeCall(request, abort),
    sim.listSubscribers(abort),
  ];
  const settledYet = async (promise: Promise<unknown>) =>
    Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => setImmediate(() => resolve(false))),
    ]);

  it.each(['unavailable', 'error', 'timeout'] as const)('fails every method with %s until recovered', async (kind) => {
    const { sim } = start();
    sim.control.setFailure(kind);
    for (const attempt of everyMethod(sim, signal())) {
      await expect(attempt).rejects.toSatisfy((error) => error instanceof ProviderFailure && error.kind === kind);
    }
    sim.control.setFailure(null);
    await expect(sim.listCalls(signal())).resolves.not.toHaveLength(0);
  });

  it('stalls until the request is aborted, then fails with a timeout', async () => {
    const { sim } = start();
    sim.control.setFailure('stall');
    const controller = new AbortController();
    const attempts = everyMethod(sim, controller.signal);
    for (const attempt of attempts) expect(await settledYet(attempt)).toBe(false);
    controller.abort();
    for (const attempt of attempts) {
      await expect(attempt).rejects.toSatisfy((error) => error instanceof ProviderFailure && error.kind === 'timeout');
    }
  });

  it('rejects at once when the signal is already aborted', async () => {
    const { sim } = start();
    const controller = new AbortController();
    controller.abort();
    await expect(sim.listCalls(controller.signal)).rejects.toBeInstanceOf(ProviderFailure);
  });

  it('places no call when the request was aborted', async () => {
    const { sim } = start();
    const controller = new AbortController();
    controller.abort();
    const before = (await calls(sim)).length;
    await sim
      .placeCall(
        { providerSubscriberID: (await availableAgent(sim)).providerSubscriberID, remoteNumber: CUSTOMER },
        controller.signal,
      )
      .catch(() => undefined);
    expect(await calls(sim)).toHaveLength(before);
  });

  it('is unavailable once closed, and fails requests that were stalled', async () => {
    const { sim } = start();
    sim.control.setFailure('stall');
    const stalled = sim.listCalls(signal());
    await expect(sim.close()).resolves.toBeUndefined();
    await expect(stalled).rejects.toSatisfy((error) => error instanceof ProviderFailure && error.kind === 'unavailable');
    sim.control.setFailure(null);
    for (const attempt of everyMethod(sim, signal())) {
      await expect(attempt).rejects.toSatisfy((error) => error instanceof ProviderFailure && error.kind === 'unavailable');
    }
  });
});

describe('watching for changes', () => {
  it('tells a watcher as each change comes due in clock time, and stops when asked', async () => {
    const sim = createPhoneSystemSimulator({ clock: systemClock, name: 'watch', seed: 5, agents: 40, traffic: 2, speed: 60 });
    let told = 0;
    const stop = sim.watchChanges?.(() => (told += 1));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(told).toBeGreaterThan(0);
    stop?.();
    const stoppedAt = told;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(told).toBe(stoppedAt);
    await sim.close();
  });

  it('tells at once when a placed call changed the list', async () => {
    const clock = new ManualClock(Date.parse('2026-11-22T10:00:00Z'));
    const sim = createPhoneSystemSimulator({ clock, name: 'watch', seed: 6, agents: 5 });
    const agent = (await sim.listSubscribers(AbortSignal.timeout(1000))).find((s) => s.registered && s.active);
    let told = 0;
    sim.watchChanges?.(() => (told += 1));
    await sim.placeCall({ providerSubscriberID: agent?.providerSubscriberID ?? '', remoteNumber: '15555550100' }, AbortSignal.timeout(1000));
    expect(told).toBe(1);
    await sim.close();
  });
});
