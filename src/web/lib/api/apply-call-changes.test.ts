import { describe, expect, it } from 'vitest';
import { callRecord } from '../../test-support/call-record.js';
import { applyCallChanges, byStart, mergeSorted } from './apply-call-changes.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 22, 9, 0, seconds)).toISOString();

describe('applyCallChanges', () => {
  const a = callRecord('a', { startedAt: at(1) });
  const b = callRecord('b', { startedAt: at(2) });
  const c = callRecord('c', { startedAt: at(3) });

  it('adds new calls in start order, replaces changed ones in place, drops removed ones', () => {
    const answered = { ...b, answeredAt: at(5) };
    const early = callRecord('early', { startedAt: at(0) });
    const next = applyCallChanges([a, b, c], [answered, early], ['c']);
    expect(next.map((call) => call.callID)).toEqual(['early', 'a', 'b']);
    expect(next[1]).toBe(a);
    expect(next[2]).toBe(answered);
  });

  it('hands back the same array when nothing changed, and keeps ties ordered by call ID', () => {
    const calls = [a, b];
    expect(applyCallChanges(calls, [], [])).toBe(calls);
    const tie = callRecord('aa', { startedAt: at(1) });
    expect(applyCallChanges(calls, [tie], []).map((call) => call.callID)).toEqual(['a', 'aa', 'b']);
  });

  it('places many new calls at once as it places a few, in start order', () => {
    const base = Array.from({ length: 50 }, (_, i) => callRecord(`k${i}`, { startedAt: at(2 * i) }));
    const fresh = Array.from({ length: 40 }, (_, i) => callRecord(`n${i}`, { startedAt: at((7 * i) % 101) }));
    for (const count of [1, 5, 32, 33, 40]) {
      const added = fresh.slice(0, count);
      expect(applyCallChanges(base, added, ['k3']), `${count} new`).toEqual([...base.filter((call) => call.callID !== 'k3'), ...added].sort(byStart));
    }
  });

  it('moves a call whose start time changed, and ignores removals of calls it does not hold', () => {
    const moved = { ...a, startedAt: at(9) };
    expect(applyCallChanges([a, b, c], [moved], ['nope']).map((call) => call.callID)).toEqual(['b', 'c', 'a']);
  });
});

describe('mergeSorted', () => {
  it('interleaves sorted lists by start, ties by call ID, keeping every object', () => {
    const lists = [
      [callRecord('a1', { startedAt: at(1) }), callRecord('a4', { startedAt: at(4) }), callRecord('a9', { startedAt: at(9) })],
      [],
      [callRecord('b2', { startedAt: at(2) }), callRecord('b4', { startedAt: at(4) })],
      [callRecord('c0', { startedAt: at(0) })],
    ];
    const merged = mergeSorted(lists);
    expect(merged.map((call) => call.callID)).toEqual(['c0', 'a1', 'b2', 'a4', 'b4', 'a9']);
    expect(merged).toEqual(lists.flat().sort(byStart));
    expect(merged[1]).toBe(lists[0]?.[0]);
  });

  it('gives a list of its own for one list or none', () => {
    const only = [callRecord('a', { startedAt: at(1) })];
    expect(mergeSorted([only])).toEqual(only);
    expect(mergeSorted([only])).not.toBe(only);
    expect(mergeSorted([])).toEqual([]);
  });
});
