/** What the tiles read from the live calls: counts by direction and state, the longest call, threshold crossings. */
import type { CallRecord } from '../../../../contract/call-record.js';
import { isLive } from '../../../lib/call-state.js';
import { callTimes } from '../../../lib/call-times.js';
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

export const liveStats = (calls: readonly CallRecord[], now: number, thresholds: Thresholds): LiveStats => {
  let inbound = 0;
  let outbound = 0;
  let ringing = 0;
  let longRings = 0;
  let longestRingMs: number | undefined;
  let longest: { call: CallRecord; answeredAt: number } | undefined;
  for (const call of calls) {
    if (!isLive(call)) continue;
    if (call.isOutbound) outbound += 1;
    else inbound += 1;
    if (call.answeredAt === undefined) {
      ringing += 1;
      const ringMs = now - callTimes(call).startedAt;
      if (ringMs >= thresholds.longRingMs) longRings += 1;
      if (longestRingMs === undefined || ringMs > longestRingMs) longestRingMs = ringMs;
      continue;
    }
    const answeredAt = callTimes(call).answeredAt ?? now;
    if (!longest || answeredAt < longest.answeredAt) longest = { call, answeredAt };
  }
  const live = inbound + outbound;
  const durationMs = longest ? Math.max(0, now - longest.answeredAt) : 0;
  return {
    live,
    inbound,
    outbound,
    ringing,
    longRings,
    longestRingMs: longestRingMs === undefined ? undefined : Math.max(0, longestRingMs),
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
