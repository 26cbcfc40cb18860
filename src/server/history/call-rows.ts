/** Converts between a provider's call and its journal row, field by field from the one list of call fields. */
import type { Selectable } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import { CALL_FIELD_NAMES, CALL_FIELDS } from '../providers/call-fields.js';
import type { JournaledCall } from '../calls/call-journal.js';
import type { ProviderCall } from '../providers/phone-system.js';
import type { CallsTable } from './history-tables.js';

export type CallRow = Selectable<CallsTable>;

/** The journal's columns of a call's fields, in the list's order. */
export const CALL_COLUMNS = CALL_FIELD_NAMES.map((name) => CALL_FIELDS[name].column);

export const toCallRow = (scope: ProviderScope, call: ProviderCall, closedBySync = false): CallRow => {
  const row: Record<string, unknown> = {
    account_id: scope.accountID,
    application_id: scope.applicationID,
    provider_id: scope.providerID,
    call_id: call.callID,
    closed_by_sync: closedBySync ? 1 : 0,
  };
  for (const name of CALL_FIELD_NAMES) {
    const value = call[name];
    const { column, kind } = CALL_FIELDS[name];
    row[column] = value === undefined ? null : kind === 'flag' ? (value ? 1 : 0) : value;
  }
  return row as unknown as CallRow;
};


/** A row as read back: PostgreSQL answers bigints as strings, so numbers are read with Number(). */
export const fromCallRow = (row: CallRow): JournaledCall => {
  const columns = row as unknown as Record<string, unknown>;
  const call: Record<string, unknown> = { callID: row.call_id };
  for (const name of CALL_FIELD_NAMES) {
    const { column, kind } = CALL_FIELDS[name];
    const value = columns[column];
    if (value === null || value === undefined) continue;
    call[name] = kind === 'flag' ? Number(value) === 1 : kind === 'time' ? Number(value) : value;
  }
  call.closedBySync = Number(row.closed_by_sync) === 1;
  return call as unknown as JournaledCall;
};
