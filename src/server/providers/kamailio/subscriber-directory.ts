/** The people behind the SIP users, which Kamailio does not know: looked up by subscriber ID or SIP user. */
import type { Subscriber } from '../../../contract/subscriber.js';

export interface DirectoryEntry {
  subscriberID: string;
  sipUser: string;
  firstName: string;
  lastName: string;
  email: string;
  extension: string;
  number: string;
  active: boolean;
}

export interface SubscriberDirectory {
  readonly entries: readonly DirectoryEntry[];
  bySubscriberID(subscriberID: string): DirectoryEntry | undefined;
  bySipUser(sipUser: string): DirectoryEntry | undefined;
}

export const createSubscriberDirectory = (entries: readonly DirectoryEntry[]): SubscriberDirectory => {
  const byID = new Map(entries.map((entry) => [entry.subscriberID, entry]));
  const byUser = new Map(entries.map((entry) => [entry.sipUser, entry]));
  return { entries, bySubscriberID: (id) => byID.get(id), bySipUser: (user) => byUser.get(user) };
};

export const toSubscriber = (entry: DirectoryEntry, registered: boolean): Subscriber => ({
  providerSubscriberID: entry.subscriberID,
  firstName: entry.firstName,
  lastName: entry.lastName,
  email: entry.email,
  extension: entry.extension,
  number: entry.number,
  registered,
  active: entry.active,
});
