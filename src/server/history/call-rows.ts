/** Converts between a provider's call and its journal row. */
import type { Selectable } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import type { ProviderCall } from '../providers/phone-system.js';
import type { CallsTable } from './history-tables.js';

export type CallRow = Selectable<CallsTable>;

export const toCallRow = (scope: ProviderScope, call: ProviderCall, closedBySync = false): CallRow => ({
  account_id: scope.accountID,
  application_id: scope.applicationID,
  provider_id: scope.providerID,
  call_id: call.callID,
  provider_call_id: call.providerCallID,
  is_outbound: call.isOutbound ? 1 : 0,
  is_missed: call.isMissedCall ? 1 : 0,
  remote_number: call.remoteNumber,
  remote_name: call.remoteName ?? null,
  started_at: call.startedAt,
  answered_at: call.answeredAt ?? null,
  ended_at: call.endedAt ?? null,
  closed_by_sync: closedBySync ? 1 : 0,
  chosen_contact_id: call.chosenContactID ?? null,
  subscriber_id: call.subscriberID ?? null,
  subscriber_first_name: call.subscriberFirstName ?? null,
  subscriber_last_name: call.subscriberLastName ?? null,
  subscriber_email: call.subscriberEmail ?? null,
  subscriber_extension: call.subscriberExtension ?? null,
  subscriber_number: call.subscriberNumber ?? null,
});

/** A journaled call, with whether the service (not the provider) closed it. */
export interface JournaledCall extends ProviderCall {
  closedBySync: boolean;
}

const optional = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export const fromCallRow = (row: CallRow): JournaledCall => {
  const call: JournaledCall = {
    callID: row.call_id,
    providerCallID: row.provider_call_id,
    isOutbound: Number(row.is_outbound) === 1,
    isMissedCall: Number(row.is_missed) === 1,
    remoteNumber: row.remote_number,
    remoteName: optional(row.remote_name),
    startedAt: Number(row.started_at),
    answeredAt: row.answered_at === null ? undefined : Number(row.answered_at),
    endedAt: row.ended_at === null ? undefined : Number(row.ended_at),
    chosenContactID: optional(row.chosen_contact_id),
    subscriberID: optional(row.subscriber_id),
    subscriberFirstName: optional(row.subscriber_first_name),
    subscriberLastName: optional(row.subscriber_last_name),
    subscriberEmail: optional(row.subscriber_email),
    subscriberExtension: optional(row.subscriber_extension),
    subscriberNumber: optional(row.subscriber_number),
    closedBySync: Number(row.closed_by_sync) === 1,
  };
  for (const key of Object.keys(call) as (keyof JournaledCall)[]) if (call[key] === undefined) delete call[key];
  return call;
};
