import { describe, expect, it } from 'vitest';
import { ConcurrencySlots, SlotsExhausted } from './concurrency-slots.js';
import type { Principal } from './token-index.js';

const principal = (accountID: string, tokenName: string): Principal => ({
  accountID,
  tokenName,
  applications: '*',
  permissions: new Set(['calls:read']),
  subscribers: '*',
});
const a = principal('acme', 'all');
const sameNameElsewhere = principal('globex', 'all');

describe('ConcurrencySlots', () => {
  it("refuses a token past its cap, and leaves other tokens' slots alone", () => {
    const slots = new ConcurrencySlots('heavy-queries', { perToken: 2, total: 10 });
    slots.acquire(a);
    slots.acquire(a);
    expect(() => slots.acquire(a)).toThrow(new SlotsExhausted('heavy-queries', 'token', 2));
    expect(() => slots.acquire(sameNameElsewhere)).not.toThrow();
    expect(slots.inUse(a)).toBe(2);
    expect(slots.inUse()).toBe(3);
  });

  it('refuses everyone past the total cap', () => {
    const slots = new ConcurrencySlots('streams', { perToken: 5, total: 2 });
    slots.acquire(a);
    slots.acquire(sameNameElsewhere);
    const error = (() => {
      try {
        slots.acquire(principal('acme', 'other'));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({ kind: 'streams', scope: 'total', cap: 2 });
  });

  it('gives a slot back once, however often it is released', () => {
    const slots = new ConcurrencySlots('requests', { perToken: 1, total: 1 });
    const release = slots.acquire(a);
    release();
    release();
    expect(slots.inUse()).toBe(0);
    slots.acquire(a);
    expect(() => slots.acquire(sameNameElsewhere)).toThrow(SlotsExhausted);
  });

  it('holds a slot while work runs and gives it back when the work fails', async () => {
    const slots = new ConcurrencySlots('heavy-queries', { perToken: 1, total: 5 });
    let during = -1;
    await slots.run(a, async () => {
      during = slots.inUse(a);
    });
    await expect(slots.run(a, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(during).toBe(1);
    expect(slots.inUse(a)).toBe(0);
  });
});
