/**
 * The recent calls of each queue, summed by the minute they started in (their service-level
 * figures) and the minute they ended in (their handle time), so the last 15 and 30 minutes are a
 * few dozen sums and one minute of calls at each edge, not a walk over every call of the half hour.
 * A call's share is taken out and its new version's put in as it changes; minutes older than the
 * windows are let go.
 */
import { emptySums } from '../history/service-level-figures.js';
import type { ServiceLevelSums } from '../history/service-level-query.js';
import type { ProviderCall } from '../providers/phone-system.js';

const MINUTE = 60_000;

export interface WindowParameters {
  answerWithinMs: number;
  shortAbandonMs: number;
}

/** A queue's key: its ID, or '' for the calls in no queue. */
export type QueueKey = string;
export const keyOf = (call: Pick<ProviderCall, 'queueID'>): QueueKey => call.queueID ?? '';

export interface Handled {
  handled: number;
  handleMs: number;
}

type AddCall = (sums: ServiceLevelSums, call: ProviderCall, p: WindowParameters, sign: 1 | -1) => void;

const minuteOf = (ms: number) => Math.floor(ms / MINUTE);

export class QueueWindows {
  /** By queue, then by the minute of start: the service-level sums of its inbound calls. */
  private readonly started = new Map<QueueKey, Map<number, ServiceLevelSums>>();
  /** By queue, then by the minute of end: its answered calls that ended, and their handle time. */
  private readonly ended = new Map<QueueKey, Map<number, Handled>>();
  /** By queue, the calls (as last taken) by the minute they started in, and ended in: what a window's edge minutes are read from. */
  private readonly startIndex = new Map<QueueKey, Map<number, Set<ProviderCall>>>();
  private readonly endIndex = new Map<QueueKey, Map<number, Set<ProviderCall>>>();
  /** Minutes before this are let go, and a call's share in them is neither added nor taken out. */
  private floor = -Infinity;

  constructor(
    private readonly parametersOf: (key: QueueKey) => WindowParameters,
    private readonly addCall: AddCall,
  ) {}

  clear(): void {
    this.started.clear();
    this.ended.clear();
    this.startIndex.clear();
    this.endIndex.clear();
  }

  /** Adds (1) or takes out (-1) a call's share. */
  apply(call: ProviderCall, sign: 1 | -1): void {
    if (call.isOutbound) return;
    const key = keyOf(call);
    const start = minuteOf(call.startedAt);
    if (start >= this.floor) {
      this.addCall(bucket(this.started, key, start, emptySums), call, this.parametersOf(key), sign);
      index(this.startIndex, key, start, call, sign);
    }
    if (call.answeredAt !== undefined && call.endedAt !== undefined) {
      const end = minuteOf(call.endedAt);
      if (end >= this.floor) {
        const handled = bucket(this.ended, key, end, () => ({ handled: 0, handleMs: 0 }));
        handled.handled += sign;
        handled.handleMs += sign * (call.endedAt - call.answeredAt);
        index(this.endIndex, key, end, call, sign);
      }
    }
  }

  /** Lets go of the minutes before `from`. */
  prune(from: number): void {
    this.floor = minuteOf(from);
    for (const byKey of [this.started, this.ended, this.startIndex, this.endIndex] as Map<QueueKey, Map<number, unknown>>[])
      for (const byMinute of byKey.values()) for (const minute of byMinute.keys()) if (minute < this.floor) byMinute.delete(minute);
  }

  /** The sums of the queue's inbound calls that started in [from, to]. */
  startedBetween(key: QueueKey, from: number, to: number): ServiceLevelSums {
    const sums = emptySums();
    const p = this.parametersOf(key);
    const first = minuteOf(from);
    const last = minuteOf(to);
    const byMinute = this.started.get(key);
    // Whole minutes from their sums; the minutes at either edge call by call.
    for (let minute = first + 1; minute < last; minute += 1) {
      const held = byMinute?.get(minute);
      if (held) addSums(sums, held);
    }
    const calls = this.startIndex.get(key);
    for (const minute of first === last ? [first] : [first, last])
      for (const call of calls?.get(minute) ?? []) if (call.startedAt >= from && call.startedAt <= to) this.addCall(sums, call, p, 1);
    return sums;
  }

  /** The queue's answered calls that ended in [from, to], and their handle time. */
  endedBetween(key: QueueKey, from: number, to: number): Handled {
    const total: Handled = { handled: 0, handleMs: 0 };
    const first = minuteOf(from);
    const last = minuteOf(to);
    const byMinute = this.ended.get(key);
    for (let minute = first + 1; minute < last; minute += 1) {
      const held = byMinute?.get(minute);
      if (held) {
        total.handled += held.handled;
        total.handleMs += held.handleMs;
      }
    }
    const calls = this.endIndex.get(key);
    for (const minute of first === last ? [first] : [first, last])
      for (const call of calls?.get(minute) ?? [])
        if (call.endedAt! >= from && call.endedAt! <= to) {
          total.handled += 1;
          total.handleMs += call.endedAt! - call.answeredAt!;
        }
    return total;
  }
}

const bucket = <T>(byKey: Map<QueueKey, Map<number, T>>, key: QueueKey, minute: number, make: () => T): T => {
  let byMinute = byKey.get(key);
  if (!byMinute) byKey.set(key, (byMinute = new Map()));
  let held = byMinute.get(minute);
  if (held === undefined) byMinute.set(minute, (held = make()));
  return held;
};

const index = (byKey: Map<QueueKey, Map<number, Set<ProviderCall>>>, key: QueueKey, minute: number, call: ProviderCall, sign: 1 | -1) => {
  let byMinute = byKey.get(key);
  if (!byMinute) byKey.set(key, (byMinute = new Map()));
  let calls = byMinute.get(minute);
  if (!calls) byMinute.set(minute, (calls = new Set()));
  if (sign === 1) calls.add(call);
  else calls.delete(call);
};

/** `sums` with `more` added in place (the maximum only grows). */
const addSums = (sums: ServiceLevelSums, more: ServiceLevelSums): void => {
  sums.offered += more.offered;
  sums.answered += more.answered;
  sums.answeredWithin += more.answeredWithin;
  sums.shortAbandoned += more.shortAbandoned;
  sums.abandoned += more.abandoned;
  sums.waiting += more.waiting;
  sums.answerMsSum += more.answerMsSum;
  if (more.answerMsMax !== undefined && (sums.answerMsMax === undefined || more.answerMsMax > sums.answerMsMax)) sums.answerMsMax = more.answerMsMax;
  sums.talkMsSum += more.talkMsSum;
  sums.talked += more.talked;
  more.answeredWithinBounds.forEach((n, i) => {
    sums.answeredWithinBounds[i] = (sums.answeredWithinBounds[i] ?? 0) + n;
  });
};
