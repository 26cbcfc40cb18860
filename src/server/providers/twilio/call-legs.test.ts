import { describe, expect, it } from 'vitest';
import { queuesConfigSchema } from '../../queues/queue-config.js';
import { QueueDirectory } from '../../queues/queue-directory.js';
import { AgentDirectory } from './agent-directory.js';
import { callsFromLegs } from './call-legs.js';
import { TWILIO_CALL_STATUSES, type TwilioCall, type TwilioCallStatus } from './twilio-client.js';

const T = Date.parse('2026-11-26T10:00:00Z');
const rfc = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');
const agents = new AgentDirectory([
  { subscriberID: 'agt-ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', extension: '101', number: '15551230101', device: 'client:ada', active: true },
  { subscriberID: 'agt-max', firstName: 'Max', lastName: 'Planck', email: 'max@example.com', extension: '102', number: '15551230102', device: 'sip:max@pbx.example.com', active: true },
]);
const ada = { subscriberID: 'agt-ada', subscriberFirstName: 'Ada', subscriberLastName: 'Lovelace', subscriberEmail: 'ada@example.com', subscriberExtension: '101', subscriberNumber: '15551230101' };

let sids = 0;
const leg = (over: Partial<TwilioCall>): TwilioCall => ({
  sid: `CA${String((sids += 1)).padStart(32, '0')}`,
  parent_call_sid: null,
  date_created: rfc(T),
  date_updated: rfc(T),
  to: '+15005550006',
  from: '+15550100001',
  status: 'in-progress',
  start_time: rfc(T),
  end_time: null,
  duration: null,
  direction: 'inbound',
  caller_name: null,
  ...over,
});
const ended = (status: TwilioCallStatus, endMs: number, answeredMs?: number): Partial<TwilioCall> => ({
  status,
  end_time: rfc(endMs),
  duration: answeredMs === undefined ? null : String((endMs - answeredMs) / 1000),
});

describe('Twilio legs as calls', () => {
  it('maps every status of call_enum_status: live ones without an end, the others ended at end_time', () => {
    for (const status of TWILIO_CALL_STATUSES) {
      const live = status === 'queued' || status === 'ringing' || status === 'in-progress';
      const root = leg({ direction: 'outbound-api', to: '+15550109999', status, ...(live ? {} : { end_time: rfc(T + 30_000), duration: status === 'completed' ? '20' : null }) });
      const [call] = callsFromLegs([root], agents, T + 60_000);
      expect(call, status).toMatchObject({ callID: root.sid, providerCallID: root.sid, isOutbound: true, isMissedCall: false, remoteNumber: '15550109999', startedAt: T });
      expect(call?.endedAt, status).toBe(live ? undefined : T + 30_000);
      // Answered: in progress (seen now, at the latest) or completed (its end less its duration).
      expect(call?.answeredAt, status).toBe(status === 'in-progress' ? T + 60_000 : status === 'completed' ? T + 10_000 : undefined);
    }
  });

  it('takes an ended call without end_time (it did not complete) as ended when last updated', () => {
    const [call] = callsFromLegs([leg({ direction: 'outbound-api', to: '+15550109999', status: 'failed', end_time: null, date_updated: rfc(T + 2000) })], agents, T + 5000);
    expect(call).toMatchObject({ endedAt: T + 2000 });
  });

  it('lists an inbound call once, ringing while the agent’s leg rings though Twilio answered the parent, then answered by the agent', () => {
    const root = leg({ direction: 'inbound', from: '+15550100001', caller_name: 'ACME CORP' });
    const agentLeg = leg({ parent_call_sid: root.sid, direction: 'outbound-dial', to: 'client:ada', from: '+15550100001', status: 'ringing' });
    const ringing = callsFromLegs([agentLeg, root], agents, T + 3000);
    expect(ringing).toEqual([
      { callID: root.sid, providerCallID: root.sid, isOutbound: false, isMissedCall: false, remoteNumber: '15550100001', remoteName: 'ACME CORP', startedAt: T, calledNumber: '15005550006', ...ada },
    ]);
    const talking = callsFromLegs([root, { ...agentLeg, status: 'in-progress' }], agents, T + 5000);
    expect(talking).toEqual([expect.objectContaining({ answeredAt: T + 5000, subscriberID: 'agt-ada' })]);
  });

  it('ends an inbound call that no agent answered as missed, and one an agent took as answered', () => {
    const missedRoot = leg({ direction: 'inbound', ...ended('completed', T + 20_000, T) });
    const noAnswer = leg({ parent_call_sid: missedRoot.sid, direction: 'outbound-dial', to: 'client:ada', ...ended('no-answer', T + 19_000) });
    const takenRoot = leg({ direction: 'inbound', ...ended('completed', T + 90_000, T) });
    const taken = leg({ parent_call_sid: takenRoot.sid, direction: 'outbound-dial', to: 'sip:MAX@pbx.example.com;transport=tls', ...ended('completed', T + 90_000, T + 8000) });
    const calls = callsFromLegs([missedRoot, noAnswer, takenRoot, taken], agents, T + 100_000);
    expect(calls.find((call) => call.callID === missedRoot.sid)).toMatchObject({ isMissedCall: true, subscriberID: 'agt-ada', endedAt: T + 20_000 });
    expect(calls.find((call) => call.callID === missedRoot.sid)?.answeredAt).toBeUndefined();
    expect(calls.find((call) => call.callID === takenRoot.sid)).toMatchObject({ isMissedCall: false, subscriberID: 'agt-max', answeredAt: T + 8000, endedAt: T + 90_000 });
  });

  it('lists a two-step click-to-call once: the agent’s device first, answered when the remote party answers', () => {
    const root = leg({ direction: 'outbound-api', to: 'client:ada', from: '+15005550006', status: 'ringing' });
    expect(callsFromLegs([root], agents, T + 1000)).toEqual([
      { callID: root.sid, providerCallID: root.sid, isOutbound: true, isMissedCall: false, remoteNumber: '', startedAt: T, ...ada },
    ]);
    const remote = leg({ parent_call_sid: root.sid, direction: 'outbound-dial', to: '+442079460958', status: 'ringing' });
    const dialing = callsFromLegs([{ ...root, status: 'in-progress' }, remote], agents, T + 4000);
    expect(dialing).toEqual([expect.objectContaining({ remoteNumber: '442079460958' })]);
    expect(dialing[0]?.answeredAt).toBeUndefined();
    expect(callsFromLegs([{ ...root, status: 'in-progress' }, { ...remote, status: 'in-progress' }], agents, T + 9000)[0]).toMatchObject({ answeredAt: T + 9000 });
  });

  it('lists a direct call from the agent’s own number, and an outbound call of no agent’s without a subscriber', () => {
    const direct = leg({ direction: 'outbound-api', to: '+15550109999', from: '+15551230101', status: 'ringing' });
    const other = leg({ direction: 'outbound-api', to: '+15550108888', from: '+15005550006', status: 'ringing' });
    const calls = callsFromLegs([direct, other], agents, T);
    expect(calls[0]).toMatchObject({ isOutbound: true, remoteNumber: '15550109999', ...ada });
    expect(calls[1]).toMatchObject({ isOutbound: true, remoteNumber: '15550108888' });
    expect(calls[1]?.subscriberID).toBeUndefined();
  });

  it('gives an inbound call the number dialed and its queue: the Twilio queue it waits in where a queue lists it, else the number’s; none outbound', () => {
    const directory = new QueueDirectory(
      queuesConfigSchema.parse([
        { id: 'support', name: 'Support', numbers: ['+15005550006'], providerQueues: ['support'] },
        { id: 'sales', name: 'Sales', numbers: ['+15005550007'], providerQueues: ['sales-q'] },
      ]),
    );
    const waiting = leg({ direction: 'inbound', to: '+15005550006' });
    const unlisted = leg({ direction: 'inbound', to: '+15005550007' });
    const viaSip = leg({ direction: 'inbound', to: 'sip:support@acme.sip.twilio.com' });
    const outbound = leg({ direction: 'outbound-api', from: '+15551230101', to: '+15005550006' });
    const members = new Map([
      [waiting.sid, 'sales-q'],
      [unlisted.sid, 'overflow'],
      [outbound.sid, 'sales-q'],
    ]);
    const calls = callsFromLegs([waiting, unlisted, viaSip, outbound], agents, T, { directory, members });
    expect(calls[0]).toMatchObject({ calledNumber: '15005550006', queueID: 'sales', queueName: 'Sales' });
    expect(calls[1]).toMatchObject({ calledNumber: '15005550007', queueID: 'sales', queueName: 'Sales' });
    expect(calls[2]).not.toHaveProperty('calledNumber');
    expect(calls[2]).not.toHaveProperty('queueID');
    expect(calls[3]).not.toHaveProperty('calledNumber');
    expect(calls[3]).not.toHaveProperty('queueID');
  });

  it('counts a leg read twice (it ended between two pages) once, as last read', () => {
    const root = leg({ direction: 'outbound-api', to: '+15550109999', status: 'in-progress' });
    const calls = callsFromLegs([root, { ...root, ...ended('completed', T + 5000, T + 1000) }], agents, T + 6000);
    expect(calls).toEqual([expect.objectContaining({ endedAt: T + 5000, answeredAt: T + 1000 })]);
  });
});
