import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { agentChangesEventSchema, agentSchema, type Agent } from '../../contract/agents.js';
import type { Subscriber } from '../../contract/subscriber.js';
import { ManualClock } from '../clock.js';
import type { SubscriberActivityRow } from '../history/subscriber-activity-query.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { providerCall } from '../test-support/provider-call.js';
import { AgentBoard } from './agent-board.js';

const T = Date.parse('2026-11-26T10:00:00.000Z');
const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;

/** What the provider and the journal tell the board; a step changes it, then the board looks again. */
interface Inputs {
  subscriber: Subscriber;
  calls: ProviderCall[];
  figures: SubscriberActivityRow[];
}

const ringing = (callID: string, over: Partial<ProviderCall> = {}): ProviderCall =>
  providerCall(callID, T, { remoteNumber: '15550109999', subscriberID: 'a1', ...over });

const dayRow = (over: Partial<SubscriberActivityRow>): SubscriberActivityRow => ({ subscriberID: 'a1', calls: 0, outbound: 0, missed: 0, talkMs: 0, ...over });

/** One change of the inputs, and the fields of the agent's record it changes: those, and no other. */
interface Step {
  change: (inputs: Inputs, clock: ManualClock) => void;
  changes: Partial<Agent>;
}

// The clock stands still but where a step moves it, so that each step changes only the fields it names.
const STEPS: Step[] = [
  { change: (inputs) => (inputs.subscriber.firstName = 'Adele'), changes: { firstName: 'Adele' } },
  { change: (inputs) => (inputs.subscriber.lastName = 'Byron'), changes: { lastName: 'Byron' } },
  { change: (inputs) => (inputs.subscriber.extension = '102'), changes: { extension: '102' } },
  { change: (inputs) => (inputs.subscriber.registered = false), changes: { state: 'offline' } },
  { change: (inputs) => (inputs.subscriber.registered = true), changes: { state: 'available' } },
  { change: (inputs) => (inputs.figures = [dayRow({ calls: 1 })]), changes: { callsToday: 1 } },
  { change: (inputs) => (inputs.figures = [dayRow({ calls: 1, missed: 1 })]), changes: { missedToday: 1 } },
  { change: (inputs) => (inputs.figures = [dayRow({ calls: 1, missed: 1, talkMs: 61_000 })]), changes: { talkSecondsToday: 61 } },
  { change: (inputs) => (inputs.calls = [ringing('c1')]), changes: { state: 'ringing', callID: 'c1', remoteNumber: '15550109999', isOutbound: false } },
  // The provider tells the same ring under another call (a transfer): only the call's ID changes.
  { change: (inputs) => (inputs.calls = [ringing('c2')]), changes: { callID: 'c2' } },
  { change: (inputs) => (inputs.calls = [ringing('c2', { remoteNumber: '15550108888' })]), changes: { remoteNumber: '15550108888' } },
  { change: (inputs) => (inputs.calls = [ringing('c2', { remoteNumber: '15550108888', remoteName: 'Customer' })]), changes: { remoteName: 'Customer' } },
  {
    change: (inputs) => (inputs.calls = [ringing('c2', { remoteNumber: '15550108888', remoteName: 'Customer', isOutbound: true })]),
    changes: { isOutbound: true },
  },
  {
    change: (inputs, clock) => {
      clock.advance(5000);
      inputs.calls = [ringing('c2', { remoteNumber: '15550108888', remoteName: 'Customer', isOutbound: true, answeredAt: T + 4000 })];
    },
    changes: { state: 'on-call', since: new Date(T + 4000).toISOString() },
  },
];

describe('AgentBoard', () => {
  it('publishes every change of an agent’s record, whichever field it is', async () => {
    const clock = new ManualClock(T);
    const inputs: Inputs = {
      subscriber: { providerSubscriberID: 'a1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', extension: '101', number: '15550100101', registered: true, active: true },
      calls: [],
      figures: [],
    };
    let callsChanged = () => {};
    const board = new AgentBoard({
      providerID: 'pbx',
      providerName: 'PBX',
      clock,
      intervalMs: 60_000,
      staleAfterMs: 3_600_000,
      timeZone: 'UTC',
      listSubscribers: () => Promise.resolve([{ ...inputs.subscriber }]),
      calls: () => inputs.calls,
      watchCalls: (onChange) => {
        callsChanged = onChange;
        return () => {};
      },
      countDay: () => Promise.resolve(inputs.figures),
      log: silent,
    });
    const look = async () => {
      await board.listSubscribers();
      await board.countFigures(true);
      callsChanged();
    };
    await look();
    const first = board.read();
    if (!first.ok) throw first.failure;
    // What a client of the stream holds: the board, then each published change applied to it.
    let held = first.board.agents[0] as Agent;
    board.subscribe((entry) => {
      const published = agentChangesEventSchema.parse(JSON.parse(entry.data));
      held = published.upserted.find((agent) => agent.subscriberID === 'a1') ?? held;
    });

    for (const step of STEPS) {
      const expected = { ...held, ...step.changes };
      step.change(inputs, clock);
      await look();
      expect(held).toEqual(expected);
    }

    // Every field of the record is changed by some step: a field added to Agent needs a step here.
    const changed = new Set(STEPS.flatMap((step) => Object.keys(step.changes)));
    expect(Object.keys(agentSchema.shape).filter((field) => !changed.has(field))).toEqual(['subscriberID']);
  });
});
