import { describe, expect, it } from 'vitest';
import { useHistoryStore } from '../test-support/test-history.js';

const scope = { accountID: 'acme', applicationID: 'center', providerID: 'sim' };
const support = { queueID: 'support', name: 'Support', answerWithinMs: 20_000, shortAbandonMs: 5_000, serviceLevelTarget: 0.8, members: ['a1', 'a2'] };

describe('the queues\' parameter history', () => {
  const openStore = useHistoryStore();

  it('writes a row when a queue is new or its parameters changed, and none when they did not', async () => {
    const store = openStore();
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

describe('the agent states\' retention', () => {
  const openStore = useHistoryStore();

  it('deletes the states over before the cutoff and keeps the one in force at it', async () => {
    const store = openStore();
    const row = (subscriberID: string, at: number, state: string) => ({ subscriberID, at, state });
    await store.recordAgentStates(scope, [row('a1', 1000, 'offline'), row('a1', 2000, 'available'), row('a1', 5000, 'on-call'), row('a2', 1000, 'available'), row('a3', 3000, 'ringing')]);
    await store.pruneBefore(3000);
    const left = await store.agentTime(scope, { from: 3000, to: 6000, now: 6000 });
    expect(left.map((a) => [a.subscriberID, a.stateMs]).sort()).toEqual([
      ['a1', { available: 2000, 'on-call': 1000 }],
      ['a2', { available: 3000 }],
      ['a3', { ringing: 3000 }],
    ]);
    // Only the row in force at the cutoff is left of a1's past: a range reaching back before it finds no state there.
    expect((await store.agentTime(scope, { from: 1000, to: 3000, now: 6000 })).find((a) => a.subscriberID === 'a1')?.stateMs).toEqual({ unknown: 1000, available: 1000 });
  });
});
