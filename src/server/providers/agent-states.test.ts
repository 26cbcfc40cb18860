import { describe, expect, it } from 'vitest';
import type { Subscriber } from '../../contract/subscriber.js';
import type { ProviderCall } from './phone-system.js';
import { deriveAgents, type Board } from './agent-states.js';

const T = Date.parse('2026-11-26T10:00:00.000Z');
const S = 1000;

const subscriber = (id: string, over: Partial<Subscriber> = {}): Subscriber => ({
  providerSubscriberID: id,
  firstName: id.toUpperCase(),
  lastName: 'Agent',
  email: `${id}@example.com`,
  extension: id.replace(/\D/g, ''),
  number: '15550100100',
  registered: true,
  active: true,
  ...over,
});

const call = (callID: string, subscriberID: string | undefined, over: Partial<ProviderCall> = {}): ProviderCall => ({
  callID,
  providerCallID: `sip-${callID}`,
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15550109999',
  startedAt: T,
  ...(subscriberID === undefined ? {} : { subscriberID }),
  ...over,
});

const ada = subscriber('a1');
const bob = subscriber('b2');

const stateOf = (board: Board, id: string) => board.agents.get(id);

describe('agent states', () => {
  it('are offline, inactive or available without a live call, from the subscriber list alone', () => {
    const board = deriveAgents(
      [ada, subscriber('off', { registered: false }), subscriber('dis', { active: false }), subscriber('both', { registered: false, active: false }), subscriber('tw', { registered: null })],
      [],
      undefined,
      T,
    );
    expect([...board.agents.values()].map((agent) => [agent.subscriberID, agent.state])).toEqual([
      ['a1', 'available'],
      ['off', 'offline'],
      ['dis', 'inactive'],
      // A disabled account says more than a phone that is off.
      ['both', 'inactive'],
      // A provider that cannot tell registration (Twilio) leaves the agent available.
      ['tw', 'available'],
    ]);
    expect(stateOf(board, 'a1')).toEqual({ subscriberID: 'a1', firstName: 'A1', lastName: 'Agent', extension: '1', state: 'available', since: T });
  });

  it('ring an agent an inbound call offers, and put them on the call from its answer, with the caller', () => {
    const ringing = deriveAgents([ada], [call('c1', 'a1', { remoteName: 'Customer' })], undefined, T + 2 * S);
    expect(stateOf(ringing, 'a1')).toMatchObject({ state: 'ringing', since: T, callID: 'c1', remoteNumber: '15550109999', remoteName: 'Customer', isOutbound: false });
    const talking = deriveAgents([ada], [call('c1', 'a1', { answeredAt: T + 4 * S })], ringing, T + 5 * S);
    expect(stateOf(talking, 'a1')).toMatchObject({ state: 'on-call', since: T + 4 * S, callID: 'c1' });
    // The state goes on: its start stays.
    const later = deriveAgents([ada], [call('c1', 'a1', { answeredAt: T + 4 * S })], talking, T + 60 * S);
    expect(stateOf(later, 'a1')?.since).toBe(T + 4 * S);
  });

  it('count a ring from the last look when the caller waited in a queue before it rang this agent', () => {
    const queued = deriveAgents([ada], [call('c1', undefined)], undefined, T + 30 * S);
    expect(stateOf(queued, 'a1')?.state).toBe('available');
    const rung = deriveAgents([ada], [call('c1', 'a1')], queued, T + 31 * S);
    expect(stateOf(rung, 'a1')).toMatchObject({ state: 'ringing', since: T + 30 * S });
  });

  it('free an agent again from the end of their call, missed or talked', () => {
    const talking = deriveAgents([ada], [call('c1', 'a1', { answeredAt: T + 4 * S })], undefined, T + 5 * S);
    const ended = call('c1', 'a1', { answeredAt: T + 4 * S, endedAt: T + 90 * S });
    const free = deriveAgents([ada], [ended], talking, T + 91 * S);
    expect(stateOf(free, 'a1')).toEqual({ subscriberID: 'a1', firstName: 'A1', lastName: 'Agent', extension: '1', state: 'available', since: T + 90 * S });
    // The ended call left the list before the look that saw it end: free since that look.
    const gone = deriveAgents([ada], [], talking, T + 200 * S);
    expect(stateOf(gone, 'a1')?.since).toBe(T + 200 * S);
  });

  it('follow a call that rings one agent, then another: the first is free again when it leaves them', () => {
    const first = deriveAgents([ada, bob], [call('c1', 'a1')], undefined, T + S);
    expect([stateOf(first, 'a1')?.state, stateOf(first, 'b2')?.state]).toEqual(['ringing', 'available']);
    const second = deriveAgents([ada, bob], [call('c1', 'b2')], first, T + 20 * S);
    expect(stateOf(second, 'a1')).toMatchObject({ state: 'available', since: T + 20 * S });
    expect(stateOf(second, 'b2')).toMatchObject({ state: 'ringing', since: T + S, callID: 'c1' });
    expect(stateOf(second, 'a1')?.callID).toBeUndefined();
  });

  it('put an agent on two calls on the one answered last, and let a connected call outrank one ringing', () => {
    const held = call('c1', 'a1', { answeredAt: T + 5 * S });
    const consult = call('c2', 'a1', { isOutbound: true, startedAt: T + 100 * S, subscriberAnsweredAt: T + 100 * S, answeredAt: T + 104 * S, remoteNumber: '15550102222' });
    const ringingToo = call('c3', 'a1', { startedAt: T + 110 * S });
    const board = deriveAgents([ada], [held, consult, ringingToo], undefined, T + 120 * S);
    expect(stateOf(board, 'a1')).toMatchObject({ state: 'on-call', callID: 'c2', remoteNumber: '15550102222', isOutbound: true, since: T + 100 * S });
    // The consult ends: back on the held call, since its answer.
    const back = deriveAgents([ada], [held, { ...consult, endedAt: T + 130 * S }], board, T + 131 * S);
    expect(stateOf(back, 'a1')).toMatchObject({ state: 'on-call', callID: 'c1', since: T + 5 * S });
  });

  it('ring an agent for a click-to-call until their phone picks up, then count them on the call while the remote rings', () => {
    const placed = call('c1', 'a1', { isOutbound: true });
    const ringing = deriveAgents([ada], [placed], undefined, T + S);
    expect(stateOf(ringing, 'a1')).toMatchObject({ state: 'ringing', isOutbound: true });
    const dialing = deriveAgents([ada], [{ ...placed, subscriberAnsweredAt: T + 3 * S }], ringing, T + 4 * S);
    expect(stateOf(dialing, 'a1')).toMatchObject({ state: 'on-call', since: T + 3 * S });
    // The remote party answers: the same call goes on, so its start stays at the pick-up.
    const talking = deriveAgents([ada], [{ ...placed, subscriberAnsweredAt: T + 3 * S, answeredAt: T + 9 * S }], dialing, T + 10 * S);
    expect(stateOf(talking, 'a1')).toMatchObject({ state: 'on-call', since: T + 3 * S });
  });

  it('keep an agent on their call when the phone unregisters during it, and offline once it ends', () => {
    const talking = deriveAgents([ada], [call('c1', 'a1', { answeredAt: T + 2 * S })], undefined, T + 3 * S);
    const lapsed = deriveAgents([{ ...ada, registered: false }], [call('c1', 'a1', { answeredAt: T + 2 * S })], talking, T + 30 * S);
    expect(stateOf(lapsed, 'a1')).toMatchObject({ state: 'on-call', since: T + 2 * S });
    const ended = deriveAgents([{ ...ada, registered: false }], [call('c1', 'a1', { answeredAt: T + 2 * S, endedAt: T + 40 * S })], lapsed, T + 41 * S);
    expect(stateOf(ended, 'a1')).toMatchObject({ state: 'offline', since: T + 40 * S });
  });

  it('date a registration change from the look that saw it, and leave out calls of no known subscriber', () => {
    const before = deriveAgents([ada], [call('c9', 'someone-else', { answeredAt: T })], undefined, T);
    expect(stateOf(before, 'a1')?.state).toBe('available');
    expect(before.agents.has('someone-else')).toBe(false);
    const off = deriveAgents([{ ...ada, registered: false }], [], before, T + 5 * S);
    expect(stateOf(off, 'a1')).toMatchObject({ state: 'offline', since: T + 5 * S });
  });
});
