/** CSV export of the rows on screen: every spec field plus the derived state and duration (RFC 4180). */
import { callRecordSchema, type CallRecord } from '../../../../contract/call-record.js';
import { callState } from '../../../lib/call-state.js';
import { csvText } from '../../../../contract/csv.js';
import { callTiming } from './call-timing.js';

const specFields = Object.keys(callRecordSchema.shape) as (keyof CallRecord)[];

const csvColumns = [...specFields, 'state', 'durationSeconds', 'durationMeasures'] as const;

const row = (call: CallRecord, now: number): string[] => {
  const timing = callTiming(call, now);
  return [
    ...specFields.map((field) => String(call[field] ?? '')),
    callState(call),
    String(Math.max(0, Math.floor(timing.ms / 1000))),
    timing.phase,
  ];
};

export const callsToCsv = (calls: readonly CallRecord[], now: number): string => csvText([[...csvColumns], ...calls.map((call) => row(call, now))]);
