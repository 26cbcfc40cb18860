/** The state of a call, derived from its record: the spec has no state field, so the times tell. */
import type { CallRecord } from '../../contract/call-record.js';

export type CallState = 'ringing' | 'talking' | 'missed' | 'ended';

export const callStates: readonly CallState[] = ['ringing', 'talking', 'missed', 'ended'];

export const callState = (call: Pick<CallRecord, 'isMissedCall' | 'endedAt' | 'answeredAt'>): CallState => {
  if (call.isMissedCall) return 'missed';
  if (call.endedAt !== undefined) return 'ended';
  if (call.answeredAt !== undefined) return 'talking';
  return 'ringing';
};

export const callStateLabel: Record<CallState, string> = {
  ringing: 'Ringing',
  talking: 'Talking',
  missed: 'Missed',
  ended: 'Ended',
};

export const isLive = (call: Pick<CallRecord, 'endedAt'>): boolean => call.endedAt === undefined;
