/** CSV export of the rows on screen: every spec field plus the derived state and duration (RFC 4180). */
import { callRecordSchema, type CallRecord } from '../../../../contract/call-record.js';
import { callState } from '../../../lib/call-state.js';
import { callTiming } from './call-timing.js';

const specFields = Object.keys(callRecordSchema.shape) as (keyof CallRecord)[];

const csvColumns = [...specFields, 'state', 'durationSeconds', 'durationMeasures'] as const;

/**
 * Quotes a cell when RFC 4180 requires it, and defuses text a spreadsheet would run as a formula
 * (a remote name like "=HYPERLINK(...)" comes from outside callers) with a leading apostrophe.
 */
export const csvCell = (value: string): string => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

const row = (call: CallRecord, now: number): string[] => {
  const timing = callTiming(call, now);
  return [
    ...specFields.map((field) => String(call[field] ?? '')),
    callState(call),
    String(Math.max(0, Math.floor(timing.ms / 1000))),
    timing.phase,
  ];
};

export const callsToCsv = (calls: readonly CallRecord[], now: number): string =>
  [[...csvColumns], ...calls.map((call) => row(call, now))].map((cells) => cells.map(csvCell).join(',')).join('\r\n') + '\r\n';

/** "callboard-calls-2026-11-22T14-03-27Z.csv": UTC, so the name sorts and means the same in every zone. */
export const csvFileName = (now: number): string =>
  `callboard-calls-${new Date(now).toISOString().slice(0, 19).replaceAll(':', '-')}Z.csv`;

export const downloadCsv = (text: string, fileName: string): void => {
  // The byte-order mark makes Excel read the file as UTF-8, so names with accents survive.
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked a moment later: some browsers read the blob only after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
