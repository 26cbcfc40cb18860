import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { queuesConfigSchema } from '../../queues/queue-config.js';
import { QueueDirectory } from '../../queues/queue-directory.js';
import { WebhookRefused } from '../phone-system.js';
import { AgentDirectory } from './agent-directory.js';
import { isSignedByTwilio, readForm, receiveCallback, twilioSignature, updateFromCallback } from './status-callbacks.js';

const TOKEN = '12345678901234567890123456789012';
const ACCOUNT = `AC${'0123456789abcdef'.repeat(2)}`;
const BASE = 'https://callboard.example.com';
const PATH = '/v1/webhooks/twilio/acme/support/twilio';
const T = Date.parse('2026-11-26T10:00:00Z');
const rfc = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');
const agents = new AgentDirectory([
  { subscriberID: 'agt-ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', extension: '101', number: '15551230101', device: 'client:ada', active: true },
]);
const ada = { subscriberID: 'agt-ada', subscriberFirstName: 'Ada', subscriberLastName: 'Lovelace', subscriberEmail: 'ada@example.com', subscriberExtension: '101', subscriberNumber: '15551230101' };
const queues = new QueueDirectory(queuesConfigSchema.parse([{ id: 'support', name: 'Support', numbers: ['+15005550006'], providerQueues: ['support'] }]));
const ROOT = `CA${'1'.repeat(32)}`;
const CHILD = `CA${'2'.repeat(32)}`;

const callback = (over: Record<string, string>) => ({
  AccountSid: ACCOUNT,
  ApiVersion: '2010-04-01',
  CallSid: ROOT,
  CallStatus: 'ringing',
  Direction: 'inbound',
  From: '+15550100001',
  To: '+15005550006',
  Timestamp: rfc(T),
  SequenceNumber: '0',
  CallbackSource: 'call-progress-events',
  ...over,
});

describe("Twilio's request signature", () => {
  it('is the one the official helper library computes and accepts, repeated fields included', () => {
    const url = `${BASE}${PATH}?leg=remote`;
    const params = { ...callback({}), Repeated: ['b', 'a', 'b'] };
    const ours = twilioSignature(TOKEN, url, params);
    expect(ours).toBe(twilio.getExpectedTwilioSignature(TOKEN, url, params));
    expect(twilio.validateRequest(TOKEN, ours, url, params)).toBe(true);
    const plain = callback({ CallStatus: 'completed', CallDuration: '42' });
    expect(isSignedByTwilio(TOKEN, `${BASE}${PATH}`, plain, twilio.getExpectedTwilioSignature(TOKEN, `${BASE}${PATH}`, plain))).toBe(true);
  });

  it('is accepted whether Twilio signed the URL with its default port or without', () => {
    const params = callback({});
    const withPort = twilioSignature(TOKEN, `https://callboard.example.com:443${PATH}`, params);
    expect(isSignedByTwilio(TOKEN, `${BASE}${PATH}`, params, withPort)).toBe(true);
    expect(isSignedByTwilio(TOKEN, `https://callboard.example.com:8443${PATH}`, params, withPort)).toBe(false);
  });

  it('is refused for another token, another URL, or a changed field', () => {
    const params = callback({});
    const signature = twilioSignature(TOKEN, `${BASE}${PATH}`, params);
    expect(isSignedByTwilio('another-token-00000000000000000000', `${BASE}${PATH}`, params, signature)).toBe(false);
    expect(isSignedByTwilio(TOKEN, `${BASE}/v1/webhooks/twilio/acme/support/other`, params, signature)).toBe(false);
    expect(isSignedByTwilio(TOKEN, `${BASE}${PATH}`, { ...params, CallStatus: 'completed' }, signature)).toBe(false);
    expect(isSignedByTwilio(TOKEN, `${BASE}${PATH}`, params, signature.slice(1))).toBe(false);
  });
});

describe('a status callback as an update', () => {
  const receive = (params: Record<string, string>, signature?: string, url = PATH) =>
    receiveCallback(
      {
        url,
        headers: signature === undefined ? {} : { 'x-twilio-signature': signature },
        body: new URLSearchParams(params).toString(),
      },
      { authToken: TOKEN, accountSid: ACCOUNT, webhookBaseURL: `${BASE}/`, agents, queues },
    );

  it('is refused unsigned, wrongly signed, or about another account', () => {
    const params = callback({});
    expect(() => receive(params)).toThrow(expect.objectContaining({ reason: 'unsigned' }));
    expect(() => receive(params, 'bm90IGEgc2lnbmF0dXJl')).toThrow(expect.objectContaining({ reason: 'forged' }));
    const other = callback({ AccountSid: `AC${'f'.repeat(32)}` });
    expect(() => receive(other, twilioSignature(TOKEN, `${BASE}${PATH}`, other))).toThrow(WebhookRefused);
    const update = receive(params, twilioSignature(TOKEN, `${BASE}${PATH}`, params));
    expect(update).toEqual([expect.objectContaining({ callID: ROOT, source: ROOT, sequence: 0, at: T })]);
    expect(update[0]?.fields).toMatchObject({ calledNumber: '15005550006', queueID: 'support', queueName: 'Support' });
  });

  it('tells of an inbound call: made, not answered when Twilio answers it, answered by the agent’s leg, ended', () => {
    const read = (over: Record<string, string>, hint?: 'remote') => updateFromCallback(readForm(new URLSearchParams(callback(over)).toString()), agents, hint);
    expect(read({ CallStatus: 'ringing' })).toEqual({
      callID: ROOT,
      at: T,
      source: ROOT,
      sequence: 0,
      fields: { providerCallID: ROOT, isOutbound: false, remoteNumber: '15550100001', calledNumber: '15005550006' },
      defaults: { remoteNumber: '15550100001', startedAt: T },
    });
    expect(read({ CallStatus: 'in-progress', SequenceNumber: '1' }).fields.answeredAt).toBeUndefined();
    expect(read({ CallSid: CHILD, ParentCallSid: ROOT, Direction: 'outbound-dial', To: 'client:ada', CallStatus: 'ringing', Timestamp: rfc(T + 1000) })).toMatchObject({
      callID: ROOT,
      source: CHILD,
      fields: ada,
      defaults: { providerCallID: ROOT, isOutbound: false, remoteNumber: '15550100001', startedAt: T + 1000 },
    });
    expect(read({ CallSid: CHILD, ParentCallSid: ROOT, Direction: 'outbound-dial', To: 'client:ada', CallStatus: 'in-progress', Timestamp: rfc(T + 4000) }).fields).toEqual({ ...ada, answeredAt: T + 4000 });
    // An agent who did not answer leaves the call to whoever is rung next.
    expect(read({ CallSid: CHILD, ParentCallSid: ROOT, Direction: 'outbound-dial', To: 'client:ada', CallStatus: 'no-answer' }).fields).toEqual({});
    expect(read({ CallStatus: 'completed', CallDuration: '30', Timestamp: rfc(T + 30_000) })).toMatchObject({
      fields: { endedAt: T + 30_000 },
      defaults: { startedAt: T },
    });
  });

  it('tells the number an inbound caller dialed, and the queue that number belongs to: a callback names no Twilio queue', () => {
    const read = (over: Record<string, string>) => updateFromCallback(readForm(new URLSearchParams(callback(over)).toString()), agents, undefined, queues).fields;
    expect(read({ CallStatus: 'completed', CallDuration: '30' })).toMatchObject({ calledNumber: '15005550006', queueID: 'support', queueName: 'Support' });
    const elsewhere = read({ To: '+15005550099' });
    expect(elsewhere.calledNumber).toBe('15005550099');
    expect(elsewhere.queueID).toBeUndefined();
    // A call to a SIP domain or a client dialed no number.
    expect(read({ To: 'sip:support@acme.sip.twilio.com' })).not.toHaveProperty('calledNumber');
    // Neither an agent's leg nor an outbound call tells one, even to the queue's number.
    expect(read({ CallSid: CHILD, ParentCallSid: ROOT, Direction: 'outbound-dial', To: 'client:ada' })).toEqual(ada);
    const outbound = read({ Direction: 'outbound-api', From: '+15551230101', To: '+15005550006' });
    expect(outbound).not.toHaveProperty('calledNumber');
    expect(outbound).not.toHaveProperty('queueID');
  });

  it('tells of a click-to-call: the agent’s leg first, answered when the remote leg (marked so in its URL) is', () => {
    const read = (over: Record<string, string>, hint?: 'remote') => updateFromCallback(readForm(new URLSearchParams(callback(over)).toString()), agents, hint);
    const first = read({ Direction: 'outbound-api', From: '+15005550006', To: 'client:ada', CallStatus: 'in-progress' });
    // The agent picked up their leg: they hear the remote number dialed, and the call is not answered yet.
    expect(first.fields).toEqual({ providerCallID: ROOT, isOutbound: true, subscriberAnsweredAt: T, ...ada });
    const ringing = read({ Direction: 'outbound-api', From: '+15005550006', To: 'client:ada', CallStatus: 'ringing' });
    expect(ringing.fields).toEqual({ providerCallID: ROOT, isOutbound: true, ...ada });
    const remote = { CallSid: CHILD, ParentCallSid: ROOT, Direction: 'outbound-dial', From: '+15005550006', To: '+442079460958', CallStatus: 'in-progress', Timestamp: rfc(T + 9000) };
    expect(read(remote, 'remote').fields).toEqual({ remoteNumber: '442079460958', answeredAt: T + 9000 });
    // A child leg to neither an agent nor a click-to-call's remote party (a forward): nothing of the call.
    expect(read(remote).fields).toEqual({});
  });

  it('refuses a callback it cannot read: no CallSid, a status Twilio never sends, a time that is none', () => {
    const read = (params: Record<string, string>) => () => updateFromCallback(params, agents, undefined);
    expect(read({ ...callback({}), CallSid: '' })).toThrow(/no CallSid/);
    expect(read(callback({ CallStatus: 'talking' }))).toThrow(/not one of Twilio's/);
    expect(read(callback({ Timestamp: 'yesterday' }))).toThrow(/not a time/);
  });
});
