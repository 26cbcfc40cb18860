import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderCall } from '../providers/phone-system.js';
import { createTestHistory, historyKind, type TestHistory } from '../test-support/test-history.js';
import type { HistoryStore } from './history-store.js';
import { journalBatch } from './journal-batch.js';
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

  it('closes a call that vanished without an end time at the sync that noticed, and flags it', async () => {
    const ghost = call('ghost', T);
    const done = call('done', T, { endedAt: T + 500 });
    await store.write(scope, journalBatch(undefined, [ghost, done], T + 1000));
    await store.write(scope, journalBatch([ghost, done], [], T + 2000));
    expect(await all(store)).toEqual([
      expect.objectContaining({ callID: 'done', endedAt: T + 500, closedBySync: false }),
      expect.objectContaining({ callID: 'ghost', endedAt: T + 2000, closedBySync: true }),
    ]);
  });

  it('keeps the history across a restart, and closes calls that vanished meanwhile at the last sync', async () => {
    await store.write(scope, journalBatch(undefined, [call('a', T), call('b', T + 100)], T + 1000));
    await store.write(scope, journalBatch([call('a', T), call('b', T + 100)], [call('a', T), call('b', T + 100)], T + 2000));
    await store.close();
    store = await history.open();
    expect((await all(store)).map((c) => c.callID)).toEqual(['a', 'b']);
    await store.write(scope, journalBatch(undefined, [call('b', T + 100)], T + 60_000));
    expect(await all(store)).toEqual([
      expect.objectContaining({ callID: 'a', endedAt: T + 2000, closedBySync: true }),
      expect.not.objectContaining({ endedAt: expect.anything() }),
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
