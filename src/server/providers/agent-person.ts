/** The person a provider's configuration names for an agent, whatever reaches their phone (a SIP user, a device, an endpoint). */
import type { Subscriber } from '../../contract/subscriber.js';
import type { SubscriberFields } from './call-fields.js';

export interface AgentPerson {
  subscriberID: string;
  firstName: string;
  lastName: string;
  email: string;
  extension: string;
  number: string;
  active: boolean;
}

/** The agent as the API lists subscribers; `registered` null where the phone system cannot tell. */
export const toSubscriber = (person: AgentPerson, registered: boolean | null): Subscriber => ({
  providerSubscriberID: person.subscriberID,
  firstName: person.firstName,
  lastName: person.lastName,
  email: person.email,
  extension: person.extension,
  number: person.number,
  registered,
  active: person.active,
});

/**
 * The person as a call carries its subscriber: every provider's one way from a person to a call's
 * subscriber fields, typed so that a field added to SUBSCRIBER_FIELDS must be filled here.
 */
export const subscriberFieldsOf = (person: Omit<AgentPerson, 'active'>): SubscriberFields => ({
  subscriberID: person.subscriberID,
  subscriberFirstName: person.firstName,
  subscriberLastName: person.lastName,
  subscriberEmail: person.email,
  subscriberExtension: person.extension,
  subscriberNumber: person.number,
});
