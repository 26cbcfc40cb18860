/** The person a provider's configuration names for an agent, whatever reaches their phone (a SIP user, a device, an endpoint). */
import type { Subscriber } from '../../contract/subscriber.js';

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
