/**
 * The fields of a provider's call, listed once: what a diff compares, what the wire record and the
 * journal row carry, and the journal's column for each are all derived from this list, so a field
 * added to `ProviderCall` cannot silently miss the stream or the journal.
 */
import type { ProviderCall } from './phone-system.js';

/** How a field is stored: text, a 0 / 1 flag, or epoch ms; `optional` fields may be absent. */
export type FieldKind = 'text' | 'flag' | 'time';

export interface CallFieldSpec {
  column: string;
  kind: FieldKind;
  optional: boolean;
}

const field = <C extends string, K extends FieldKind, O extends boolean>(column: C, kind: K, optional: O) => ({ column, kind, optional });

/** Every field of `ProviderCall` but its ID, in the spec's order (section 2.1). */
export const CALL_FIELDS = {
  providerCallID: field('provider_call_id', 'text', false),
  isOutbound: field('is_outbound', 'flag', false),
  isMissedCall: field('is_missed', 'flag', false),
  remoteNumber: field('remote_number', 'text', false),
  remoteName: field('remote_name', 'text', true),
  startedAt: field('started_at', 'time', false),
  answeredAt: field('answered_at', 'time', true),
  endedAt: field('ended_at', 'time', true),
  chosenContactID: field('chosen_contact_id', 'text', true),
  subscriberID: field('subscriber_id', 'text', true),
  subscriberFirstName: field('subscriber_first_name', 'text', true),
  subscriberLastName: field('subscriber_last_name', 'text', true),
  subscriberEmail: field('subscriber_email', 'text', true),
  subscriberExtension: field('subscriber_extension', 'text', true),
  subscriberNumber: field('subscriber_number', 'text', true),
  // Extensions, after the spec's fields.
  subscriberAnsweredAt: field('subscriber_answered_at', 'time', true),
  endedBy: field('ended_by', 'text', true),
  calledNumber: field('called_number', 'text', true),
  queueID: field('queue_id', 'text', true),
  queueName: field('queue_name', 'text', true),
} as const satisfies { [K in Exclude<keyof ProviderCall, 'callID'>]-?: CallFieldSpec & { optional: undefined extends ProviderCall[K] ? true : false } };

export type CallField = keyof typeof CALL_FIELDS;

export const CALL_FIELD_NAMES = Object.keys(CALL_FIELDS) as CallField[];

/** The subscriber's fields: one person's, taken or replaced together. */
export const SUBSCRIBER_FIELDS = [
  'subscriberID',
  'subscriberFirstName',
  'subscriberLastName',
  'subscriberEmail',
  'subscriberExtension',
  'subscriberNumber',
] as const satisfies readonly CallField[];

export type SubscriberField = (typeof SUBSCRIBER_FIELDS)[number];

/** Every one of the subscriber's fields, as a call that has a subscriber carries them. */
export type SubscriberFields = Required<Pick<ProviderCall, SubscriberField>>;

type Spec<F extends CallField> = (typeof CALL_FIELDS)[F];
type ColumnValue<S extends CallFieldSpec> = (S['kind'] extends 'text' ? string : number) | (S['optional'] extends true ? null : never);

/** A call's fields as the wire record carries them: a time as ISO 8601 text, the rest as the call holds it; optional where the call's are. */
export type WireCallFields = { [F in keyof ProviderCall]: F extends CallField ? (Spec<F>['kind'] extends 'time' ? string : ProviderCall[F]) : ProviderCall[F] };

/** The journal's columns for a call's fields, typed from the list above. */
export type CallFieldColumns = { [F in CallField as Spec<F>['column']]: ColumnValue<Spec<F>> };

/** Whether two versions of a call carry the same values in every field. */
export const sameCall = (a: ProviderCall, b: ProviderCall): boolean => {
  if (a === b) return true;
  for (const name of CALL_FIELD_NAMES) if (a[name] !== b[name]) return false;
  return true;
};
