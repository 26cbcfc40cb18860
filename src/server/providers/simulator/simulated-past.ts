/**
 * The simulator's past: a run of the same call center, separate from the live one, that yields
 * the calls which ended in a stretch of the past, in bounded batches, in the order they ended, and
 * its agents' states over that stretch as the agent board would have derived them.
 */
import type { PastCalls, PastRange, ProviderCall } from '../phone-system.js';
import { AgentStateTrail } from './agent-state-trail.js';
import { CallCenter, type DialMode, type SimulatedQueue } from './call-center.js';
import { createDirectory } from './directory.js';
import { deriveSeed } from './random.js';
import { callIDPrefix, createTimeline } from './run-identity.js';

/** Everything a run needs, as plain data: it crosses into a worker thread. */
export interface PastRun {
  seed: number;
  dialMode: DialMode;
  agents: number;
  traffic: number;
  speed: number;
  keepEndedMs: number;
  warmupMs: number;
  emailDomain: string;
  queues: readonly SimulatedQueue[];
  sipHost: string;
  /** When the live center started: simulated time equals clock time there. */
  origin: number;
  /**
   * Simulated time through which this run tells the past; the calls that ended later are the live
   * center's own (those it listed at its start, and those it recorded since).
   */
  handover: number;
  range: PastRange;
}

/** Most calls in one batch: the service writes a batch in one transaction, about 35 ms on the embedded store. */
export const PAST_BATCH_CALLS = 1000;
/** A batch goes out once it holds this many: a step rarely ends more than the rest, so batches rarely split. */
const FLUSH_AT_CALLS = 750;
/** Simulated time run between looks at the batch: at 10,000 live calls about 400 calls end in a step. */
const STEP_MS = 10_000;
/** A batch goes out at least this often in simulated time, so progress shows through quiet stretches too. */
const FLUSH_EVERY_MS = 3_600_000;

/** Whether the range reaches back before the handover, so a separate run has calls to yield. */
export const reachesBeforeHandover = (run: PastRun): boolean =>
  createTimeline(run.origin, run.speed).toSim(run.range.from) <= run.handover;

/**
 * The run starts `warmupMs` before the range, so the range begins in full swing and meets the
 * calls before it without a dip; a range at the very start of the history starts cold instead.
 */
export function* simulatePast(run: PastRun): Generator<PastCalls> {
  const timeline = createTimeline(run.origin, run.speed);
  const { since, from, to } = run.range;
  const { handover } = run;
  const start = Math.max(timeline.toSim(since), timeline.toSim(from) - run.warmupMs);
  // Events at integer simulated times up to `end - 1` run; later calls end after `to` or after the handover.
  const end = Math.min(timeline.toSim(to) + Math.ceil(run.speed) + 1, handover + 1);
  const inRange = (call: ProviderCall, through: number) =>
    call.startedAt >= since && (call.endedAt as number) >= from && (call.endedAt as number) < through;

  // A run from the start of the history is the seed's own, as it always was; any later one draws its own traffic.
  const ownSeed = deriveSeed(run.seed, `past-${start}`);
  let ended: ProviderCall[] = [];
  const trail = new AgentStateTrail(timeline.toClock);
  const center = new CallCenter(
    {
      seed: start === timeline.toSim(since) ? run.seed : ownSeed,
      callIDSeed: ownSeed,
      presenceSeed: run.seed,
      dialMode: run.dialMode,
      traffic: run.traffic,
      keepEndedMs: run.keepEndedMs,
      callIDPrefix: callIDPrefix(ownSeed, start),
      sipHost: run.sipHost,
      queues: run.queues,
      onCallEnded: (call) => {
        if (call.endedAt !== undefined && call.endedAt <= handover) ended.push(toClockTimes(call, timeline.toClock));
      },
      onAgentChanged: trail.observe,
    },
    createDirectory({ seed: run.seed, agents: run.agents, emailDomain: run.emailDomain }),
    start,
  );

  // Past the handover the live center's own calls take over: this run covers the range only up to there.
  const finalThrough = end > handover ? Math.min(to, timeline.toClock(end)) : to;
  let batch: ProviderCall[] = [];
  let lastThrough = from;
  let lastFlush = start;
  for (let now = start; now < end;) {
    now = Math.min(now + STEP_MS, end);
    center.advanceTo(now - 1);
    const through = now === end ? finalThrough : Math.max(from, Math.min(to, timeline.toClock(now)));
    // With speed above 1 a call that ended just before `now` can map to `through` itself: it waits for the next batch.
    const held: ProviderCall[] = [];
    for (const call of ended) {
      if (inRange(call, through)) batch.push(call);
      else if ((call.endedAt as number) >= through && through < to) held.push(call);
    }
    ended = held;
    if (now < end && batch.length < FLUSH_AT_CALLS && now - lastFlush < FLUSH_EVERY_MS) continue;
    while (batch.length > PAST_BATCH_CALLS) yield { calls: batch.splice(0, PAST_BATCH_CALLS), through: lastThrough, agentStates: [] };
    yield { calls: batch, through, agentStates: trail.take(from, through) };
    batch = [];
    lastThrough = through;
    lastFlush = now;
  }
  if (start >= end) yield { calls: [], through: finalThrough, agentStates: [] };
}

/** A call of simulated times with its times on the clock. */
export const toClockTimes = (call: ProviderCall, toClock: (simTime: number) => number): ProviderCall => {
  const mapped: ProviderCall = { ...call, startedAt: toClock(call.startedAt) };
  if (call.answeredAt !== undefined) mapped.answeredAt = toClock(call.answeredAt);
  if (call.endedAt !== undefined) mapped.endedAt = toClock(call.endedAt);
  return mapped;
};
