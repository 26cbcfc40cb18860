/** Text derived from a call's fields, shared by the cells, the search, the sort and the filters. */
import type { CallRecord } from '../../../../contract/call-record.js';
import { formatPhoneNumber } from '../../../lib/format.js';
import type { CountryCode } from '../../../lib/phone-country.js';

export type Direction = 'inbound' | 'outbound';

export const directions: readonly Direction[] = ['inbound', 'outbound'];

export const directionLabel: Record<Direction, string> = { inbound: 'Inbound', outbound: 'Outbound' };

export const callDirection = (call: Pick<CallRecord, 'isOutbound'>): Direction => (call.isOutbound ? 'outbound' : 'inbound');

/** "Ada Lovelace", or '' when the provider knows no name. */
export const subscriberName = (call: Pick<CallRecord, 'subscriberFirstName' | 'subscriberLastName'>): string =>
  [call.subscriberFirstName, call.subscriberLastName].filter(Boolean).join(' ');

/** "Globex Corp (+1 555 0100)", the number alone, or the name of a caller who withheld their number. */
export const remoteParty = (call: Pick<CallRecord, 'remoteNumber' | 'remoteName'>, country: CountryCode): string => {
  if (call.remoteNumber === '') return call.remoteName ?? 'a caller who withheld their number';
  const number = formatPhoneNumber(call.remoteNumber, country);
  return call.remoteName ? `${call.remoteName} (${number})` : number;
};

/** "Maya Chen (ext. 107)", "subscriber agt-7", or "no agent yet". */
export const agentOf = (call: CallRecord): string => {
  const name = subscriberName(call);
  if (!name) return call.subscriberID ? `subscriber ${call.subscriberID}` : 'no agent yet';
  return call.subscriberExtension ? `${name} (ext. ${call.subscriberExtension})` : name;
};
