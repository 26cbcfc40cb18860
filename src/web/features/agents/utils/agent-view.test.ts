import { describe, expect, it } from 'vitest';
import { agent, boardOf } from '../../../test-support/agents.js';
import { filterAgents, fitGrid, partyOf, shortAgentName, sortAgents, sortByAttention } from './agent-view.js';

const board = boardOf([
  agent('a-103', { firstName: 'Cy', lastName: 'Dunn', extension: '103', state: 'on-call', since: '2026-11-26T09:05:00.000Z', callID: 'c1', remoteNumber: '15550100100' }),
  agent('a-101', { firstName: 'Ada', lastName: 'Byron', extension: '101', state: 'ringing', since: '2026-11-26T09:06:00.000Z', callID: 'c2', remoteNumber: '', remoteName: 'Customer' }),
  agent('a-1000', { firstName: 'Bo', lastName: 'Chen', extension: '1000', state: 'offline' }),
  agent('a-102', { firstName: 'Di', lastName: 'Eck', extension: '102', state: 'on-call', since: '2026-11-26T09:01:00.000Z', callID: 'c3', remoteNumber: '' }),
]);
const ids = (list: { agent: { subscriberID: string } }[]) => list.map((entry) => entry.agent.subscriberID);

describe('the agent board’s view', () => {
  it('sorts by extension as numbers, by name, or by state with the longest in it first', () => {
    expect(ids(sortAgents(board.agents, 'extension'))).toEqual(['a-101', 'a-102', 'a-103', 'a-1000']);
    expect(ids(sortAgents(board.agents, 'name'))).toEqual(['a-101', 'a-1000', 'a-103', 'a-102']);
    expect(ids(sortAgents(board.agents, 'state'))).toEqual(['a-101', 'a-102', 'a-103', 'a-1000']);
    // A wall that cannot show everyone: the ring first, then the longest calls.
    expect(ids(sortByAttention(board.agents))).toEqual(['a-101', 'a-102', 'a-103', 'a-1000']);
  });

  it('puts the longest in a state first by the time it began, on a large board with ties', () => {
    // A seeded board of 600: few distinct moments, so states, times and extensions all tie somewhere;
    // a few extensions with a leading zero or letters, which only the collator orders.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
    const states = ['available', 'ringing', 'on-call', 'offline', 'inactive'] as const;
    const large = boardOf(
      Array.from({ length: 600 }, (_, i) =>
        agent(`a-${i}`, { extension: i % 50 === 0 ? `0${100 + random(400)}` : i % 70 === 0 ? `ext-${random(9)}` : String(100 + random(400)), state: states[random(5)], since: new Date(Date.UTC(2026, 10, 26, 9, random(60), random(3), random(2) * 999)).toISOString() }),
      ),
    ).agents;
    const numeric = new Intl.Collator(undefined, { numeric: true });
    // By state in `order` and time in it, when there is an order; by extension, then ID, always.
    const reference = (order: readonly string[]) => (a: (typeof large)[number], b: (typeof large)[number]) =>
      order.indexOf(a.agent.state) - order.indexOf(b.agent.state) ||
      (order.length > 0 ? Date.parse(a.agent.since) - Date.parse(b.agent.since) : 0) ||
      numeric.compare(a.agent.extension, b.agent.extension) ||
      a.agent.subscriberID.localeCompare(b.agent.subscriberID);
    expect(ids(sortByAttention(large))).toEqual(ids([...large].sort(reference(['ringing', 'on-call', 'available', 'offline', 'inactive']))));
    expect(ids(sortAgents(large, 'extension'))).toEqual(ids([...large].sort(reference([]))));
    expect(ids(sortAgents(large, 'state'))).toEqual(ids([...large].sort(reference(['available', 'ringing', 'on-call', 'offline', 'inactive']))));
  });

  it('filters by state and finds agents by name, extension or ID', () => {
    expect(ids(filterAgents(board.agents, new Set(['on-call']), ''))).toEqual(['a-103', 'a-102']);
    expect(ids(filterAgents(board.agents, new Set(), 'byr'))).toEqual(['a-101']);
    expect(ids(filterAgents(board.agents, new Set(), '1000'))).toEqual(['a-1000']);
    expect(ids(filterAgents(board.agents, new Set(['offline']), 'ada'))).toEqual([]);
  });

  it('names the other party: their name, their number, or that it was withheld', () => {
    const [cy, ada, bo, di] = board.agents.map((entry) => entry.agent);
    expect(partyOf(ada as never)).toBe('Customer');
    expect(partyOf(cy as never)).toMatch(/555.*0100/);
    expect(partyOf(di as never)).toBe('a withheld number');
    expect(partyOf(bo as never)).toBeUndefined();
    expect(shortAgentName(ada as never)).toBe('Ada B.');
  });
});

describe('fitting a wall’s tiles', () => {
  const options = { aspect: 2.5, gap: 6, minHeight: 32, maxHeight: 72 };

  it('fits 300 agents into a 1080p wall’s lower part in tiles of at least the minimum height', () => {
    const fit = fitGrid(1872, 700, 300, options);
    expect(fit.shown).toBe(300);
    expect(fit.columns * fit.rows).toBeGreaterThanOrEqual(300);
    expect(fit.height).toBeGreaterThanOrEqual(32);
    expect(fit.columns * fit.width + (fit.columns - 1) * 6).toBeLessThanOrEqual(1872);
    expect(fit.rows * fit.height + (fit.rows - 1) * 6).toBeLessThanOrEqual(700);
  });

  it('gives a few agents large tiles, but no larger than the maximum, nor banners', () => {
    const fit = fitGrid(1872, 700, 12, options);
    expect(fit.height).toBe(72);
    expect(fit.width).toBeLessThanOrEqual(72 * 2.5 * 1.5);
  });

  it('shows as many as fit at the minimum when everyone cannot', () => {
    const fit = fitGrid(800, 200, 2000, options);
    expect(fit.height).toBe(32);
    expect(fit.shown).toBe(fit.columns * fit.rows);
    expect(fit.shown).toBeLessThan(2000);
  });
});
