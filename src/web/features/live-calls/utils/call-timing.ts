/** How long a call has lasted, by one rule shared by the duration cell, the duration sort and the CSV. */
import type { CallRecord } from '../../../../contract/call-record.js';
import { callTimes } from '../../../lib/call-times.js';

/** What the number measures, shown beside it so "0:40" is never ambiguous. */
type TimedPhase = 'ring' | 'talk' | 'total';

export interface CallTiming {
  ms: number;
  phase: TimedPhase;
}

/**
 * A live call counts the phase the thresholds judge (ring time before an answer, talk time after);
 * a finished call counts its whole length, start to end.
 */
export const callTiming = (call: Pick<CallRecord, 'startedAt' | 'answeredAt' | 'endedAt'>, now: number): CallTiming => {
  const times = callTimes(call);
  if (times.endedAt !== undefined) return { ms: times.endedAt - times.startedAt, phase: 'total' };
  if (times.answeredAt !== undefined) return { ms: now - times.answeredAt, phase: 'talk' };
  return { ms: now - times.startedAt, phase: 'ring' };
};
