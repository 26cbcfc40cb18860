import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryStore } from './history-store.js';
import { createTestHistory, type TestHistory } from '../test-support/test-history.js';

const scope = { accountID: 'acme', applicationID: 'center', providerID: 'sim' };
const support = { queueID: 'support', name: 'Support', answerWithinMs: 20_000, shortAbandonMs: 5_000, serviceLevelTarget: 0.8, members: ['a1', 'a2'] };

describe('the queues\' parameter history', () => {
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

  it('writes a row when a queue is new or its parameters changed, and none when they did not', async () => {
    expect(await store.recordQueueParameters(scope, [support], 1000)).toEqual(['support']);
    expect(await store.recordQueueParameters(scope, [support], 2000)).toEqual([]);
    expect(await store.recordQueueParameters(scope, [{ ...support, serviceLevelTarget: 0.9 }], 3000)).toEqual(['support']);
    expect(await store.recordQueueParameters(scope, [{ ...support, serviceLevelTarget: 0.9, members: ['a2', 'a1'] }], 4000)).toEqual(['support']);
    const rows = await store.queueParameterHistory(scope);
    expect(rows.map((row) => [row.fromAt, row.serviceLevelTarget, row.members])).toEqual([
      [1000, 0.8, ['a1', 'a2']],
      [3000, 0.9, ['a1', 'a2']],
      [4000, 0.9, ['a2', 'a1']],
    ]);
  });
});
