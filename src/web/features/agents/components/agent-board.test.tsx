import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agent, boardOf } from '../../../test-support/agents.js';
import { renderWithApp } from '../../../test-support/render.js';
import { agentQueuesOf } from '../../../lib/agent-queues.js';
import { AgentBoard } from './agent-board.js';
import { WallAgentBoard } from './wall-agent-board.js';

// jsdom lays nothing out: give the grid's scroll container a height so the virtualizer has a viewport.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});

const board = boardOf([
  agent('a-101', { firstName: 'Ada', lastName: 'Byron', extension: '101', state: 'on-call', callID: 'c1', remoteNumber: '15550100100', remoteName: 'Acme Ltd', isOutbound: false }),
  agent('a-102', { firstName: 'Bo', lastName: 'Chen', extension: '102', state: 'available', callsToday: 12, missedToday: 2 }),
  agent('a-103', { firstName: 'Cy', lastName: 'Dunn', extension: '103', state: 'offline' }),
]);

describe('AgentBoard', () => {
  it('shows each agent with their state in words, the time in it, and whom they talk to or their day', () => {
    renderWithApp(<AgentBoard board={board} selected={undefined} onSelect={() => undefined} />);
    const list = screen.getByRole('list', { name: 'Agents' });
    const tiles = within(list).getAllByRole('button');
    expect(tiles.map((tile) => tile.textContent)).toEqual([
      expect.stringMatching(/^Ada Byronextension 101On a callfor \d+:\d\d.*from.*Acme Ltd$/),
      expect.stringMatching(/^Bo Chenextension 102Availablefor .*12 calls today · 2 missed$/),
      expect.stringMatching(/^Cy Dunnextension 103Offlinefor .*0 calls today$/),
    ]);
    expect(screen.getByRole('button', { name: /On a call 1/ })).toHaveAttribute('aria-pressed', 'false');
  });

  it('filters by the totals’ toggles and by a search, saying how many it shows', async () => {
    const user = userEvent.setup();
    renderWithApp(<AgentBoard board={board} selected={undefined} onSelect={() => undefined} />);
    await user.click(screen.getByRole('button', { name: /Offline 1/ }));
    expect(within(screen.getByRole('list', { name: 'Agents' })).getAllByRole('button')).toHaveLength(1);
    expect(screen.getByText(/1 of 3 agents/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Offline 1/ }));
    await user.type(screen.getByRole('searchbox', { name: 'Find an agent' }), '102');
    expect(within(screen.getByRole('list', { name: 'Agents' })).getAllByRole('button').map((b) => b.textContent)).toEqual([expect.stringMatching(/^Bo Chen/)]);
    await user.clear(screen.getByRole('searchbox', { name: 'Find an agent' }));
    await user.type(screen.getByRole('searchbox', { name: 'Find an agent' }), 'nobody');
    expect(screen.getByText('No agent matches the filter.')).toBeInTheDocument();
  });

  it("names the queues each agent answers on their tile, and filters the board by queue", async () => {
    const user = userEvent.setup();
    const member = (id: string, name: string, members: string[]) =>
      ({ providerID: 'pbx', queue: { queueID: id, name, members } }) as unknown as Parameters<typeof agentQueuesOf>[0][number];
    const queuesOf = agentQueuesOf([member('support', 'Support', ['a-101', 'a-102']), member('sales', 'Sales', ['a-102'])]);
    renderWithApp(<AgentBoard board={board} selected={undefined} onSelect={() => undefined} queuesOf={queuesOf} />);
    const tiles = () => within(screen.getByRole('list', { name: 'Agents' })).getAllByRole('button');
    expect(tiles().map((tile) => tile.textContent?.replace(/^.*(queues: |No queue)/, '$1'))).toEqual(['queues: Support', 'queues: Support, Sales', 'No queue']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Queue' }), 'Sales');
    expect(tiles().map((tile) => tile.textContent)).toEqual([expect.stringMatching(/^Bo Chen/)]);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Queue' }), 'No queue');
    expect(tiles().map((tile) => tile.textContent)).toEqual([expect.stringMatching(/^Cy Dunn/)]);
  });

  it('hands the chosen agent on, marks the one whose calls the table shows, and links to the wallboard with agents', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    renderWithApp(<AgentBoard board={board} selected="a-102" onSelect={onSelect} />, { url: '/?app=support' });
    const bo = screen.getByRole('button', { name: /^Bo Chen/ });
    expect(bo).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: /^Ada Byron/ }));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ providerID: 'pbx', agent: expect.objectContaining({ subscriberID: 'a-101' }) }));
    expect(screen.getByRole('link', { name: 'Show on the wallboard' })).toHaveAttribute('href', '/wallboard?app=support&agents=1');
  });

  it('says when the provider lists nobody, and when the board is not available', () => {
    const { unmount } = renderWithApp(<AgentBoard board={boardOf([])} selected={undefined} onSelect={() => undefined} />);
    expect(screen.getByText('The provider lists no subscribers.')).toBeInTheDocument();
    unmount();
    renderWithApp(<AgentBoard board={{ ...boardOf([]), status: 'error' }} selected={undefined} onSelect={() => undefined} />);
    expect(screen.getByText(/The agent board is not available/)).toBeInTheDocument();
  });
});

describe('WallAgentBoard', () => {
  it('shows the totals and every agent that fits, by extension', () => {
    renderWithApp(<WallAgentBoard board={board} />);
    const totals = screen.getByRole('list', { name: 'Agents per state' });
    expect(within(totals).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Available 1', 'Ringing 0', 'On a call 1', 'Offline 1', 'Inactive 0']);
    const tiles = within(screen.getByRole('region', { name: 'Agents' })).getAllByRole('listitem').filter((item) => !within(totals).queryAllByRole('listitem').includes(item));
    expect(tiles.map((tile) => tile.textContent)).toEqual([
      expect.stringMatching(/^Ada B\.101On a call\d+:\d\d$/),
      expect.stringMatching(/^Bo C\.102Available/),
      expect.stringMatching(/^Cy D\.103Offline/),
    ]);
  });
});
