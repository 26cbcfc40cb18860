import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../clock.js';
import { callWithDeadline } from '../../call-with-deadline.js';
import {
  ProviderFailure,
  SubscriberRejection,
  type PastCalls,
  type PhoneSystem,
  type PhoneSystemControl,
  type PlaceCallRequest,
  type ProviderCall,
} from '../../phone-system.js';
import { createPhoneSystemSimulator, type PhoneSystemSimulator } from '../phone-system-simulator.js';
import { PAST_BATCH_CALLS } from '../simulated-past.js';
import type { PhoneSystemSimulatorOptions } from '../simulator-options.js';
import { createRemoteSimulator } from './remote-simulator.js';
import { startSimulatorServer } from './simulator-server.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** A Monday, 10:00 UTC: the center is busy. */
const START = Date.parse('2026-03-02T10:00:00Z');
const CUSTOMER = '14155550123';

type CenterOptions = Partial<Omit<PhoneSystemSimulatorOptions, 'clock'>>;

interface Side {
  phoneSystem: PhoneSystem & { backfill: NonNullable<PhoneSystem['backfill']> };
  control: PhoneSystemControl;
  clock: ManualClock;
  /** An in-process simulator of the same seed, options and clock, untouched by the test: what the side must match. */
  twin: PhoneSystemSimulator;
  close(): Promise<void>;
}

const centerOf = (clock: ManualClock, options: CenterOptions) =>
  createPhoneSystemSimulator({ clock, seed: 42, name: 'Test PBX', ...options });

/** The same behaviours, from a simulator in this process and from one served over the wire on a free port. */
const sides: Record<string, (options: CenterOptions) => Promise<Side>> = {
  'in-process': async (options) => {
    const clock = new ManualClock(START);
    const sim = centerOf(clock, options);
    return { phoneSystem: sim, control: sim.control, clock, twin: centerOf(clock, options), close: () => sim.close() };
  },
  remote: async (options) => {
    const clock = new ManualClock(START);
    const served = centerOf(clock, options);
    const server = await startSimulatorServer({
      phoneSystem: served,
      center: { name: 'Test PBX', seed: 42, dialMode: 'two-step', agents: 24, traffic: 1, speed: 1, keepEndedMs: 120_000, emailDomain: 'example.com', recordedCalls: 0, control: true },
      host: '127.0.0.1',
      port: 0,
      onInternalError: (error) => {
        throw error;
      },
    });
    const client = createRemoteSimulator({ url: server.url, requestTimeoutMs: 2000 });
    return {
      phoneSystem: client,
      control: client.control,
      clock,
      twin: centerOf(clock, options),
      close: async () => {
        await client.close();
        await served.close();
        await server.close();
      },
    };
  },
};

const signal = () => new AbortController().signal;

const collect = async (batches: AsyncIterable<PastCalls>): Promise<PastCalls[]> => {
  const all: PastCalls[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
};

/** The error a promise rejects with (the test fails if it resolves). */
const failureOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.unreachable('expected it to fail'),
    (error: unknown) => error,
  );

const withSide = async (name: string, options: CenterOptions, test: (side: Side) => Promise<void>) => {
  const side = await sides[name]!(options);
  try {
    await test(side);
  } finally {
    await side.close();
  }
};

const availableAgent = async (phoneSystem: PhoneSystem) => {
  const agent = (await phoneSystem.listSubscribers(signal())).find((s) => s.registered && s.active);
  if (!agent) throw new Error('no available agent');
  return agent;
};

/** Places a call and returns the one record it added. */
const place = async (phoneSystem: PhoneSystem, request: PlaceCallRequest): Promise<ProviderCall> => {
  const before = new Set((await phoneSystem.listCalls(signal())).map((call) => call.callID));
  await phoneSystem.placeCall(request, signal());
  const added = (await phoneSystem.listCalls(signal())).filter((call) => !before.has(call.callID));
  expect(added).toHaveLength(1);
  return added[0] as ProviderCall;
};

const find = async (phoneSystem: PhoneSystem, callID: string) =>
  (await phoneSystem.listCalls(signal())).find((call) => call.callID === callID);

describe.each(Object.keys(sides))('the %s simulator', (name) => {
  it('lists the calls of its seed with their times to the millisecond, as its clock goes on', () =>
    withSide(name, {}, async ({ phoneSystem, twin, clock }) => {
      const first = await phoneSystem.listCalls(signal());
      expect(first.length).toBeGreaterThan(3);
      expect(first).toEqual(await twin.listCalls(signal()));
      clock.advance(10 * MINUTE + 17);
      expect(await phoneSystem.listCalls(signal())).toEqual(await twin.listCalls(signal()));
    }));

  it('lists the directory of its seed', () =>
    withSide(name, { agents: 30, emailDomain: 'calls.example.org' }, async ({ phoneSystem, twin }) => {
      const subscribers = await phoneSystem.listSubscribers(signal());
      expect(subscribers).toHaveLength(30);
      expect(subscribers).toEqual(await twin.listSubscribers(signal()));
    }));

  it('places a two-step call: the agent rings first, then the remote party, and the record follows', () =>
    withSide(name, {}, async ({ phoneSystem, control, clock }) => {
      const agent = await availableAgent(phoneSystem);
      await control.scriptNextPlacedCall({ agent: 'answer', agentRingMs: 3000, remote: 'answer', remoteRingMs: 5000, talkMs: MINUTE });
      const call = await place(phoneSystem, { providerSubscriberID: agent.providerSubscriberID, remoteNumber: CUSTOMER });
      expect(call).toMatchObject({ isOutbound: true, remoteNumber: CUSTOMER, startedAt: clock.now(), subscriberID: agent.providerSubscriberID });
      expect(call).not.toHaveProperty('answeredAt');
      clock.advance(7999);
      expect((await find(phoneSystem, call.callID))?.answeredAt).toBeUndefined();
      clock.advance(1);
      expect((await find(phoneSystem, call.callID))?.answeredAt).toBe(call.startedAt + 8000);
      clock.advance(MINUTE);
      expect(await find(phoneSystem, call.callID)).toMatchObject({ endedAt: call.startedAt + 68_000, isMissedCall: false });
    }));

  it('places a direct call: the remote number is dialed at once', () =>
    withSide(name, { dialMode: 'direct' }, async ({ phoneSystem, control, clock }) => {
      const agent = await availableAgent(phoneSystem);
      await control.scriptNextPlacedCall({ agent: 'no-answer', remote: 'answer', remoteRingMs: 4000, talkMs: MINUTE });
      const call = await place(phoneSystem, { providerSubscriberID: agent.providerSubscriberID, remoteNumber: CUSTOMER });
      clock.advance(4000);
      expect((await find(phoneSystem, call.callID))?.answeredAt).toBe(call.startedAt + 4000);
    }));

  it('refuses a subscriber who cannot call, with the code and words of the in-process simulator', () =>
    withSide(name, {}, async ({ phoneSystem, twin }) => {
      const subscribers = await twin.listSubscribers(signal());
      const offline = subscribers.find((s) => !s.registered && s.active);
      const inactive = subscribers.find((s) => s.registered && !s.active);
      const available = subscribers.find((s) => s.registered && s.active);
      if (!offline || !inactive || !available) throw new Error('the directory should have every kind of subscriber');
      const requests: [PlaceCallRequest, string][] = [
        [{ providerSubscriberID: 'agt-9999', remoteNumber: CUSTOMER }, 'subscriber_not_found'],
        [{ providerSubscriberID: offline.providerSubscriberID, remoteNumber: CUSTOMER }, 'subscriber_not_registered'],
        [{ providerSubscriberID: inactive.providerSubscriberID, remoteNumber: CUSTOMER }, 'subscriber_inactive'],
        [{ providerSubscriberID: available.providerSubscriberID, remoteNumber: CUSTOMER, providerSubscriberExtension: '999' }, 'subscriber_mismatch'],
      ];
      for (const [request, code] of requests) {
        const error = await failureOf(phoneSystem.placeCall(request, signal()));
        const expected = (await failureOf(twin.placeCall(request, signal()))) as SubscriberRejection;
        expect(error).toBeInstanceOf(SubscriberRejection);
        expect(error).toMatchObject({ code, message: expected.message });
      }
    }));

  it.each(['unavailable', 'error', 'timeout'] as const)('fails every request with %s while the drill says so, then recovers', (kind) =>
    withSide(name, {}, async ({ phoneSystem, control, twin }) => {
      const request = { providerSubscriberID: (await twin.listSubscribers(signal()))[0]!.providerSubscriberID, remoteNumber: CUSTOMER };
      await control.setFailure(kind);
      await twin.control.setFailure(kind);
      const attempts = [phoneSystem.listCalls(signal()), phoneSystem.listSubscribers(signal()), phoneSystem.placeCall(request, signal())];
      const expected = (await failureOf(twin.listCalls(signal()))) as ProviderFailure;
      for (const attempt of attempts) {
        const error = await failureOf(attempt);
        expect(error).toBeInstanceOf(ProviderFailure);
        expect(error).toMatchObject({ kind, message: expected.message });
      }
      await control.setFailure(null);
      await expect(phoneSystem.listCalls(signal())).resolves.not.toHaveLength(0);
    }));

  it('stalls every request until its deadline while the drill says so, then recovers', () =>
    withSide(name, {}, async ({ phoneSystem, control }) => {
      await control.setFailure('stall');
      const requests: ((s: AbortSignal) => Promise<unknown>)[] = [(s) => phoneSystem.listCalls(s), (s) => phoneSystem.listSubscribers(s)];
      for (const request of requests) {
        const started = Date.now();
        const error = await failureOf(callWithDeadline(300, request));
        expect(error).toMatchObject({ name: 'ProviderFailure', kind: 'timeout' });
        expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      }
      const aborted = new AbortController();
      const stalled = phoneSystem.listCalls(aborted.signal);
      setTimeout(() => aborted.abort(), 100);
      expect(await failureOf(stalled)).toMatchObject({ kind: 'timeout' });
      await control.setFailure(null);
      await expect(phoneSystem.listCalls(signal())).resolves.not.toHaveLength(0);
    }));

  it('tells its past in bounded batches, the same as the in-process simulator of its seed', { timeout: 60_000 }, () =>
    withSide(name, { agents: 200 }, async ({ phoneSystem, twin, clock }) => {
      const range = { since: clock.now() - 2 * HOUR, from: clock.now() - 2 * HOUR, to: clock.now() };
      const batches = await collect(phoneSystem.backfill(range, signal()));
      expect(batches.length).toBeGreaterThan(2);
      expect(Math.max(...batches.map((batch) => batch.calls.length))).toBeLessThanOrEqual(PAST_BATCH_CALLS);
      expect(batches.at(-1)?.through).toBe(range.to);
      expect(batches).toEqual(await collect(twin.backfill(range, signal())));
    }));

  it('stops telling its past when asked to, and answers on', { timeout: 60_000 }, () =>
    withSide(name, { agents: 2000 }, async ({ phoneSystem, clock }) => {
      const abort = new AbortController();
      const batches = phoneSystem.backfill({ since: clock.now() - 7 * 24 * HOUR, from: clock.now() - 7 * 24 * HOUR, to: clock.now() }, abort.signal);
      const iterator = batches[Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      abort.abort(new Error('shutting down'));
      await expect(iterator.next()).rejects.toThrow();
      await expect(phoneSystem.listCalls(signal())).resolves.not.toHaveLength(0);
    }));
});
