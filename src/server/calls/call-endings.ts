/**
 * The rules of a call's course, owned by the service whatever the provider: what the service keeps
 * of what it knew when a provider (a list or a pushed update) tells less, when a call is missed,
 * and the end the service gives a call that leaves the provider's list without one. Pure functions;
 * the calls they apply to are kept by `KnownCalls`.
 */
import { SUBSCRIBER_FIELDS } from '../providers/call-fields.js';
import type { CallUpdate, ProviderCall } from '../providers/phone-system.js';

/** Inbound and never answered: the spec's missed call. */
export const isMissed = (call: Pick<ProviderCall, 'isOutbound' | 'answeredAt'>): boolean => !call.isOutbound && call.answeredAt === undefined;

/** An inbound call that ended without an answer is missed, whoever saw the end. */
const settled = (call: ProviderCall): ProviderCall =>
  call.endedAt !== undefined && !call.isMissedCall && isMissed(call) ? { ...call, isMissedCall: true } : call;

/**
 * The provider's latest version of a call, with what the service knew before kept where the
 * provider now tells less: the earliest start and answer seen, the first end the provider gave
 * (a provider's end is final; one the service set is not), a remote number, name, contact,
 * dialed number and subscriber once known, the first queue it was in, and who ended it through the service. Returns `incoming` itself when nothing was kept.
 */
export const withKnownFacts = (incoming: ProviderCall, before: ProviderCall | undefined, beforeEndedByService = false): ProviderCall => {
  if (!before) return settled(incoming);
  const kept: Partial<ProviderCall> = {};
  if (before.startedAt < incoming.startedAt) kept.startedAt = before.startedAt;
  if (before.answeredAt !== undefined && !(incoming.answeredAt !== undefined && incoming.answeredAt <= before.answeredAt)) kept.answeredAt = before.answeredAt;
  if (before.endedAt !== undefined && !beforeEndedByService && incoming.endedAt !== before.endedAt) kept.endedAt = before.endedAt;
  if (incoming.remoteNumber === '' && before.remoteNumber !== '') kept.remoteNumber = before.remoteNumber;
  if (incoming.remoteName === undefined && before.remoteName !== undefined) kept.remoteName = before.remoteName;
  if (incoming.chosenContactID === undefined && before.chosenContactID !== undefined) kept.chosenContactID = before.chosenContactID;
  if (before.subscriberAnsweredAt !== undefined && !(incoming.subscriberAnsweredAt !== undefined && incoming.subscriberAnsweredAt <= before.subscriberAnsweredAt))
    kept.subscriberAnsweredAt = before.subscriberAnsweredAt;
  // Who ended a call is the service's own record: no provider tells it.
  if (incoming.endedBy === undefined && before.endedBy !== undefined) kept.endedBy = before.endedBy;
  if (incoming.calledNumber === undefined && before.calledNumber !== undefined) kept.calledNumber = before.calledNumber;
  // A call keeps the first queue it was known in: a transfer to another queue does not move it.
  if (before.queueID !== undefined && incoming.queueID !== before.queueID) {
    kept.queueID = before.queueID;
    kept.queueName = before.queueName;
  }
  if (incoming.subscriberID === undefined && before.subscriberID !== undefined)
    for (const field of SUBSCRIBER_FIELDS) if (before[field] !== undefined) kept[field] = before[field];
  return settled(Object.keys(kept).length === 0 ? incoming : { ...incoming, ...kept });
};

/** The fields a pushed update needs to make a call the service did not know yet. */
const REQUIRED_TO_CREATE = ['providerCallID', 'isOutbound', 'remoteNumber', 'startedAt'] as const;

/** The call an update tells of, when it tells enough to make one; undefined otherwise. */
export const callFromUpdate = (update: CallUpdate): ProviderCall | undefined => {
  const fields = { ...update.defaults, ...definedFields(update.fields) };
  if (REQUIRED_TO_CREATE.some((field) => fields[field] === undefined)) return undefined;
  return settled({ isMissedCall: false, ...fields, callID: update.callID } as ProviderCall);
};

const definedFields = (fields: CallUpdate['fields']): CallUpdate['fields'] =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/**
 * A known call with an update's fields applied: fields the update leaves out stay as they were,
 * and a new subscriber replaces the old one's fields together. Facts are kept as for a list.
 */
export const withUpdate = (before: ProviderCall, update: CallUpdate, beforeEndedByService: boolean): ProviderCall => {
  const { fields } = update;
  const next: ProviderCall = { ...before };
  if (fields.subscriberID !== undefined && fields.subscriberID !== before.subscriberID) for (const field of SUBSCRIBER_FIELDS) delete next[field];
  for (const [field, value] of Object.entries(fields)) if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  // A pushed end replaces one the service set when the call left a list.
  return withKnownFacts(next, before, beforeEndedByService || fields.endedAt !== undefined);
};

/** The service's end of a call that left the provider's list without one, at `at` (never before its start or answer). */
export const withEnd = (call: ProviderCall, at: number): ProviderCall =>
  settled({ ...call, endedAt: Math.max(at, call.answeredAt ?? call.startedAt) });
