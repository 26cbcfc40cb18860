/** A subscriber's name and whether they can take a call now, in words, for the picker and the agent's own line. */
import type { Subscriber } from '../../../contract/subscriber.js';

/** `online unknown`: the provider cannot tell whether the phone is registered (Twilio); only the call tells. */
export type SubscriberStatus = 'registered' | 'offline' | 'inactive' | 'online unknown';

/** The service checks "active" first, so an inactive subscriber is inactive whatever their phone does. */
export const statusOf = (subscriber: Subscriber): SubscriberStatus =>
  !subscriber.active ? 'inactive' : subscriber.registered === null ? 'online unknown' : subscriber.registered ? 'registered' : 'offline';

export const fullName = (subscriber: Subscriber) => `${subscriber.firstName} ${subscriber.lastName}`;

export const warningFor = (subscriber: Subscriber): string | undefined => {
  switch (statusOf(subscriber)) {
    case 'offline':
      return `${fullName(subscriber)}'s phone is offline (not registered): the call will likely be refused, but you can still try.`;
    case 'inactive':
      return `${fullName(subscriber)}'s account is inactive: the call will likely be refused, but you can still try.`;
    case 'registered':
    case 'online unknown':
      return undefined;
  }
};
