/**
 * The callers to call back: the missed callers the service's journal lists, and those the live feed
 * shows giving up since, one entry per number, oldest first, until someone reaches them (a callback
 * answered, or their own call answered). Withheld numbers cannot be called back: only counted.
 */
import type { CallRecord } from '../../../../contract/call-record.js';
import type { MissedCall } from '../../../../contract/service-levels.js';
import { callTimes } from '../../../lib/call-times.js';
import { perList } from '../../../lib/per-list.js';

export interface ToCallBack {
  remoteNumber: string;
  remoteName?: string;
  /** The agent the latest missed call rang, if any: "Call back" offers them first. */
  subscriberID?: string;
  firstMissedAt: number;
  lastMissedAt: number;
  missedCalls: number;
  /** Outbound calls to the number since the first missed call. */
  attempts: number;
}

export interface CallBackList {
  entries: ToCallBack[];
  /** Missed callers who withheld their number. */
  withheld: number;
}

interface Missed {
  callID: string;
  remoteNumber: string;
  remoteName?: string;
  subscriberID?: string;
  startedAt: number;
  endedAt: number;
  attempts: number;
  reached: boolean;
}

const fromJournal = (call: MissedCall): Missed => ({
  callID: call.callID,
  remoteNumber: call.remoteNumber,
  ...(call.remoteName === undefined ? {} : { remoteName: call.remoteName }),
  ...(call.subscriberID === undefined ? {} : { subscriberID: call.subscriberID }),
  startedAt: Date.parse(call.startedAt),
  endedAt: Date.parse(call.endedAt),
  attempts: call.attempts,
  reached: call.reachedAt !== undefined,
});

/** An abandoned call of the live feed (as the service defines it): inbound, never answered, ended, not a short abandon. */
const abandonedLive = (call: CallRecord, shortAbandonMs: number): Missed | undefined => {
  if (call.isOutbound || call.answeredAt !== undefined || call.endedAt === undefined) return undefined;
  const { startedAt, endedAt } = callTimes(call);
  if ((endedAt as number) - startedAt < shortAbandonMs) return undefined;
  return {
    callID: call.callID,
    remoteNumber: call.remoteNumber,
    ...(call.remoteName === undefined ? {} : { remoteName: call.remoteName }),
    ...(call.subscriberID === undefined ? {} : { subscriberID: call.subscriberID }),
    startedAt,
    endedAt: endedAt as number,
    attempts: 0,
    reached: false,
  };
};

const byStart = (a: Missed, b: Missed) => a.startedAt - b.startedAt;

const append = <T>(map: Map<string, T[]>, key: string, value: T) => {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
};

/**
 * The journal's missed callers by call and by number (each number's oldest first): worked out when
 * the journal answers, about once a minute, not again on every change of the live feed.
 */
const journalIndex = perList((journal: readonly MissedCall[]) => {
  const byID = new Map<string, Missed>(journal.map((call) => [call.callID, fromJournal(call)]));
  const byNumber = new Map<string, Missed[]>();
  let withheld = 0;
  for (const call of byID.values()) {
    if (call.remoteNumber === '') withheld += 1;
    else append(byNumber, call.remoteNumber, call);
  }
  for (const calls of byNumber.values()) calls.sort(byStart);
  return { byID, byNumber, withheld };
});

/** The live feed's callers who gave up (inbound, never answered, ended) that the journal does not hold yet, as one key. */
export const newlyMissedKey = (journal: readonly MissedCall[], liveCalls: readonly CallRecord[]): string => {
  const { byID } = journalIndex(journal);
  return liveCalls
    .filter((call) => !call.isOutbound && call.answeredAt === undefined && call.endedAt !== undefined && !byID.has(call.callID))
    .map((call) => call.callID)
    .sort()
    .join(' ');
};

export const toCallBack = (journal: readonly MissedCall[], liveCalls: readonly CallRecord[], shortAbandonMs: number): CallBackList => {
  const index = journalIndex(journal);
  // Callers the live feed shows giving up that the journal does not hold yet.
  const liveIDs = new Set<string>();
  const liveByNumber = new Map<string, Missed[]>();
  let withheld = index.withheld;
  for (const call of liveCalls) {
    if (index.byID.has(call.callID) || liveIDs.has(call.callID)) continue;
    const live = abandonedLive(call, shortAbandonMs);
    if (!live) continue;
    liveIDs.add(call.callID);
    if (live.remoteNumber === '') withheld += 1;
    else append(liveByNumber, live.remoteNumber, live);
  }
  const missedCall = (callID: string) => index.byID.has(callID) || liveIDs.has(callID);
  const missedWith = (remoteNumber: string): Missed[] | undefined => {
    const held = index.byNumber.get(remoteNumber);
    const live = liveByNumber.get(remoteNumber);
    return live ? [...(held ?? []), ...live].sort(byStart) : held;
  };
  // What the live feed shows since the journal answered: callbacks placed, and calls with the number answered.
  const liveWith = new Map<string, CallRecord[]>();
  for (const call of liveCalls)
    if (index.byNumber.has(call.remoteNumber) || liveByNumber.has(call.remoteNumber))
      append(liveWith, call.remoteNumber, call);

  const entries: ToCallBack[] = [];
  for (const remoteNumber of new Set([...index.byNumber.keys(), ...liveByNumber.keys()])) {
    const calls = missedWith(remoteNumber) as Missed[];
    const first = calls[0] as Missed;
    const last = calls.at(-1) as Missed;
    const others = (liveWith.get(remoteNumber) ?? []).filter((call) => !missedCall(call.callID));
    const reachedLive = others.some((call) => call.answeredAt !== undefined && callTimes(call).startedAt > last.startedAt);
    if (last.reached || reachedLive) continue;
    const liveAttempts = others.filter((call) => call.isOutbound && callTimes(call).startedAt >= first.endedAt).length;
    entries.push({
      remoteNumber,
      ...(last.remoteName === undefined ? {} : { remoteName: last.remoteName }),
      ...(last.subscriberID === undefined ? {} : { subscriberID: last.subscriberID }),
      firstMissedAt: first.startedAt,
      lastMissedAt: last.startedAt,
      missedCalls: calls.length,
      // The journal's count already holds the callbacks it has; the live feed's are a floor until it does.
      attempts: Math.max(first.attempts, liveAttempts),
    });
  }
  entries.sort((a, b) => a.firstMissedAt - b.firstMissedAt || (a.remoteNumber < b.remoteNumber ? -1 : 1));
  return { entries, withheld };
};
