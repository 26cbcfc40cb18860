import { describe, expect, it } from 'vitest';
import { agent, boardOf } from '../../../test-support/agents.js';
import { byAttention, filterAgents, fitGrid, partyOf, shortAgentName, sortAgents } from './agent-view.js';

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
    expect(ids([...board.agents].sort(byAttention))).toEqual(['a-101', 'a-102', 'a-103', 'a-1000']);
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
