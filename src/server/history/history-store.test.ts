import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderCall } from '../providers/phone-system.js';
import { createTestHistory, historyKind, type TestHistory } from '../test-support/test-history.js';
import type { HistoryStore } from './history-store.js';
import { journalBatch } from '../calls/journal-batch.js';
import { providerCall } from '../test-support/provider-call.js';

const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const T = 1_800_000_000_000;
const call = providerCall;
const all = (store: HistoryStore) => store.callsLiveDuring(scope, 0, Number.MAX_SAFE_INTEGER, 1000);

let history: TestHistory;
let store: HistoryStore;
beforeEach(async () => {
  history = await createTestHistory();
  store = await history.open();
});
afterEach(async () => {
  await store.close();
  await history.dispose();
});

describe(`history store (${historyKind})`, () => {
  it('journals every call of a sync with all its fields, and updates it as it changes', async () => {
    const ringing = call('c1', T, { subscriberID: 'agt-1', subscriberFirstName: 'Maya', remoteName: 'Ada' });
    await store.write(scope, journalBatch(undefined, [ringing], T + 1000));
    const answered = { ...ringing, answeredAt: T + 5000 };
    await store.write(scope, journalBatch([ringing], [answered], T + 6000));
    expect(await all(store)).toEqual([{ ...answered, closedBySync: false }]);
  });

  it('journals the end the service gave a call, flagged as the service\'s, beside an end the provider gave', async () => {
    const left = call('left', T);
    const done = call('done', T, { endedAt: T + 500 });
    await store.write(scope, journalBatch(undefined, [left, done], T + 1000));
    const ended = { ...left, endedAt: T + 2000, isMissedCall: true };
    await store.write(scope, journalBatch([left, done], [ended, done], T + 2000, new Set(['left'])));
    expect(await all(store)).toEqual([
      { ...done, closedBySync: false },
      { ...ended, closedBySync: true },
    ]);
  });

  it('keeps the history across a restart, and closes calls that vanished meanwhile at the last sync, missed if inbound and unanswered', async () => {
    const calls = [call('a', T), call('b', T + 100), call('out', T, { isOutbound: true }), call('talked', T, { answeredAt: T + 50 })];
    await store.write(scope, journalBatch(undefined, calls, T + 1000));
    await store.write(scope, journalBatch(calls, calls, T + 2000));
    await store.close();
    store = await history.open();
    expect((await all(store)).map((c) => c.callID)).toEqual(['a', 'out', 'talked', 'b']);
    await store.write(scope, journalBatch(undefined, [call('b', T + 100)], T + 60_000));
    expect((await all(store)).map((c) => [c.callID, c.endedAt ?? null, c.isMissedCall, c.closedBySync])).toEqual([
      ['a', T + 2000, true, true],
      ['out', T + 2000, false, true],
      ['talked', T + 2000, false, true],
      ['b', null, false, false],
    ]);
  });

  it('recalls the open calls, those that ended since a moment, and the last sync', async () => {
    expect(await store.recall(scope, T)).toEqual({ calls: [], lastSyncAt: undefined });
    const calls = [call('open', T), call('recent', T, { endedAt: T + 5000 }), call('older', T, { endedAt: T + 1000 })];
    await store.write(scope, journalBatch(undefined, calls, T + 6000, new Set(['recent'])));
    await store.write({ ...scope, providerID: 'trunk' }, journalBatch(undefined, [call('theirs', T)], T + 7000));
    const recalled = await store.recall(scope, T + 2000);
    expect(recalled.lastSyncAt).toBe(T + 6000);
    expect(recalled.calls.map((c) => [c.callID, c.closedBySync]).sort()).toEqual([
      ['open', false],
      ['recent', true],
    ]);
  });

  it('writes a sync as one transaction: a failing batch leaves nothing of itself behind', async () => {
    const bad = { ...call('bad', T), providerCallID: null } as unknown as ProviderCall;
    await expect(store.write(scope, journalBatch(undefined, [call('good', T), bad], T + 1000))).rejects.toThrow();
    expect(await all(store)).toEqual([]);
  });

  it('keeps providers apart', async () => {
    await store.write(scope, journalBatch(undefined, [call('mine', T)], T + 1000));
    await store.write({ ...scope, providerID: 'trunk' }, journalBatch(undefined, [call('theirs', T)], T + 1000));
    expect((await all(store)).map((c) => c.callID)).toEqual(['mine']);
    expect(await store.hasHistory({ ...scope, applicationID: 'sales' })).toBe(false);
  });

  it('lists calls live at any moment of a window, oldest first, up to a limit', async () => {
    const calls = [
      call('before', T - 10_000, { endedAt: T - 5_000 }),
      call('spanning', T - 10_000, { endedAt: T + 5_000 }),
      call('inside', T + 1_000, { endedAt: T + 2_000 }),
      call('open', T + 3_000),
      call('after', T + 20_000),
    ];
    await store.write(scope, journalBatch(undefined, calls, T + 30_000));
    const ids = async (limit: number) => (await store.callsLiveDuring(scope, T, T + 10_000, limit)).map((c) => c.callID);
    expect(await ids(10)).toEqual(['spanning', 'inside', 'open']);
    expect(await ids(2)).toEqual(['spanning', 'inside']);
  });

  it('prunes calls that ended before the cutoff and calls left open since before it', async () => {
    await store.importCalls(scope, [call('old', T - 100_000, { endedAt: T - 90_000 }), call('new', T - 1000, { endedAt: T })]);
    await store.write(scope, journalBatch(undefined, [call('stuck', T - 200_000), call('live', T - 10)], T));
    expect(await store.pruneBefore(T - 50_000)).toBe(2);
    expect((await all(store)).map((c) => c.callID)).toEqual(['new', 'live']);
  });

  it('imports backfilled calls without overwriting journaled ones', async () => {
    await store.write(scope, journalBatch(undefined, [call('c1', T, { remoteName: 'Journal' })], T));
    await store.importCalls(scope, [call('c1', T, { remoteName: 'Backfill', endedAt: T + 1 }), call('c0', T - 5, { endedAt: T - 1 })]);
    expect((await all(store)).map((c) => [c.callID, c.remoteName ?? null])).toEqual([
      ['c0', null],
      ['c1', 'Journal'],
    ]);
  });
});
