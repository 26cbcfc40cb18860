/** The built-in phone-system simulator: a small, lifelike call center behind the PhoneSystem interface. */
import type { PastCalls, PastRange, PhoneSystem, PhoneSystemControl, ProviderCall } from '../phone-system.js';
import { CallCenter, type SubscriberStatus } from './call-center.js';
import { checkCaller } from '../caller-check.js';
import { ChangeWatch } from './change-watch.js';
import { createDirectory } from './directory.js';
import { pastFromWorker } from './past-worker-thread.js';
import { RequestGate, type SimulatedFailure } from './request-gate.js';
import { callIDPrefix, createTimeline, sipHostFor } from './run-identity.js';
import { reachesBeforeHandover, type PastRun } from './simulated-past.js';
import { resolveSimulatorOptions, type PhoneSystemSimulatorOptions, type ResolvedSimulatorOptions } from './simulator-options.js';
import type { PlacedCallScript } from './traffic-model.js';

export type { DialMode, SubscriberStatus } from './call-center.js';
export type { SimulatedFailure } from './request-gate.js';
export type { PhoneSystemSimulatorOptions } from './simulator-options.js';
export type { PlacedCallScript } from './traffic-model.js';

/** The drill controls every phone system may offer, and what only a simulated center can do besides. */
export interface SimulatorControl extends PhoneSystemControl {
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
  /** The simulated past, run apart from the live center (in a worker thread) and deterministic by seed and range. */
  backfill(range: PastRange, signal: AbortSignal): AsyncIterable<PastCalls>;
}

export const createPhoneSystemSimulator = (options: PhoneSystemSimulatorOptions): PhoneSystemSimulator => {
  const settings = resolveSimulatorOptions(options);
  const { clock, seed, name } = settings;
  const origin = clock.now();
  const timeline = createTimeline(origin, settings.speed);
  const center = new CallCenter(
    {
      seed,
      dialMode: settings.dialMode,
      traffic: settings.traffic,
      keepEndedMs: settings.keepEndedMs,
      callIDPrefix: callIDPrefix(seed, origin),
      sipHost: sipHostFor(name),
    },
    createDirectory({ seed, agents: settings.agents, emailDomain: settings.emailDomain }),
    origin - settings.warmupMs,
  );
  const catchUp = () => center.advanceTo(timeline.toSim(clock.now()));
  catchUp();
  // The calls that ended during the warm-up and are still listed: the past hands over to the live center here.
  const handedOver = center.listCalls(timeline.toClock).filter((call) => call.endedAt !== undefined);
  const gate = new RequestGate();
  const changes = new ChangeWatch({ nextChangeAt: () => center.nextChangeAt(), catchUp, toClock: timeline.toClock }, clock);

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
        changes.poke();
      }),
    listSubscribers: (signal) => gate.run(signal, () => center.subscribers()),
    watchChanges: (onChange) => changes.watch(onChange),
    close: () => {
      changes.close();
      gate.close();
      return Promise.resolve();
    },
    backfill: (range, signal) => simulatedPast(pastRun(settings, origin, range), handedOver, signal),
    control: {
      setFailure: (mode) => gate.setFailure(mode),
      setSubscriberStatus: (id, status) => {
        catchUp();
        center.setSubscriberStatus(id, status);
        changes.poke();
      },
      scriptNextPlacedCall: (script) => center.scriptNextPlacedCall(script),
      liveCount: () => {
        catchUp();
        return center.liveCount;
      },
    },
  };
};

const pastRun = (settings: ResolvedSimulatorOptions, origin: number, range: PastRange): PastRun => ({
  seed: settings.seed,
  dialMode: settings.dialMode,
  agents: settings.agents,
  traffic: settings.traffic,
  speed: settings.speed,
  keepEndedMs: settings.keepEndedMs,
  warmupMs: settings.warmupMs,
  emailDomain: settings.emailDomain,
  sipHost: sipHostFor(settings.name),
  origin,
  range,
});

/** A separate run up to the handover, then the live center's own calls that ended before it started. */
async function* simulatedPast(run: PastRun, handedOver: readonly ProviderCall[], signal: AbortSignal): AsyncGenerator<PastCalls> {
  const { since, from, to } = run.range;
  if (reachesBeforeHandover(run)) yield* pastFromWorker(run, signal);
  const calls = handedOver.filter((call) => call.startedAt >= since && (call.endedAt as number) >= from && (call.endedAt as number) < to);
  yield { calls, through: to };
}
