/**
 * The double of ARI is only as good as its likeness to Asterisk: its events and answers are checked
 * against Asterisk's published description, and its event sequences against those Asterisk's own
 * test suite and dialplan applications produce (the Dial statuses and hang-up causes of an answered,
 * an abandoned and a busy call; an originate continuing in the dialplan).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAriDate } from '../../server/providers/asterisk/ari-messages.js';
import { AriDouble } from './ari-double.js';
import { checkAnswer, checkEvent, checkModel, checkRequest } from './ari-description.js';

const doubles: AriDouble[] = [];
afterEach(async () => {
  for (const double of doubles.splice(0)) {
    expect(double.violations).toEqual([]);
    await double.stop();
  }
});

const start = async () => {
  const double = await AriDouble.start({ username: 'u', password: 'p', endpoints: ['PJSIP/101', 'PJSIP/102'], offset: '-0600' });
  doubles.push(double);
  return double;
};

/** The events since `from`, as "Type" or "Type:detail" (the Dial status, the hang-up cause, the new state). */
const sequence = (double: AriDouble, from = 0) =>
  double.events.slice(from).map((event) => {
    const channel = event.channel as { state?: string } | undefined;
    if (event.type === 'Dial') return `Dial:${String(event.dialstatus)}`;
    if (event.type === 'ChannelDestroyed' || event.type === 'ChannelHangupRequest') return `${String(event.type)}:${String(event.cause)}`;
    if (event.type === 'ChannelStateChange') return `ChannelStateChange:${channel?.state ?? ''}`;
    return String(event.type);
  });

describe('the published description', () => {
  it('finds what is missing, unknown, or of the wrong type', () => {
    expect(checkModel('CallerID', { name: 'Jane' })).toEqual(['CallerID.number is required']);
    expect(checkModel('Endpoint', { technology: 'PJSIP', resource: '101', state: 'busy', channel_ids: [], extra: 1 })).toEqual([
      'Endpoint.state "busy" is not one of unknown, offline, online',
      'Endpoint.extra is not in the model',
    ]);
    expect(checkEvent({ type: 'ChannelDestroyed', application: 'a', timestamp: '2026-11-26 10:00' })).toEqual(
      expect.arrayContaining(['ChannelDestroyed.timestamp must be an ARI date', 'ChannelDestroyed.cause is required', 'ChannelDestroyed.channel is required']),
    );
    expect(checkEvent({ type: 'NoSuchEvent' })).toEqual(['event type NoSuchEvent is not an Event of the description']);
    expect(checkRequest('POST', '/ari/channels', { extension: '1', priority: 'one' })).toEqual([
      'POST /channels needs endpoint',
      'POST /channels priority must be an integer, not "one"',
    ]);
    expect(checkRequest('DELETE', '/ari/channels/abc', { reason: 'bored' })[0]).toMatch(/reason "bored" is not one of/);
    expect(checkRequest('GET', '/ari/events', { app: 'callboard', subscribeAll: 'true' })).toEqual([]);
    expect(checkAnswer('DELETE', '/ari/channels/abc', 418, { message: 'teapot' })).toEqual(['DELETE /channels/{channelId} answered 418, which the description does not list']);
  });

  it('reads ARI dates with the offset Asterisk writes (no colon), to the millisecond', () => {
    expect(parseAriDate('2013-02-07T09:32:34.314-0600')).toBe(Date.UTC(2013, 1, 7, 15, 32, 34, 314));
    expect(parseAriDate('2026-11-26T11:04:19.000+0000')).toBe(Date.UTC(2026, 10, 26, 11, 4, 19));
    expect(parseAriDate('2026-11-26T12:04:19.5+01:00')).toBe(Date.UTC(2026, 10, 26, 11, 4, 19, 500));
    expect(parseAriDate('26/11/2026 11:04')).toBeUndefined();
  });
});

describe('the double\'s event sequences', () => {
  it('an inbound call answered: the queue answers the caller, rings two phones, one answers, the other is answered elsewhere', async () => {
    const double = await start();
    const call = double.inboundCall({ name: 'Jane Roe', number: '15550100001' }).ring(['PJSIP/101', 'PJSIP/102']);
    call.answer('PJSIP/101').agentHangsUp('PJSIP/101');
    expect(sequence(double)).toEqual([
      'ChannelCreated',
      'ChannelDialplan',
      'ChannelStateChange:Up',
      'ChannelCreated',
      'Dial:',
      'ChannelStateChange:Ringing',
      'Dial:RINGING',
      'ChannelCreated',
      'Dial:',
      'ChannelStateChange:Ringing',
      'Dial:RINGING',
      'ChannelStateChange:Up',
      'Dial:ANSWER',
      'Dial:CANCEL',
      'ChannelHangupRequest:26',
      'ChannelDestroyed:26',
      'ChannelConnectedLine',
      'BridgeCreated',
      'ChannelEnteredBridge',
      'ChannelEnteredBridge',
      'ChannelHangupRequest:16',
      'ChannelLeftBridge',
      'ChannelDestroyed:16',
      'ChannelHangupRequest:16',
      'ChannelLeftBridge',
      'BridgeDestroyed',
      'ChannelDestroyed:16',
    ]);
    const bridge = double.events.find((event) => event.type === 'BridgeCreated')?.bridge;
    expect(bridge).toMatchObject({ technology: 'simple_bridge', bridge_type: 'mixing', bridge_class: 'basic' });
    expect(String(double.events[0]?.timestamp)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-0600$/);
  });

  it('a caller in a queue: the trunk channel at the number dialed, then ChannelDialplan naming Queue() and its data, as the channel\'s dialplan shows it too', async () => {
    const double = await start();
    const call = double.inboundCall({ name: '', number: '15550100004' }, { did: '+15005550007', queue: 'sales-q' });
    const created = double.events.find((event) => event.type === 'ChannelCreated');
    expect(created?.channel).toMatchObject({ dialplan: { context: 'from-trunk', exten: '+15005550007' } });
    const entered = double.events.find((event) => event.type === 'ChannelDialplan');
    expect(entered).toMatchObject({ dialplan_app: 'Queue', dialplan_app_data: 'sales-q,t,,,300', channel: { id: call.channelID } });
    expect(double.channel(call.channelID)?.dialplan).toMatchObject({ exten: '+15005550007', app_name: 'Queue', app_data: 'sales-q,t,,,300' });
  });

  it('an abandoned call: the caller hangs up while a phone rings, whose Dial is cancelled', async () => {
    const double = await start();
    double.inboundCall({ name: '', number: '15550100002' }).ring(['PJSIP/102']).callerHangsUp();
    expect(sequence(double).slice(7)).toEqual(['ChannelHangupRequest:16', 'ChannelHangupRequest:16', 'Dial:CANCEL', 'ChannelDestroyed:16', 'ChannelDestroyed:16']);
  });

  it('a phone that refuses busy: cause 17, Dial BUSY', async () => {
    const double = await start();
    double.inboundCall({ name: '', number: '15550100003' }).ring(['PJSIP/101']).reject('PJSIP/101');
    expect(sequence(double).slice(7)).toEqual(['ChannelHangupRequest:17', 'Dial:BUSY', 'ChannelDestroyed:17']);
  });

  it('an originate to the dialplan: the phone rings, answers, and the dialplan dials the number through the trunk', async () => {
    const double = await start();
    double.behave('PJSIP/101', { answerAfterMs: 10 });
    double.behave('number:442079460958', { answerAfterMs: 10, talkMs: 10 });
    const auth = `Basic ${Buffer.from('u:p').toString('base64')}`;
    const answer = await fetch(`${double.url}/ari/channels?endpoint=PJSIP/101&extension=442079460958&context=from-internal&priority=1&channelId=callboard-1`, {
      method: 'POST',
      headers: { authorization: auth },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: 'callboard-1', state: 'Down', name: expect.stringMatching(/^PJSIP\/101-[0-9a-f]{8}$/) });
    await vi.waitFor(() => expect(double.liveChannels()).toEqual([]), { timeout: 2000 });
    expect(sequence(double)).toEqual([
      'ChannelCreated',
      'ChannelStateChange:Ringing',
      'ChannelStateChange:Up',
      'ChannelDialplan',
      'ChannelCreated',
      'Dial:',
      'ChannelStateChange:Ringing',
      'Dial:RINGING',
      'ChannelStateChange:Up',
      'Dial:ANSWER',
      'ChannelConnectedLine',
      'BridgeCreated',
      'ChannelEnteredBridge',
      'ChannelEnteredBridge',
      'ChannelHangupRequest:16',
      'ChannelLeftBridge',
      'ChannelDestroyed:16',
      'ChannelHangupRequest:16',
      'ChannelLeftBridge',
      'BridgeDestroyed',
      'ChannelDestroyed:16',
    ]);
    const dial = double.events.find((event) => event.type === 'Dial');
    expect(dial).toMatchObject({ dialstring: '442079460958@trunk', forward: '', caller: { id: 'callboard-1' } });
  });

  it('answers as Asterisk does: an unknown endpoint 500 "Allocation failed", a malformed one 400, a missing channel 404, no credentials 401', async () => {
    const double = await start();
    const auth = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` };
    const post = (query: string) => fetch(`${double.url}/ari/channels?${query}`, { method: 'POST', headers: auth });
    expect((await post('endpoint=PJSIP/999&extension=1')).status).toBe(500);
    expect(await (await post('endpoint=nothing&extension=1')).json()).toEqual({ message: 'Invalid endpoint specified' });
    expect((await fetch(`${double.url}/ari/channels/none`, { method: 'DELETE', headers: auth })).status).toBe(404);
    expect((await fetch(`${double.url}/ari/channels`)).status).toBe(401);
  });
});
