/** The built-in phone-system simulator: a small, lifelike call center behind the PhoneSystem interface. */
import { CallNotEndable, type CallUpdate, type PastCalls, type PastRange, type PhoneSystem, type PhoneSystemControl, type ProviderCall } from '../phone-system.js';
import { CallCenter, type SubscriberStatus } from './call-center.js';
import { checkCaller } from '../caller-check.js';
import { ChangeWatch } from './change-watch.js';
import { createDirectory } from './directory.js';
import { EndedCallRecord } from './ended-call-record.js';
import { pastFromWorker } from './past-worker-thread.js';
import { RequestGate, type SimulatedFailure } from './request-gate.js';
import { callIDPrefix, createTimeline, sipHostFor } from './run-identity.js';
import { PAST_BATCH_CALLS, reachesBeforeHandover, toClockTimes, type PastRun } from './simulated-past.js';
import { resolveRecordedCalls, resolveSimulatorOptions, type PhoneSystemSimulatorOptions, type ResolvedSimulatorOptions } from './simulator-options.js';
import type { PlacedCallScript } from './traffic-model.js';

export type { DialMode, SubscriberStatus } from './call-center.js';
export type { SimulatedFailure } from './request-gate.js';
export type { PhoneSystemSimulatorOptions } from './simulator-options.js';
export type { PlacedCallScript } from './traffic-model.js';

/**
 * The drill controls every phone system may offer, and what only a simulated center can do besides.
 * Each takes effect before it returns.
 */
export interface SimulatorControl extends PhoneSystemControl {
  /** While set, every PhoneSystem method except close() fails this way; null recovers. */
  setFailure(mode: SimulatedFailure | null): Promise<void>;
  /** Takes an agent's phone offline or disables their account (or undoes it) from now on. */
  setSubscriberStatus(providerSubscriberID: string, status: SubscriberStatus): void;
  /** Fixes the course of the next placed call; whatever the script leaves out is drawn as usual. */
  scriptNextPlacedCall(script: PlacedCallScript): Promise<void>;
  /** Calls waiting, ringing or connected now; ended ones excluded. */
  liveCount(): number;
}

export interface PhoneSystemSimulator extends PhoneSystem {
  readonly control: SimulatorControl;
  /** Ends a live call as a hang-up on the switch would, telling how it ended; rejects with CallNotEndable once it is not live. */
  endCall(call: ProviderCall, signal: AbortSignal): Promise<CallUpdate[]>;
  /**
   * The simulated past, run apart from the live center (in a worker thread) and deterministic by
   * seed and range, up to where the live center's own ended calls take over.
   */
  backfill(range: PastRange, signal: AbortSignal): AsyncIterable<PastCalls>;
}

export const createPhoneSystemSimulator = (options: PhoneSystemSimulatorOptions): PhoneSystemSimulator => {
  const settings = resolveSimulatorOptions(options);
  const recordedCalls = resolveRecordedCalls(options);
  const { clock, seed, name } = settings;
  const origin = clock.now();
  const timeline = createTimeline(origin, settings.speed);
  const record = new EndedCallRecord(recordedCalls);
  let started = false;
  const center = new CallCenter(
    {
      seed,
      dialMode: settings.dialMode,
      traffic: settings.traffic,
      keepEndedMs: settings.keepEndedMs,
      callIDPrefix: callIDPrefix(seed, origin),
      sipHost: sipHostFor(name),
      queues: settings.queues,
      // What ends during the warm-up is in the list handed over at the start; what ends later is recorded.
      onCallEnded:
        recordedCalls > 0
          ? (call) => {
              if (started) record.add(toClockTimes(call, timeline.toClock), call.endedAt as number);
            }
          : undefined,
    },
    createDirectory({ seed, agents: settings.agents, emailDomain: settings.emailDomain }),
    origin - settings.warmupMs,
  );
  const catchUp = () => center.advanceTo(timeline.toSim(clock.now()));
  catchUp();
  started = true;
  // The calls that ended during the warm-up and are still listed: the past hands over to the live center here.
  const handedOver = center.listCalls(timeline.toClock).filter((call) => call.endedAt !== undefined);
  const gate = new RequestGate();
  const changes = new ChangeWatch({ nextChangeAt: () => center.nextChangeAt(), catchUp, toClock: timeline.toClock }, clock);

  /** The live center's own past: the list handed over at its start and what it recorded since, or what the bounded record still keeps. */
  const ownPast = (): { handover: number; calls: ProviderCall[] } => {
    const dropped = record.droppedThrough;
    return dropped === undefined
      ? { handover: origin - settings.keepEndedMs, calls: [...handedOver, ...record.kept()] }
      : { handover: dropped, calls: record.kept(dropped) };
  };

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
    listSubscribers: (signal) =>
      gate.run(signal, () => {
        catchUp();
        return center.subscribers();
      }),
    endCall: (call, signal) =>
      gate.run(signal, () => {
        catchUp();
        if (!center.hangUp(call.callID)) throw new CallNotEndable('ended', `Call "${call.callID}" is no longer live in ${name}.`);
        changes.poke();
        // The call as it ended, told at once: the list that follows says the same.
        const ended = center.callRecord(call.callID, timeline.toClock) as ProviderCall;
        const { callID, ...fields } = ended;
        return [{ callID, at: ended.endedAt as number, fields }];
      }),
    watchChanges: (onChange) => changes.watch(onChange),
    close: () => {
      changes.close();
      gate.close();
      return Promise.resolve();
    },
    backfill: (range, signal) => {
      const own = ownPast();
      return simulatedPast(pastRun(settings, origin, own.handover, range), own.calls, signal);
    },
    control: {
      setFailure: (mode) => {
        gate.setFailure(mode);
        return Promise.resolve();
      },
      setSubscriberStatus: (id, status) => {
        catchUp();
        center.setSubscriberStatus(id, status);
        changes.poke();
      },
      scriptNextPlacedCall: (script) => {
        center.scriptNextPlacedCall(script);
        return Promise.resolve();
      },
      liveCount: () => {
        catchUp();
        return center.liveCount;
      },
    },
  };
};

const pastRun = (settings: ResolvedSimulatorOptions, origin: number, handover: number, range: PastRange): PastRun => ({
  seed: settings.seed,
  dialMode: settings.dialMode,
  agents: settings.agents,
  traffic: settings.traffic,
  speed: settings.speed,
  keepEndedMs: settings.keepEndedMs,
  warmupMs: settings.warmupMs,
  emailDomain: settings.emailDomain,
  queues: settings.queues,
  sipHost: sipHostFor(settings.name),
  origin,
  handover,
  range,
});

/** A separate run up to the handover, then the live center's own calls that ended after it, in bounded batches. */
async function* simulatedPast(run: PastRun, own: readonly ProviderCall[], signal: AbortSignal): AsyncGenerator<PastCalls> {
  const { since, from, to } = run.range;
  if (reachesBeforeHandover(run)) yield* pastFromWorker(run, signal);
  const calls = own.filter((call) => call.startedAt >= since && (call.endedAt as number) >= from && (call.endedAt as number) < to);
  const earliest = earliestEnds(calls, to);
  for (let start = 0; ; start += PAST_BATCH_CALLS) {
    signal.throwIfAborted();
    const end = start + PAST_BATCH_CALLS;
    if (end >= calls.length) return yield { calls: calls.slice(start), through: to };
    yield { calls: calls.slice(start, end), through: earliest[end] as number };
  }
}

/**
 * For each index, the earliest end among the calls from there on (`to` past the last): the list
 * handed over at the start is in the order calls began, so a batch is only `through` that.
 */
const earliestEnds = (calls: readonly ProviderCall[], to: number): number[] => {
  const earliest = new Array<number>(calls.length + 1);
  earliest[calls.length] = to;
  for (let i = calls.length - 1; i >= 0; i -= 1) earliest[i] = Math.min((calls[i] as ProviderCall).endedAt as number, earliest[i + 1] as number);
  return earliest;
};
