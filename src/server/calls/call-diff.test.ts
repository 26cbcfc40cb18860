import { describe, expect, it } from 'vitest';
import type { ProviderCall } from '../providers/phone-system.js';
import { createRandom } from '../providers/simulator/random.js';
import { diffCalls, diffSortedCalls } from './call-diff.js';
import { byStartThenID } from './call-snapshot.js';

const call = (id: string, startedAt: number, extra: Partial<ProviderCall> = {}): ProviderCall => ({
  callID: id,
  providerCallID: `p-${id}`,
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15550100001',
  startedAt,
  ...extra,
});
const sorted = (calls: ProviderCall[]) => [...calls].sort(byStartThenID);
const ids = (calls: readonly ProviderCall[]) => calls.map((c) => c.callID);
const diffOf = (previous: ProviderCall[], next: ProviderCall[]) => {
  const { upserted, removed } = diffSortedCalls(sorted(previous), sorted(next), byStartThenID);
  return { upserted: ids(upserted), removed: ids(removed) };
};

describe('diffSortedCalls', () => {
  const a = call('a', 100);
  const b = call('b', 200);
  const c = call('c', 300);

  it('finds nothing between the same calls, whether the very objects or copies', () => {
    expect(diffOf([a, b, c], [a, b, c])).toEqual({ upserted: [], removed: [] });
    expect(diffOf([a, b, c], [{ ...a }, { ...b }, { ...c }])).toEqual({ upserted: [], removed: [] });
  });

  it('finds new calls before, among and after the others, and those that left', () => {
    expect(diffOf([b], [call('first', 50), b, call('among', 250), call('last', 900)])).toEqual({
      upserted: ['first', 'among', 'last'],
      removed: [],
    });
    expect(diffOf([a, b, c], [b])).toEqual({ upserted: [], removed: ['a', 'c'] });
    expect(diffOf([], [a])).toEqual({ upserted: ['a'], removed: [] });
    expect(diffOf([a], [])).toEqual({ upserted: [], removed: ['a'] });
  });

  it('upserts a call whose fields changed in place', () => {
    expect(diffOf([a, b, c], [a, { ...b, answeredAt: 250 }, c])).toEqual({ upserted: ['b'], removed: [] });
  });

  it('upserts a call whose start moved it in the order, and never counts it as gone', () => {
    expect(diffOf([a, b, c], [a, b, { ...c, startedAt: 50 }])).toEqual({ upserted: ['c'], removed: [] });
    expect(diffOf([a, b, c], [{ ...a, startedAt: 400 }, b, c])).toEqual({ upserted: ['a'], removed: [] });
  });

  it('agrees with the indexed diff on random changes of random lists', () => {
    const random = createRandom(5);
    const pick = (n: number) => Math.floor(random.next() * n);
    for (let round = 0; round < 200; round += 1) {
      let serial = 0;
      const previous = sorted(Array.from({ length: pick(40) }, () => call(`c${(serial += 1)}`, pick(50))));
      const next: ProviderCall[] = [];
      for (const was of previous) {
        const roll = random.next();
        if (roll < 0.15) continue;
        if (roll < 0.3) next.push({ ...was, answeredAt: was.startedAt + 1 });
        else if (roll < 0.4) next.push({ ...was, startedAt: pick(50) });
        else if (roll < 0.6) next.push({ ...was });
        else next.push(was);
      }
      for (let added = pick(5); added > 0; added -= 1) next.push(call(`c${(serial += 1)}`, pick(50)));
      const expected = diffCalls(previous, sorted(next));
      const found = diffSortedCalls(previous, sorted(next), byStartThenID);
      expect({ upserted: ids(found.upserted), removed: ids(found.removed) }).toEqual({
        upserted: ids(expected.upserted),
        removed: ids(expected.removed),
      });
    }
  });
});
