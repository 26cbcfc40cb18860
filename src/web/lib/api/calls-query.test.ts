import { describe, expect, it } from 'vitest';
import { callRecord } from '../../test-support/call-record.js';
import { ApiError } from './api-error.js';
import { nextPollDelay, parseChangedCalls, shareCallsByID } from './calls-query.js';

describe('parseChangedCalls', () => {
  it('keeps the checked object of an unchanged call and checks the changed ones', () => {
    const previous = [callRecord('a'), callRecord('b')];
    const raw = [{ ...previous[0] }, { ...previous[1], answeredAt: '2026-11-22T10:00:00.000Z' }, { ...callRecord('c') }];
    const parsed = parseChangedCalls(raw, previous);
    expect(parsed[0]).toBe(previous[0]);
    expect(parsed[1]).not.toBe(previous[1]);
    expect(parsed[1]?.answeredAt).toBe('2026-11-22T10:00:00.000Z');
    expect(parsed.map((c) => c.callID)).toEqual(['a', 'b', 'c']);
  });

  it('answers an unchanged list with the previous array, which the cache then leaves as it is', () => {
    const previous = [callRecord('a'), callRecord('b')];
    const parsed = parseChangedCalls(previous.map((call) => ({ ...call })), previous);
    expect(parsed).toBe(previous);
    // A list whose calls are the same but in another order, or one call fewer, is a new array of the same objects.
    const reordered = parseChangedCalls([{ ...previous[1] }, { ...previous[0] }], previous);
    expect(reordered).not.toBe(previous);
    expect(reordered[0]).toBe(previous[1]);
    expect(parseChangedCalls([{ ...previous[0] }], previous)).toEqual([previous[0]]);
    // Already shared: structural sharing returns the poll's data untouched, without a second walk.
    const next = { calls: reordered, snapshotAgeMs: 0, receivedAt: 2 };
    expect(shareCallsByID({ calls: previous, snapshotAgeMs: 0, receivedAt: 1 }, next)).toBe(next);
  });

  it('refuses a record that breaks the contract, even one that was valid before', () => {
    const previous = [callRecord('a')];
    expect(() => parseChangedCalls([{ ...previous[0], remoteNumber: '+1 555' }], previous)).toThrow(ApiError);
    expect(() => parseChangedCalls([{ callID: 'x' }], undefined)).toThrow(/Call 1 of the list does not match the API/);
  });
});

describe('shareCallsByID', () => {
  it('returns the previous array when no call changed', () => {
    const calls = [callRecord('a'), callRecord('b')];
    const previous = { calls, snapshotAgeMs: 0, receivedAt: 1 };
    const next = { calls: calls.map((c) => ({ ...c })), snapshotAgeMs: 10, receivedAt: 2 };
    const shared = shareCallsByID(previous, next) as typeof next;
    expect(shared.calls).toBe(calls);
    expect(shared.receivedAt).toBe(2);
  });
});

describe('nextPollDelay', () => {
  it('honours Retry-After and backs off on repeated failures', () => {
    expect(nextPollDelay(undefined, 0, 2000)).toBe(2000);
    expect(nextPollDelay(new ApiError('rate_limited', 'slow down', 429, { retryAfterMs: 9000 }), 1, 2000)).toBe(9000);
    expect(nextPollDelay(new ApiError('provider_unavailable', 'down', 503), 3, 2000)).toBe(16_000);
    expect(nextPollDelay(new ApiError('provider_unavailable', 'down', 503), 9, 2000)).toBe(30_000);
  });
});
