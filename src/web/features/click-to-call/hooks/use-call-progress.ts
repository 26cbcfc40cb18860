/** Follows a placed call through the live list: the record has no state field, so its times tell. */
import { useMemo, useState } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { useNow } from '../../../lib/clock.js';
import type { PlacedCall } from './use-place-call.js';

/** The browser's and the service's clocks may disagree by a few seconds. */
export const CLOCK_TOLERANCE_MS = 10_000;
/** After this long without the call in the list, say so rather than wait forever. */
export const NOT_LISTED_AFTER_MS = 15_000;

export type CallProgress =
  | { phase: 'accepted'; elapsedMs: number }
  | { phase: 'not-listed' }
  | { phase: 'ringing'; elapsedMs: number }
  | { phase: 'connected'; talkMs: number }
  | { phase: 'not-answered'; totalMs: number }
  | { phase: 'ended'; talkMs: number; totalMs: number }
  | { phase: 'gone'; answered: boolean };

/** The list's record of our call: same provider, caller and number, outbound, started around our request. */
export const findPlacedCall = (placed: PlacedCall, calls: readonly CallRecord[]): CallRecord | undefined => {
  let best: CallRecord | undefined;
  let bestDistance = Infinity;
  for (const call of calls) {
    if (!call.isOutbound || call.providerID !== placed.scope.providerID) continue;
    if (call.subscriberID !== placed.subscriberID || call.remoteNumber !== placed.digits) continue;
    const startedAt = Date.parse(call.startedAt);
    if (startedAt < placed.sentAt - CLOCK_TOLERANCE_MS || startedAt > placed.acceptedAt + CLOCK_TOLERANCE_MS) continue;
    const distance = Math.abs(startedAt - placed.sentAt);
    if (distance < bestDistance) {
      best = call;
      bestDistance = distance;
    }
  }
  return best;
};

/**
 * Where the call is now. `lastSeen` is the record as last listed: an ended call keeps its outcome
 * once the list drops it; a live one that vanishes is reported as gone.
 */
export const progressOf = (
  placed: PlacedCall,
  record: CallRecord | undefined,
  lastSeen: CallRecord | undefined,
  now: number,
): CallProgress => {
  const shown = record ?? (lastSeen?.endedAt !== undefined ? lastSeen : undefined);
  if (!shown) {
    if (lastSeen) return { phase: 'gone', answered: lastSeen.answeredAt !== undefined };
    return now - placed.acceptedAt >= NOT_LISTED_AFTER_MS
      ? { phase: 'not-listed' }
      : { phase: 'accepted', elapsedMs: now - placed.sentAt };
  }
  const answeredAt = shown.answeredAt === undefined ? undefined : Date.parse(shown.answeredAt);
  if (shown.endedAt !== undefined) {
    const endedAt = Date.parse(shown.endedAt);
    // "total" as the live table counts it, start to end, beside the talk time.
    const totalMs = endedAt - Date.parse(shown.startedAt);
    return answeredAt === undefined ? { phase: 'not-answered', totalMs } : { phase: 'ended', talkMs: endedAt - answeredAt, totalMs };
  }
  if (answeredAt !== undefined) return { phase: 'connected', talkMs: now - answeredAt };
  return { phase: 'ringing', elapsedMs: now - Date.parse(shown.startedAt) };
};

export const useCallProgress = (placed: PlacedCall, calls: readonly CallRecord[]): CallProgress => {
  const now = useNow();
  const record = useMemo(() => findPlacedCall(placed, calls), [placed, calls]);
  const [lastSeen, setLastSeen] = useState<CallRecord>();
  if (record && record !== lastSeen) setLastSeen(record);
  return progressOf(placed, record, lastSeen, now);
};
