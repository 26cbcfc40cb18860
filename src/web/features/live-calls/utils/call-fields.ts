/** Text derived from a call's fields, shared by the cells, the search, the sort and the filters. */
import type { CallRecord } from '../../../../contract/call-record.js';

export type Direction = 'inbound' | 'outbound';

export const directions: readonly Direction[] = ['inbound', 'outbound'];

export const directionLabel: Record<Direction, string> = { inbound: 'Inbound', outbound: 'Outbound' };

export const callDirection = (call: Pick<CallRecord, 'isOutbound'>): Direction => (call.isOutbound ? 'outbound' : 'inbound');

/** "Ada Lovelace", or '' when the provider knows no name. */
export const subscriberName = (call: Pick<CallRecord, 'subscriberFirstName' | 'subscriberLastName'>): string =>
  [call.subscriberFirstName, call.subscriberLastName].filter(Boolean).join(' ');
