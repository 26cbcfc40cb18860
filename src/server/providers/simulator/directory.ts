/** The simulated company's directory: its agents (subscribers) and the outside contacts its CRM knows. */
import type { Subscriber } from '../../../contract/subscriber.js';
import { COMPANY_KINDS, COMPANY_NAMES, COMPANY_SUFFIXES, FIRST_NAMES, LAST_NAMES } from './names.js';
import { northAmericanNumber, outsideNumber, randomAreaCode } from './phone-numbers.js';
import { createRandom, deriveSeed, type Random } from './random.js';

export interface Contact {
  readonly contactID: string;
  readonly name: string;
  readonly number: string;
}

export interface Directory {
  /** Fresh objects the caller owns (the simulator flips `registered` and `active` on them). */
  readonly subscribers: Subscriber[];
  readonly contacts: readonly Contact[];
  readonly contactByNumber: ReadonlyMap<string, Contact>;
}

export interface DirectoryOptions {
  seed: number;
  agents: number;
  emailDomain: string;
}

export const createDirectory = (options: DirectoryOptions): Directory => {
  const random = createRandom(deriveSeed(options.seed, 'directory'));
  const subscribers = createSubscribers(random, options);
  const contacts = createContacts(random, contactCount(options.agents));
  return {
    subscribers,
    contacts,
    contactByNumber: new Map(contacts.map((contact) => [contact.number, contact])),
  };
};

/** A CRM holds many more outside parties than the company has agents. */
const contactCount = (agents: number) => Math.min(20_000, Math.max(200, agents * 10));

const createSubscribers = (random: Random, options: DirectoryOptions): Subscriber[] => {
  const { agents, emailDomain } = options;
  const idWidth = Math.max(4, String(agents).length);
  const firstExtension = firstExtensionFor(agents);
  const didBlock = companyDidBlock(random);
  const names = nameDecks(random);
  const emails = new Map<string, number>();
  const offline = unavailableAgents(random, agents);
  return Array.from({ length: agents }, (_, index): Subscriber => {
    const [firstName, lastName] = names();
    const extension = String(firstExtension + index);
    return {
      providerSubscriberID: `agt-${String(index + 1).padStart(idWidth, '0')}`,
      firstName,
      lastName,
      email: uniqueEmail(emails, firstName, lastName, emailDomain),
      extension,
      number: didBlock(Number(extension)),
      registered: !offline.unregistered.has(index),
      active: !offline.inactive.has(index),
    };
  });
};

/** Same-width extensions starting at 101, 1001, 10001... depending on the company's size. */
const firstExtensionFor = (agents: number) => 10 ** (Math.max(3, String(agents + 100).length) - 1) + 1;

/**
 * Direct-dial numbers in the company's block: one area code, consecutive exchanges, the extension in
 * the last digits. The exchange starts at x20..x89 so that even the largest company never reaches N11.
 */
const companyDidBlock = (random: Random) => {
  const areaCode = randomAreaCode(random);
  const firstExchange = random.int(2, 8) * 100 + random.int(20, 89);
  return (extension: number) => `1${areaCode}${firstExchange * 10_000 + extension}`;
};

/** Names drawn like cards from shuffled decks: nobody shares a first or last name until a deck runs out. */
const nameDecks = (random: Random) => {
  const firstNames = deck(random, FIRST_NAMES);
  const lastNames = deck(random, LAST_NAMES);
  return (): [string, string] => [firstNames(), lastNames()];
};

const deck = <T>(random: Random, items: readonly T[]) => {
  let cards: T[] = [];
  return (): T => {
    if (cards.length === 0) cards = shuffled(random, items.length).map((index) => items[index] as T);
    return cards.pop() as T;
  };
};

const uniqueEmail = (taken: Map<string, number>, firstName: string, lastName: string, domain: string) => {
  const local = `${emailPart(firstName)}.${emailPart(lastName)}`;
  const count = (taken.get(local) ?? 0) + 1;
  taken.set(local, count);
  return `${local}${count === 1 ? '' : count}@${domain}`;
};

/** "Sofía" -> "sofia", "O'Brien" -> "obrien". */
const emailPart = (name: string) =>
  name
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/**
 * About one agent in 25 is on leave (their phone stays off; shifts and breaks take the others off
 * over the day) and one in twenty has a disabled account; never both, and never the first agent,
 * the person at the demo's screen.
 */
const unavailableAgents = (random: Random, agents: number) => {
  const atLeastOne = agents >= 5 ? 1 : 0;
  const unregistered = Math.max(atLeastOne, Math.round(agents * 0.04));
  const inactive = Math.max(atLeastOne, Math.round(agents * 0.05));
  const order = shuffled(random, agents).filter((index) => index !== 0);
  return {
    unregistered: new Set(order.slice(0, unregistered)),
    inactive: new Set(order.slice(unregistered, unregistered + inactive)),
  };
};

const shuffled = (random: Random, length: number): number[] => {
  const order = Array.from({ length }, (_, index) => index);
  for (let index = length - 1; index > 0; index -= 1) {
    const other = random.int(0, index);
    [order[index], order[other]] = [order[other] as number, order[index] as number];
  }
  return order;
};

const createContacts = (random: Random, count: number): Contact[] => {
  const numbers = new Set<string>();
  let nextID = random.int(100, 999);
  return Array.from({ length: count }, () => {
    const isPerson = random.bernoulli(0.6);
    // CRM ids are not contiguous: contacts get deleted and merged.
    nextID += random.int(1, 9);
    return {
      contactID: `ct-${String(nextID).padStart(6, '0')}`,
      name: isPerson ? personName(random) : companyName(random),
      number: unusedNumber(random, numbers, isPerson),
    };
  });
};

const personName = (random: Random) => `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;

const companyName = (random: Random) =>
  `${random.pick(COMPANY_NAMES)} ${random.pick(COMPANY_KINDS)}${random.weighted(COMPANY_SUFFIXES)}`;

const unusedNumber = (random: Random, taken: Set<string>, isPerson: boolean): string => {
  for (;;) {
    const number = isPerson ? outsideNumber(random) : northAmericanNumber(random);
    if (!taken.has(number)) {
      taken.add(number);
      return number;
    }
  }
};
