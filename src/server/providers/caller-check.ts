/** Whether a subscriber may place a call right now, with the reason in words a user can act on. */
import type { Subscriber } from '../../contract/subscriber.js';
import { type PlaceCallRequest, SubscriberRejection } from './phone-system.js';

export const checkCaller = (subscriber: Subscriber | undefined, request: PlaceCallRequest): Subscriber => {
  if (!subscriber) {
    throw new SubscriberRejection(
      'subscriber_not_found',
      `No subscriber "${request.providerSubscriberID}" exists on this phone system`,
    );
  }
  const person = `${subscriber.firstName} ${subscriber.lastName}`;
  const who = `Extension ${subscriber.extension} (${person})`;
  const mismatch = describeMismatch(subscriber, request);
  if (mismatch) {
    throw new SubscriberRejection(
      'subscriber_mismatch',
      `Subscriber ${subscriber.providerSubscriberID} is extension ${subscriber.extension} (${person}), ${mismatch}`,
    );
  }
  if (!subscriber.active) {
    throw new SubscriberRejection('subscriber_inactive', `${who} is inactive: their account is disabled`);
  }
  // Unknown (null) is no refusal: the provider tells by the call itself.
  if (subscriber.registered === false) {
    throw new SubscriberRejection('subscriber_not_registered', `${who} is not registered: their phone is offline`);
  }
  return subscriber;
};

const describeMismatch = (subscriber: Subscriber, request: PlaceCallRequest): string | undefined => {
  const { providerSubscriberExtension: extension, providerSubscriberNumber: number } = request;
  if (extension !== undefined && extension !== subscriber.extension) return `not extension ${extension}`;
  if (number !== undefined && number !== subscriber.number) {
    return `whose number is ${subscriber.number}, not ${number}`;
  }
  return undefined;
};
