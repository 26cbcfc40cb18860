/** The people behind the SIP users, which Kamailio does not know: looked up by subscriber ID or SIP user. */
import type { AgentPerson } from '../agent-person.js';

export interface DirectoryEntry extends AgentPerson {
  sipUser: string;
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
