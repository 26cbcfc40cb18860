/** What the tiles read from the live calls: counts by direction and state, the longest call, threshold crossings. */
import type { CallRecord } from '../../../../contract/call-record.js';
import { isLive } from '../../../lib/call-state.js';
import { callTimes } from '../../../lib/call-times.js';
import { perList } from '../../../lib/per-list.js';
import type { Thresholds } from '../../../lib/thresholds.js';

export interface LongestCall {
  call: CallRecord;
  /** Talk time so far: from the answer, as the long-call threshold measures it. */
  durationMs: number;
  overThreshold: boolean;
}

export interface LiveStats {
  live: number;
  inbound: number;
  outbound: number;
  /** Live and not yet answered, both directions. */
  ringing: number;
  /** Ringing for longer than the long-ring threshold. */
  longRings: number;
  longestRingMs: number | undefined;
  longest: LongestCall | undefined;
  /** At or above the concurrent-calls threshold. */
  atLimit: boolean;
}

/** What the tiles need of a list that does not move with the clock: one pass per update of the feed. */
interface ListCounts {
  inbound: number;
  outbound: number;
  /** When each ringing call began. */
  ringStarts: number[];
  earliestRingStart: number | undefined;
  /** The live call answered first. */
  longest: { call: CallRecord; answeredAt: number } | undefined;
}

const listCounts = perList((calls: readonly CallRecord[]): ListCounts => {
  let inbound = 0;
  let outbound = 0;
  const ringStarts: number[] = [];
  let earliestRingStart: number | undefined;
  let longest: ListCounts['longest'];
  for (const call of calls) {
    if (!isLive(call)) continue;
    if (call.isOutbound) outbound += 1;
    else inbound += 1;
    const times = callTimes(call);
    if (times.answeredAt === undefined) {
      ringStarts.push(times.startedAt);
      if (earliestRingStart === undefined || times.startedAt < earliestRingStart) earliestRingStart = times.startedAt;
      continue;
    }
    if (!longest || times.answeredAt < longest.answeredAt) longest = { call, answeredAt: times.answeredAt };
  }
  return { inbound, outbound, ringStarts, earliestRingStart, longest };
});

/** The live calls of a list (ringing or answered, not ended). */
export const liveCallCount = (calls: readonly CallRecord[]): number => {
  const { inbound, outbound } = listCounts(calls);
  return inbound + outbound;
};

/** The tiles' figures at `now`: the list's own pass is shared, only the ringing calls are read again as the clock moves. */
export const liveStats = (calls: readonly CallRecord[], now: number, thresholds: Thresholds): LiveStats => {
  const { inbound, outbound, ringStarts, earliestRingStart, longest } = listCounts(calls);
  let longRings = 0;
  for (const startedAt of ringStarts) if (now - startedAt >= thresholds.longRingMs) longRings += 1;
  const live = inbound + outbound;
  const durationMs = longest ? Math.max(0, now - longest.answeredAt) : 0;
  return {
    live,
    inbound,
    outbound,
    ringing: ringStarts.length,
    longRings,
    longestRingMs: earliestRingStart === undefined ? undefined : Math.max(0, now - earliestRingStart),
    longest: longest ? { call: longest.call, durationMs, overThreshold: durationMs >= thresholds.longCallMs } : undefined,
    atLimit: live >= thresholds.concurrentCalls,
  };
};

/** "Ana Ruiz (201)", or the extension alone, or nothing when no agent is on the call yet. */
export const agentLabel = (call: CallRecord): string | undefined => {
  const name = [call.subscriberFirstName, call.subscriberLastName].filter(Boolean).join(' ');
  if (name && call.subscriberExtension) return `${name} (${call.subscriberExtension})`;
  return name || call.subscriberExtension || undefined;
};
