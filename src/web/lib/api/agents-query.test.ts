import { describe, expect, it } from 'vitest';
import { totalsOf } from '../../../contract/agents.js';
import { agent } from '../../test-support/agents.js';
import { applyAgentChanges, boardFrom } from './agents-query.js';

const response = (agents: ReturnType<typeof agent>[]) => ({ agents, totals: totalsOf(agents), dayStart: '2026-11-26T00:00:00.000Z', figuresAt: '2026-11-26T09:00:00.000Z' });

describe('the agent board in the cache', () => {
  it('keeps the objects of agents whose record did not change, whole board or change', () => {
    const first = boardFrom(response([agent('a'), agent('b'), agent('c')]), undefined, 1);
    const again = boardFrom(response([agent('a'), agent('b', { state: 'ringing' }), agent('c')]), first, 2);
    expect(again.agents[0]).toBe(first.agents[0]);
    expect(again.agents[1]).not.toBe(first.agents[1]);
    expect(again.agents[2]).toBe(first.agents[2]);
    expect(again.totals).toEqual({ offline: 0, inactive: 0, available: 2, ringing: 1, onCall: 0 });

    const changed = applyAgentChanges(
      again,
      { providerID: 'pbx', cursor: 'x.2', upserted: [agent('c', { state: 'on-call' }), agent('d')], removed: ['a'], totals: totalsOf([]), dayStart: again.dayStart, figuresAt: again.figuresAt },
      3,
    );
    expect(changed.agents.map((a) => `${a.subscriberID} ${a.state}`)).toEqual(['b ringing', 'c on-call', 'd available']);
    expect(changed.agents[0]).toBe(again.agents[1]);
    expect(changed.receivedAt).toBe(3);
  });
});
