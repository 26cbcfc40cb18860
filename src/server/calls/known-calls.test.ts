import { describe, expect, it } from 'vitest';
import type { CallUpdate, ProviderCall } from '../providers/phone-system.js';
import { KnownCalls, MAX_UPDATE_AGE_MS, PUSH_GRACE_MS } from './known-calls.js';

const T = 1_000_000;
const call = (id: string, extra: Partial<ProviderCall> = {}): ProviderCall => ({
  callID: id,
  providerCallID: `p-${id}`,
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15550100001',
  startedAt: T,
  ...extra,
});
const created = (id: string, at: number, extra: Partial<CallUpdate> = {}): CallUpdate => ({
  callID: id,
  at,
  source: `leg-${id}`,
  sequence: 0,
  fields: { providerCallID: `p-${id}`, isOutbound: false, remoteNumber: '15550100001', startedAt: at },
  ...extra,
});
const update = (id: string, at: number, fields: CallUpdate['fields'], source = `leg-${id}`, sequence?: number): CallUpdate => ({
  callID: id,
  at,
  fields,
  source,
  ...(sequence === undefined ? {} : { sequence }),
});
const book = () => new KnownCalls({ keepEndedMs: 5000, blindAfterMs: 2000 });
const listed = (calls: KnownCalls, at: number) => calls.view(at).listed;

describe('KnownCalls: pushed updates', () => {
  it('makes a call from an update that tells enough, and applies later ones field by field', () => {
    const calls = book();
    calls.next([], T);
    expect(calls.push([created('a', T)], T)).toEqual({ applied: 1, ignored: 0, held: 0 });
    calls.push([update('a', T + 2000, { answeredAt: T + 2000, subscriberID: 'agt-1', subscriberFirstName: 'Ada' }, 'leg-a', 1)], T + 2000);
    expect(listed(calls, T + 2000)).toEqual([call('a', { answeredAt: T + 2000, subscriberID: 'agt-1', subscriberFirstName: 'Ada' })]);
    calls.push([update('a', T + 9000, { endedAt: T + 9000 }, 'leg-a', 2)], T + 9000);
    expect(listed(calls, T + 9000)[0]).toMatchObject({ endedAt: T + 9000, isMissedCall: false, subscriberFirstName: 'Ada' });
  });

  it('ignores an update its source already sent, or one older than one applied', () => {
    const calls = book();
    calls.next([], T);
    calls.push([created('a', T), update('a', T + 1000, { answeredAt: T + 1000 }, 'leg-a', 2)], T + 1000);
    expect(calls.push([update('a', T + 1000, { answeredAt: T + 1000 }, 'leg-a', 2)], T + 1500)).toMatchObject({ applied: 0, ignored: 1 });
    expect(calls.push([update('a', T + 500, { endedAt: T + 500 }, 'leg-a', 1)], T + 1500)).toMatchObject({ applied: 0, ignored: 1 });
    // Another leg of the same call numbers its own updates.
    expect(calls.push([update('a', T + 1500, { subscriberID: 'agt-2' }, 'leg-b', 0)], T + 1500)).toMatchObject({ applied: 1 });
    expect(listed(calls, T + 1500)).toEqual([call('a', { answeredAt: T + 1000, subscriberID: 'agt-2' })]);
  });

  it('ignores an update older than it takes a provider to tell, and one about a call gone from the list for good', () => {
    const calls = book();
    calls.next([call('gone', { endedAt: T })], T);
    calls.next([], T + 6000);
    expect(listed(calls, T + 6000)).toEqual([]);
    expect(calls.push([update('gone', T + 6000, { answeredAt: T + 100 })], T + 6000)).toMatchObject({ ignored: 1 });
    expect(calls.push([created('stale', T)], T + MAX_UPDATE_AGE_MS + 1)).toMatchObject({ ignored: 1 });
    expect(listed(calls, T + MAX_UPDATE_AGE_MS + 1)).toEqual([]);
  });

  it('holds an update about a call it cannot make yet, and applies it when a list shows the call', () => {
    const calls = book();
    calls.next([], T);
    expect(calls.push([update('a', T + 500, { answeredAt: T + 500, subscriberID: 'agt-1' }, 'leg-child', 3)], T + 500)).toMatchObject({ held: 1 });
    expect(listed(calls, T + 500)).toEqual([]);
    calls.next([call('a')], T + 1000);
    expect(listed(calls, T + 1000)).toEqual([call('a', { answeredAt: T + 500, subscriberID: 'agt-1' })]);
  });

  it('keeps what an update told over a list that was asked for before it', () => {
    const calls = book();
    calls.next([call('a')], T);
    const listAskedAt = T + 1000;
    calls.push([update('a', T + 1100, { answeredAt: T + 1100 }), update('a', T + 1200, { endedAt: T + 1200 })], T + 1200);
    // The list answers as the call was when it was asked: live and unanswered.
    calls.next([call('a')], T + 1300, listAskedAt);
    expect(listed(calls, T + 1300)).toEqual([call('a', { answeredAt: T + 1100, endedAt: T + 1200 })]);
    // A list asked for later still cannot undo the provider's end, nor forget the answer.
    calls.next([call('a')], T + 2500, T + 2400);
    expect(listed(calls, T + 2500)).toEqual([call('a', { answeredAt: T + 1100, endedAt: T + 1200 })]);
  });

  it('does not end a call known only from updates while lists have not shown it for a short while, then does', () => {
    const calls = book();
    calls.next([], T);
    calls.push([created('new', T + 100)], T + 100);
    let at = T + 1000;
    for (; at - (T + 100) < PUSH_GRACE_MS; at += 1000) {
      calls.next([], at, at - 100);
      expect(listed(calls, at)).toEqual([call('new', { startedAt: T + 100 })]);
    }
    calls.next([], at, at - 100);
    expect(listed(calls, at)).toEqual([call('new', { startedAt: T + 100, endedAt: at, isMissedCall: true })]);
  });

  it('ends an inbound call unanswered as missed, and replaces the end the service gave with the provider’s', () => {
    const calls = book();
    calls.next([call('a')], T);
    calls.next([], T + 1000);
    expect(calls.view(T + 1000).endedByService.has('a')).toBe(true);
    calls.push([update('a', T + 800, { endedAt: T + 800 })], T + 1100);
    const view = calls.view(T + 1100);
    expect(view.listed).toEqual([call('a', { endedAt: T + 800, isMissedCall: true })]);
    expect(view.endedByService.has('a')).toBe(false);
  });
});

describe('KnownCalls: lists', () => {
  it('keeps the facts a list no longer tells: the earliest answer, the remote number, the subscriber', () => {
    const calls = book();
    calls.next([call('a', { remoteNumber: '15550100009', answeredAt: T + 10, subscriberID: 'agt-1', subscriberFirstName: 'Ada' })], T + 100);
    calls.next([call('a', { remoteNumber: '', answeredAt: T + 900 })], T + 1000);
    expect(listed(calls, T + 1000)).toEqual([
      call('a', { remoteNumber: '15550100009', answeredAt: T + 10, subscriberID: 'agt-1', subscriberFirstName: 'Ada' }),
    ]);
  });

  it('keeps the very object of a call a list shows unchanged, though the provider sent a copy', () => {
    const calls = book();
    const [first] = calls.next([call('a'), call('b')], T).listed;
    const [again, changed] = calls.next([call('a'), call('b', { answeredAt: T + 500 })], T + 1000).listed;
    expect(again).toBe(first);
    expect(changed).toEqual(call('b', { answeredAt: T + 500 }));
  });

  it('names the calls whose version is new since the view before: every one at first, then what lists and pushes changed', () => {
    const calls = book();
    const ids = (view: { number: number; changed: ProviderCall[] }) => ({ number: view.number, changed: view.changed.map((c) => c.callID) });
    expect(ids(calls.next([call('a'), call('b'), call('c')], T))).toEqual({ number: 1, changed: ['a', 'b', 'c'] });
    expect(ids(calls.next([call('a'), call('b'), call('c')], T + 1000))).toEqual({ number: 2, changed: [] });
    calls.push([update('b', T + 1100, { answeredAt: T + 1100 })], T + 1100);
    // Gone from the list: ended by the service, a change too.
    expect(ids(calls.next([call('a', { answeredAt: T + 1500 }), call('b'), call('d')], T + 2000))).toEqual({ number: 3, changed: ['a', 'b', 'c', 'd'] });
    expect(ids(calls.view(T + 2000))).toEqual({ number: 4, changed: [] });
  });

  it('counts the first copy of a call a list names twice', () => {
    const calls = book();
    calls.next([call('a')], T);
    const view = calls.next([call('a', { answeredAt: T + 500 }), call('a', { endedAt: T + 600 })], T + 1000);
    expect(view.listed).toEqual([call('a', { answeredAt: T + 500 })]);
  });

  it('names a call the service ended as changed when the provider lists it again with that very end', () => {
    const calls = book();
    calls.next([call('a')], T);
    const ended = calls.next([], T + 1000);
    expect(ended.endedByService.has('a')).toBe(true);
    // The provider's own end, at the moment the service gave: the fields are the same, who ended it is not.
    const relisted = calls.next([call('a', { endedAt: T + 1000, isMissedCall: true })], T + 2000);
    expect(relisted.endedByService.has('a')).toBe(false);
    expect(relisted.changed.map((c) => c.callID)).toEqual(['a']);
  });
});
