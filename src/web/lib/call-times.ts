/**
 * A call's times in epoch milliseconds, parsed once per record. Records are never changed in
 * place, and an unchanged call keeps its object from one update to the next, so the tiles, the
 * duration column and the sorts do not parse 10,000 timestamps again on every update.
 */
import type { CallRecord } from '../../contract/call-record.js';

type Timed = Pick<CallRecord, 'startedAt' | 'answeredAt' | 'endedAt'>;

export interface CallTimes {
  startedAt: number;
  answeredAt: number | undefined;
  endedAt: number | undefined;
}

const parsed = new WeakMap<Timed, CallTimes>();

export const callTimes = (call: Timed): CallTimes => {
  let times = parsed.get(call);
  if (!times) {
    times = {
      startedAt: Date.parse(call.startedAt),
      answeredAt: call.answeredAt === undefined ? undefined : Date.parse(call.answeredAt),
      endedAt: call.endedAt === undefined ? undefined : Date.parse(call.endedAt),
    };
    parsed.set(call, times);
  }
  return times;
};
