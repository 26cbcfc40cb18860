import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { Subscriber } from '../../contract/subscriber.js';
import { ManualClock } from '../clock.js';
import type { AgentStateChange } from '../history/report-journal.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { providerCall } from '../test-support/provider-call.js';
import { AgentBoard } from './agent-board.js';

const T = Date.parse('2026-11-26T10:00:00.000Z');
const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;

const subscriber = (id: string, over: Partial<Subscriber> = {}): Subscriber => ({
  providerSubscriberID: id,
  firstName: id.toUpperCase(),
  lastName: 'Agent',
  email: `${id}@example.com`,
  extension: id.slice(-1),
  number: '15550100101',
  registered: true,
  active: true,
  ...over,
});

/** A board over scripted subscribers and calls, journaling into `written` (or failing while `failing`), as leader unless `writes` says otherwise. */
const journaledBoard = () => {
  const clock = new ManualClock(T);
  const world = { subscribers: [subscriber('a1'), subscriber('a2')], calls: [] as ProviderCall[], writes: true, failing: false };
  const written: AgentStateChange[][] = [];
  const warn = vi.fn();
  let callsChanged = () => {};
  const board = new AgentBoard({
    providerID: 'pbx',
    providerName: 'PBX',
    clock,
    intervalMs: 60_000,
    staleAfterMs: 3_600_000,
    timeZone: 'UTC',
    listSubscribers: () => Promise.resolve(world.subscribers.map((s) => ({ ...s }))),
    calls: () => world.calls,
    watchCalls: (onChange) => {
      callsChanged = onChange;
      return () => {};
    },
    countDay: () => Promise.resolve([]),
    log: { ...silent, warn } as unknown as FastifyBaseLogger,
    stateJournal: {
      retryMs: 20,
      writes: () => world.writes,
      write: (changes) => {
        if (world.failing) return Promise.reject(new Error('the database is away'));
        written.push([...changes]);
        return Promise.resolve();
      },
    },
  });
  /** The board looks again (a subscriber list, then a change of calls) and its writes settle. */
  const look = async () => {
    await board.listSubscribers();
    callsChanged();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const rows = () => written.flat().map((c) => [c.subscriberID, c.state, c.at - T]);
  return { clock, world, written, board, look, rows, warn };
};

describe('journaling the board’s states', () => {
  it('writes a row per change of state, once, with names, never earlier than the run began or than the agent’s last row', async () => {
    const { clock, world, written, look, rows } = journaledBoard();
    // a1 is on a call answered before the service started: on-call from the start here, not from the answer.
    world.calls = [providerCall('c0', T - 60_000, { subscriberID: 'a1', answeredAt: T - 50_000 })];
    await look();
    expect(written).toHaveLength(1);
    expect(written[0]?.[0]).toEqual({ subscriberID: 'a1', at: T, state: 'on-call', firstName: 'A1', lastName: 'Agent', extension: '1' });
    expect(rows()).toEqual([
      ['a1', 'on-call', 0],
      ['a2', 'available', 0],
    ]);
    // Nothing changed: nothing written.
    clock.advance(1000);
    await look();
    expect(written).toHaveLength(1);
    // The call ended at T - 10 s (told late): available from right after the on-call row, not before it.
    world.calls = [providerCall('c0', T - 60_000, { subscriberID: 'a1', answeredAt: T - 50_000, endedAt: T - 10_000 })];
    clock.advance(1000);
    await look();
    expect(rows().slice(2)).toEqual([['a1', 'available', 1]]);
    // A ring, then its answer: each from the call's own times.
    world.calls = [providerCall('c1', T + 3000, { subscriberID: 'a2' })];
    clock.advance(2000);
    await look();
    world.calls = [providerCall('c1', T + 3000, { subscriberID: 'a2', answeredAt: T + 4500 })];
    clock.advance(1000);
    await look();
    expect(rows().slice(3)).toEqual([
      ['a2', 'ringing', 3000],
      ['a2', 'on-call', 4500],
    ]);
  });

  it('journals an agent who leaves the list as unknown, and every agent as unknown when the board closes', async () => {
    const { clock, world, look, rows, board } = journaledBoard();
    await look();
    world.subscribers = [subscriber('a1')];
    clock.advance(5000);
    await look();
    expect(rows().slice(2)).toEqual([['a2', 'unknown', 5000]]);
    world.subscribers = [subscriber('a1'), subscriber('a2', { registered: false })];
    clock.advance(5000);
    await look();
    expect(rows().slice(3)).toEqual([['a2', 'offline', 10_000]]);
    clock.advance(5000);
    await board.close();
    expect(rows().slice(4)).toEqual([
      ['a1', 'unknown', 15_000],
      ['a2', 'unknown', 15_000],
    ]);
  });

  it('keeps what failed to be written and writes it again, while the board goes on', async () => {
    const { clock, world, look, rows, board, warn } = journaledBoard();
    world.failing = true;
    await look();
    expect(board.read().ok).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    world.subscribers = [subscriber('a1', { active: false }), subscriber('a2')];
    clock.advance(1000);
    await look();
    expect(rows()).toEqual([]);
    world.failing = false;
    await vi.waitFor(() =>
      expect(rows()).toEqual([
        ['a1', 'available', 0],
        ['a2', 'available', 0],
        ['a1', 'inactive', 1000],
      ]),
    );
    await board.close();
  });

  it('writes nothing as a follower, and as a new leader starts its rows from when it took over', async () => {
    const { clock, world, look, rows, board } = journaledBoard();
    world.writes = false;
    world.calls = [providerCall('c1', T - 1000, { subscriberID: 'a1' })];
    await look();
    clock.advance(10_000);
    await look();
    expect(rows()).toEqual([]);
    world.writes = true;
    clock.advance(10_000);
    await look();
    expect(rows()).toEqual([
      ['a1', 'ringing', 20_000],
      ['a2', 'available', 20_000],
    ]);
    world.writes = false;
    await board.close();
    expect(rows()).toHaveLength(2);
  });
});
