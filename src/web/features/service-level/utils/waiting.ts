/** Who is waiting now, from the live calls: inbound callers neither answered nor gone (queued, or ringing an agent). */
import type { CallRecord } from '../../../../contract/call-record.js';
import { callTimes } from '../../../lib/call-times.js';
import { perList } from '../../../lib/per-list.js';

export interface Waiting {
  count: number;
  /** How long the longest-waiting caller has waited, when anyone waits. */
  longestMs: number | undefined;
  /** Of them, the ones no agent is ringing yet (in the queue). */
  queued: number;
}

/** Who waits in a list, the clock aside: one pass per update of the feed, shared by the tiles and the alerts. */
const waitingIn = perList((calls: readonly CallRecord[]) => {
  let count = 0;
  let queued = 0;
  let earliest: number | undefined;
  for (const call of calls) {
    if (call.isOutbound || call.answeredAt !== undefined || call.endedAt !== undefined) continue;
    count += 1;
    if (call.subscriberID === undefined) queued += 1;
    const { startedAt } = callTimes(call);
    if (earliest === undefined || startedAt < earliest) earliest = startedAt;
  }
  return { count, queued, earliest };
});

export const waitingNow = (calls: readonly CallRecord[], now: number): Waiting => {
  const { count, queued, earliest } = waitingIn(calls);
  return { count, queued, longestMs: earliest === undefined ? undefined : Math.max(0, now - earliest) };
};
