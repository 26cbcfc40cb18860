import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subscriberSchema } from '../../../contract/subscriber.js';
import { createDirectory } from './directory.js';
import { FIRST_NAMES, LAST_NAMES } from './names.js';

const directory = (agents: number, seed = 1, emailDomain = 'example.com') => createDirectory({ seed, agents, emailDomain });

describe('createDirectory subscribers', () => {
  it('gives a 24-agent company stable IDs, extensions 101-124 and direct numbers in one block', () => {
    const { subscribers } = directory(24);
    expect(subscribers.map((s) => s.providerSubscriberID)).toEqual(
      Array.from({ length: 24 }, (_, index) => `agt-${String(index + 1).padStart(4, '0')}`),
    );
    expect(subscribers.map((s) => s.extension)).toEqual(Array.from({ length: 24 }, (_, index) => String(101 + index)));
    for (const subscriber of subscribers) {
      expect(subscriberSchema.parse(subscriber)).toEqual(subscriber);
      expect(subscriber.number).toMatch(/^1[2-9][0-9]{2}[2-9][0-9]{6}$/);
      expect(subscriber.number.endsWith(subscriber.extension)).toBe(true);
      expect(FIRST_NAMES).toContain(subscriber.firstName);
      expect(LAST_NAMES).toContain(subscriber.lastName);
    }
    expect(new Set(subscribers.map((s) => s.number.slice(0, 4))).size).toBe(1);
    expect(new Set(subscribers.map((s) => s.firstName)).size).toBe(24);
    expect(new Set(subscribers.map((s) => s.lastName)).size).toBe(24);
  });

  it('is the same for the same seed and differs for another', () => {
    expect(directory(24, 5)).toEqual(directory(24, 5));
    expect(directory(24, 5).subscribers).not.toEqual(directory(24, 6).subscribers);
  });

  it('builds plain-ASCII emails at the configured domain', () => {
    const { subscribers } = directory(300, 2, 'acme.test');
    for (const { email } of subscribers) expect(email).toMatch(/^[a-z]+\.[a-z]+[0-9]*@acme\.test$/);
  });

  it('keeps IDs, extensions, numbers and emails unique and marks a few on leave and a few disabled, never the first agent', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 5, max: 1500 }), (seed, agents) => {
        const { subscribers } = directory(agents, seed);
        for (const key of ['providerSubscriberID', 'extension', 'number', 'email'] as const) {
          expect(new Set(subscribers.map((s) => s[key])).size).toBe(agents);
        }
        expect(new Set(subscribers.map((s) => s.extension.length)).size).toBe(1);
        const unregistered = subscribers.filter((s) => !s.registered).length;
        const inactive = subscribers.filter((s) => !s.active).length;
        expect(unregistered).toBe(Math.max(1, Math.round(agents * 0.04)));
        expect(inactive).toBe(Math.max(1, Math.round(agents * 0.05)));
        expect(subscribers.some((s) => !s.registered && !s.active)).toBe(false);
        expect(subscribers[0]).toMatchObject({ registered: true, active: true });
      }),
      { numRuns: 25 },
    );
  });

  it('lets a very small company be fully available', () => {
    expect(directory(3).subscribers.every((s) => s.registered && s.active)).toBe(true);
  });

  it('widens extensions for large companies', () => {
    const { subscribers } = directory(12_000);
    expect(subscribers[0]?.extension).toBe('10001');
    expect(subscribers.at(-1)?.extension).toBe('22000');
    expect(subscribers.at(-1)?.providerSubscriberID).toBe('agt-12000');
  });
});

describe('createDirectory contacts', () => {
  it('knows people and companies by unique ID and number', () => {
    const { contacts, contactByNumber } = directory(24);
    expect(contacts.length).toBeGreaterThanOrEqual(200);
    expect(new Set(contacts.map((c) => c.contactID)).size).toBe(contacts.length);
    expect(contactByNumber.size).toBe(contacts.length);
    for (const contact of contacts) {
      expect(contact.contactID).toMatch(/^ct-[0-9]{6}$/);
      expect(contact.number).toMatch(/^[0-9]{11,13}$/);
      expect(contactByNumber.get(contact.number)).toBe(contact);
    }
    const companies = contacts.filter((c) => /(Logistics|Dental|Realty|Insurance|Bakery|LLC|Inc\.)/.test(c.name));
    expect(companies.length).toBeGreaterThan(10);
    expect(contacts.length - companies.length).toBeGreaterThan(contacts.length / 2);
  });
});
