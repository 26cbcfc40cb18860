/** The built-in phone-system simulator: a small, lifelike call center behind the PhoneSystem interface. */
import type { PhoneSystem, ProviderCall } from '../phone-system.js';
import { CallCenter, type SubscriberStatus } from './call-center.js';
import { checkCaller } from '../caller-check.js';
import { createDirectory } from './directory.js';
import { deriveSeed } from './random.js';
import { RequestGate, type SimulatedFailure } from './request-gate.js';
import { resolveSimulatorOptions, type PhoneSystemSimulatorOptions } from './simulator-options.js';
import type { PlacedCallScript } from './traffic-model.js';

export type { DialMode, SubscriberStatus } from './call-center.js';
export type { SimulatedFailure } from './request-gate.js';
export type { PhoneSystemSimulatorOptions } from './simulator-options.js';
export type { PlacedCallScript } from './traffic-model.js';

export interface SimulatorControl {
  /** While set, every PhoneSystem method except close() fails this way; null recovers. */
  setFailure(mode: SimulatedFailure | null): void;
  /** Takes an agent's phone offline or disables their account (or undoes it) from now on. */
  setSubscriberStatus(providerSubscriberID: string, status: SubscriberStatus): void;
  /** Fixes the course of the next placed call; whatever the script leaves out is drawn as usual. */
  scriptNextPlacedCall(script: PlacedCallScript): void;
  /** Calls waiting, ringing or connected now; ended ones excluded. */
  liveCount(): number;
}

export interface PhoneSystemSimulator extends PhoneSystem {
  readonly control: SimulatorControl;
  /** The calls that ended during the `backfillMs` before creation, once; empty afterwards. */
  takeBackfill(): ProviderCall[];
}

export const isPhoneSystemSimulator = (phoneSystem: PhoneSystem): phoneSystem is PhoneSystemSimulator =>
  'control' in phoneSystem && typeof (phoneSystem as PhoneSystemSimulator).control?.setFailure === 'function';

export const createPhoneSystemSimulator = (options: PhoneSystemSimulatorOptions): PhoneSystemSimulator => {
  const settings = resolveSimulatorOptions(options);
  const { clock, seed, name } = settings;
  const origin = clock.now();
  const timeline = createTimeline(origin, settings.speed);
  let backfill: ProviderCall[] | undefined = settings.backfillMs > 0 ? [] : undefined;
  const center = new CallCenter(
    {
      seed,
      dialMode: settings.dialMode,
      traffic: settings.traffic,
      keepEndedMs: settings.keepEndedMs,
      callIDPrefix: callIDPrefix(seed, origin),
      sipHost: `pbx.${hostLabel(name)}.sim`,
      onCallEnded: (call) => backfill?.push(withClockTimes(call, timeline.toClock)),
    },
    createDirectory({ seed, agents: settings.agents, emailDomain: settings.emailDomain }),
    origin - Math.max(settings.warmupMs, settings.backfillMs),
  );
  const catchUp = () => center.advanceTo(timeline.toSim(clock.now()));
  catchUp();
  const past = backfill ?? [];
  backfill = undefined;
  const gate = new RequestGate();

  return {
    listCalls: (signal) =>
      gate.run(signal, () => {
        catchUp();
        return center.listCalls(timeline.toClock);
      }),
    placeCall: (request, signal) =>
      gate.run(signal, () => {
        catchUp();
        checkCaller(center.subscriber(request.providerSubscriberID), request);
        center.placeCall(request.providerSubscriberID, request.remoteNumber);
      }),
    listSubscribers: (signal) => gate.run(signal, () => center.subscribers()),
    close: () => {
      gate.close();
      return Promise.resolve();
    },
    takeBackfill: () => past.splice(0),
    control: {
      setFailure: (mode) => gate.setFailure(mode),
      setSubscriberStatus: (id, status) => {
        catchUp();
        center.setSubscriberStatus(id, status);
      },
      scriptNextPlacedCall: (script) => center.scriptNextPlacedCall(script),
      liveCount: () => {
        catchUp();
        return center.liveCount;
      },
    },
  };
};

const withClockTimes = (call: ProviderCall, toClock: (simTime: number) => number): ProviderCall => {
  const mapped: ProviderCall = { ...call, startedAt: toClock(call.startedAt) };
  if (call.answeredAt !== undefined) mapped.answeredAt = toClock(call.answeredAt);
  if (call.endedAt !== undefined) mapped.endedAt = toClock(call.endedAt);
  return mapped;
};

/** Simulated time equals clock time at creation and runs `speed` times faster from there. */
const createTimeline = (origin: number, speed: number) => ({
  toSim: (clockTime: number) => Math.floor(origin + (clockTime - origin) * speed),
  toClock: (simTime: number) => Math.round(origin + (simTime - origin) / speed),
});

/** Creation time and seed: two simulators share call IDs only if they share both. */
const callIDPrefix = (seed: number, origin: number) =>
  `sim-${origin.toString(36)}-${deriveSeed(seed, 'call-id-prefix').toString(36).padStart(7, '0')}`;

const hostLabel = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
