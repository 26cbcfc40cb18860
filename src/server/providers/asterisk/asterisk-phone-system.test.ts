/**
 * The Asterisk provider against the double of ARI, over real HTTP and a real WebSocket: the calls
 * it makes of the legs Asterisk tells of (an inbound call answered, one abandoned, one a phone
 * refused busy, a two-step and a direct click-to-call), the refusals it maps, ending a call, and
 * what it does while the event socket is down.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../clock.js';
import { queuesConfigSchema, type QueueConfig } from '../../queues/queue-config.js';
import { AriDouble } from '../../../testbed/asterisk/ari-double.js';
import { ARI_PASSWORD, ARI_USER, asteriskOnDouble } from '../../../testbed/asterisk/asterisk-testbed.js';
import { CallNotEndable, SubscriberRejection, type CallUpdate, type PhoneSystem, type ProviderCall, type StreamHealth } from '../phone-system.js';

const CALLER = { name: 'Jane Roe', number: '15550100001' };
const REMOTE = '442079460958';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Bed {
  double: AriDouble;
  phone: PhoneSystem;
  /** The calls as the pushed updates made them, by call ID. */
  pushed: Map<string, ProviderCall>;
  updates: CallUpdate[];
  health: StreamHealth[];
  until: <T>(read: () => T | undefined | false) => Promise<T>;
  signal: AbortSignal;
}

const start = async (options: { dialMode?: 'two-step' | 'direct'; stream?: boolean; queues?: readonly QueueConfig[] } = {}): Promise<Bed> => {
  const double = await AriDouble.start({ username: ARI_USER, password: ARI_PASSWORD, endpoints: ['PJSIP/101', 'PJSIP/102', 'PJSIP/103'] });
  cleanups.push(() => double.stop());
  // Every request the provider made, and everything the double answered and sent, as Asterisk's description defines it.
  cleanups.push(() => expect(double.violations).toEqual([]));
  const phone = asteriskOnDouble(double.url, systemClock, { dialMode: options.dialMode ?? 'two-step', ...(options.queues ? { queues: options.queues } : {}) });
  cleanups.push(() => phone.close());
  const pushed = new Map<string, ProviderCall>();
  const updates: CallUpdate[] = [];
  const health: StreamHealth[] = [];
  if (options.stream !== false) {
    const stop = phone.streamUpdates?.(
      (batch) => {
        updates.push(...batch);
        for (const update of batch) pushed.set(update.callID, { ...pushed.get(update.callID), ...update.fields, callID: update.callID } as ProviderCall);
      },
      (told) => health.push(told),
    );
    cleanups.push(() => stop?.());
    await vi.waitFor(() => expect(double.openSockets).toBe(1));
  }
  const until = <T,>(read: () => T | undefined | false) =>
    vi.waitFor(
      () => {
        const value = read();
        if (value === undefined || value === false) throw new Error('not yet');
        return value;
      },
      { timeout: 3000, interval: 10 },
    );
  return { double, phone, pushed, updates, health, until, signal: AbortSignal.timeout(5000) };
};

const only = (bed: Bed) => {
  expect(bed.pushed.size).toBe(1);
  return [...bed.pushed.values()][0] as ProviderCall;
};

describe('Asterisk calls from ARI events', () => {
  it('makes one inbound call of the caller and the phones a queue rings, answered when an agent picks up', async () => {
    const bed = await start();
    const call = bed.double.inboundCall(CALLER).ring(['PJSIP/101', 'PJSIP/102']);
    const ringing = await bed.until(() => bed.pushed.get(call.channelID)?.subscriberID !== undefined && bed.pushed.get(call.channelID));
    expect(ringing).toMatchObject({ isOutbound: false, remoteNumber: CALLER.number, remoteName: CALLER.name, isMissedCall: false });
    expect(ringing.answeredAt).toBeUndefined();
    call.answer('PJSIP/102');
    const answered = await bed.until(() => bed.pushed.get(call.channelID)?.answeredAt !== undefined && bed.pushed.get(call.channelID));
    expect(answered).toMatchObject({ subscriberID: 'agt-102', subscriberFirstName: 'Max', subscriberExtension: '102' });
    // The queue answered the caller at once; the call is answered when the agent's phone is.
    expect(answered.answeredAt).toBeGreaterThanOrEqual(answered.startedAt);
    call.agentHangsUp('PJSIP/102');
    const ended = await bed.until(() => bed.pushed.get(call.channelID)?.endedAt !== undefined && bed.pushed.get(call.channelID));
    expect(ended).toMatchObject({ isMissedCall: false, subscriberID: 'agt-102' });
    // One call for the caller, the two phones rung and the bridge: nothing else was told.
    expect(only(bed).callID).toBe(call.channelID);
    expect((await bed.phone.listCalls(bed.signal)).map((listed) => listed.callID)).toEqual([call.channelID]);
  });

  it('counts a caller who hangs up while the phones ring as missed', async () => {
    const bed = await start();
    const call = bed.double.inboundCall(CALLER).ring(['PJSIP/101']);
    await bed.until(() => bed.pushed.get(call.channelID)?.subscriberID);
    call.callerHangsUp();
    const ended = await bed.until(() => bed.pushed.get(call.channelID)?.endedAt !== undefined && bed.pushed.get(call.channelID));
    expect(ended).toMatchObject({ isOutbound: false, isMissedCall: true });
    expect(ended.answeredAt).toBeUndefined();
    expect(bed.pushed.size).toBe(1);
  });

  it('counts a call whose only phone refused it busy, and the caller then gave up, as missed', async () => {
    const bed = await start();
    const call = bed.double.inboundCall(CALLER).ring(['PJSIP/103']);
    call.reject('PJSIP/103');
    await vi.waitFor(() => expect(bed.double.events.some((event) => event.type === 'Dial' && event.dialstatus === 'BUSY')).toBe(true));
    call.callerHangsUp();
    const ended = await bed.until(() => bed.pushed.get(call.channelID)?.endedAt !== undefined && bed.pushed.get(call.channelID));
    expect(ended).toMatchObject({ isMissedCall: true, subscriberID: 'agt-103' });
  });

  it('reads dates with the server\'s local offset', async () => {
    const bed = await start();
    const before = Date.now();
    const call = bed.double.inboundCall(CALLER);
    const told = await bed.until(() => bed.pushed.get(call.channelID));
    expect(bed.double.channel(call.channelID)?.creationtime).toMatch(/\+0100$/);
    expect(Math.abs(told.startedAt - before)).toBeLessThan(1000);
  });
});

describe('calls that began before the service listened', () => {
  it('joins them from ARI\'s lists: the answered call by its bridge, the ringing phone by the caller it shows', async () => {
    const bed = await start({ stream: false });
    const answered = bed.double.inboundCall(CALLER).ring(['PJSIP/101']).answer('PJSIP/101');
    const ringing = bed.double.inboundCall({ name: 'Sam Poe', number: '15550100002' }).ring(['PJSIP/102']);
    const listed = await bed.phone.listCalls(bed.signal);
    expect(listed.map((call) => [call.callID, call.isOutbound, call.subscriberID, call.answeredAt !== undefined])).toEqual([
      [answered.channelID, false, 'agt-101', true],
      [ringing.channelID, false, 'agt-102', false],
    ]);
    ringing.callerHangsUp();
    const after = await bed.phone.listCalls(bed.signal);
    expect(after.find((call) => call.callID === ringing.channelID)).toMatchObject({ isMissedCall: true, endedAt: expect.any(Number) });
    expect(after).toHaveLength(2);
  });
});

describe('what real Asterisks do that a simple model would get wrong', () => {
  it('publishes no call for a phone rung before the Dial that names its caller arrives (a pre-dial subroutine runs between)', async () => {
    const bed = await start();
    const call = bed.double.inboundCall(CALLER);
    const leg = bed.double.outgoingChannel(call.channelID, 'PJSIP/101', 'AppQueue');
    await new Promise((resolve) => setTimeout(resolve, 300));
    bed.double.tellDial(call.channelID, leg.id, '101');
    bed.double.answer(leg.id);
    await bed.until(() => bed.pushed.get(call.channelID)?.answeredAt !== undefined);
    expect([...bed.pushed.keys()]).toEqual([call.channelID]);
    expect(bed.updates.every((update) => update.callID === call.channelID)).toBe(true);
  });

  it('joins a queue\'s Local member (its two halves and the phone it dials) to the caller: one inbound call', async () => {
    const bed = await start();
    const call = bed.double.inboundCall(CALLER);
    const half1 = bed.double.outgoingChannel(call.channelID, 'Local/101@from-queue', 'AppQueue', 'Local/101@from-queue-0000001a;1');
    const half2 = bed.double.createChannel('Local/101@from-queue', { name: 'Local/101@from-queue-0000001a;2', caller: CALLER, state: 'Ring' });
    bed.double.tellDial(call.channelID, half1.id, 'Local/101@from-queue/n');
    const phone = bed.double.dial(half2.id, 'PJSIP/101', 'PJSIP/101');
    const ringing = await bed.until(() => bed.pushed.get(call.channelID)?.subscriberID !== undefined && bed.pushed.get(call.channelID));
    expect(ringing).toMatchObject({ isOutbound: false, subscriberID: 'agt-101', remoteNumber: CALLER.number });
    bed.double.answer(phone.id);
    await bed.until(() => bed.pushed.get(call.channelID)?.answeredAt !== undefined);
    bed.double.hangup(call.channelID);
    bed.double.hangup(half1.id);
    bed.double.hangup(half2.id);
    const ended = await bed.until(() => bed.pushed.get(call.channelID)?.endedAt !== undefined && bed.pushed.get(call.channelID));
    expect(ended.isMissedCall).toBe(false);
    expect([...bed.pushed.keys()]).toEqual([call.channelID]);
  });

  it('lets a channel that leaves a bridge alive (a transfer, an agent\'s standing channel) go: the next call is a call of its own', async () => {
    const bed = await start();
    const first = bed.double.inboundCall(CALLER);
    const agent = bed.double.createChannel('PJSIP/102', { caller: { name: 'Max', number: '102' }, exten: '102', state: 'Up' });
    const bridge = bed.double.bridge([first.channelID, agent.id]);
    await bed.until(() => bed.pushed.get(first.channelID));
    bed.double.leaveBridge(bridge.id, agent.id);
    bed.double.hangup(first.channelID);
    await bed.until(() => bed.pushed.get(first.channelID)?.endedAt !== undefined);
    const second = bed.double.inboundCall({ name: 'Sam Poe', number: '15550100002' });
    bed.double.bridge([second.channelID, agent.id]);
    const next = await bed.until(() => bed.pushed.get(second.channelID)?.answeredAt !== undefined && bed.pushed.get(second.channelID));
    expect(next).toMatchObject({ isOutbound: false, remoteNumber: '15550100002', subscriberID: 'agt-102' });
    expect(next.endedAt).toBeUndefined();
    expect(bed.pushed.get(first.channelID)).toMatchObject({ remoteNumber: CALLER.number, endedAt: expect.any(Number) });
  });

  it('reads a list with a channel in a state the description does not name (Asterisk writes "Rsrvd" and "Mute")', async () => {
    const bed = await start({ stream: false });
    const call = bed.double.inboundCall(CALLER).ring(['PJSIP/101']);
    bed.double.forceState(call.legOf('PJSIP/101'), 'Rsrvd');
    expect((await bed.phone.listCalls(bed.signal)).map((listed) => listed.callID)).toEqual([call.channelID]);
    bed.double.violations.length = 0;
  });

  it('numbers a call an agent dialed from the phone by what they dialed, not by the port in the trunk\'s dial string', async () => {
    const bed = await start();
    const phone = bed.double.createChannel('PJSIP/103', { caller: { name: 'Lin', number: '103' }, exten: '911', context: 'from-internal', state: 'Ring' });
    bed.double.runApp(phone.id, 'Macro', 'dialout-trunk', { context: 'macro-dialout-trunk', exten: 's' });
    bed.double.dial(phone.id, 'PJSIP/trunk', 'PJSIP/trunk/sip:911@10.0.0.1:5060');
    const call = await bed.until(() => bed.pushed.get(phone.id));
    expect(call).toMatchObject({ isOutbound: true, remoteNumber: '911', subscriberID: 'agt-103' });
    expect(call.subscriberAnsweredAt).toBe(call.startedAt);
  });
});

/** Support takes the number 15005550006; Sales the callers of Asterisk's `Queue(sales-q)`. */
const QUEUES = queuesConfigSchema.parse([
  { id: 'support', name: 'Support', numbers: ['+15005550006'], providerQueues: ['support'] },
  { id: 'sales', name: 'Sales', numbers: ['+15005550007'], providerQueues: ['sales-q'] },
]);

describe('the queue a caller waits in, and the number they dialed', () => {
  it('is the Queue() the caller runs where a configured queue lists it, else the number dialed; an outbound call has neither', async () => {
    const bed = await start({ queues: QUEUES });
    // Support's number dialed, but Asterisk's Queue(sales-q) took the caller: the phone system's own queue comes first.
    const sales = bed.double.inboundCall(CALLER, { did: '15005550006', queue: 'sales-q' }).ring(['PJSIP/101']);
    // A queue no configured queue lists: the number dialed decides, its "+" dropped.
    const overflow = bed.double.inboundCall({ name: '', number: '15550100002' }, { did: '+15005550007', queue: 'overflow' });
    // An extension no queue lists: the number dialed, and no queue.
    const nowhere = bed.double.inboundCall({ name: '', number: '15550100003' }, { did: '700', queue: 'overflow' });
    bed.double.behave('PJSIP/102', { answerAfterMs: 30 });
    const placed = (await bed.phone.placeCall({ providerSubscriberID: 'agt-102', remoteNumber: REMOTE }, bed.signal)) as CallUpdate[];
    // What the placed call's answer told (of every call that changed) is pushed too.
    for (const update of placed) bed.pushed.set(update.callID, { ...bed.pushed.get(update.callID), ...update.fields, callID: update.callID } as ProviderCall);
    await bed.until(() => bed.pushed.get(sales.channelID)?.subscriberID !== undefined && bed.pushed.has(nowhere.channelID));
    expect(bed.pushed.get(sales.channelID)).toMatchObject({ isOutbound: false, calledNumber: '15005550006', queueID: 'sales', queueName: 'Sales' });
    expect(bed.pushed.get(overflow.channelID)).toMatchObject({ calledNumber: '15005550007', queueID: 'sales', queueName: 'Sales' });
    expect(bed.pushed.get(nowhere.channelID)).toMatchObject({ calledNumber: '700' });
    expect(bed.pushed.get(nowhere.channelID)).not.toHaveProperty('queueID');
    const outbound = (await bed.phone.listCalls(bed.signal)).find((call) => call.isOutbound);
    expect(outbound).toMatchObject({ isOutbound: true, remoteNumber: REMOTE });
    expect(outbound).not.toHaveProperty('calledNumber');
    expect(outbound).not.toHaveProperty('queueID');
    // Answered by the agent, the caller is still Sales's.
    sales.answer('PJSIP/101');
    await bed.until(() => bed.pushed.get(sales.channelID)?.answeredAt !== undefined);
    expect(bed.pushed.get(sales.channelID)).toMatchObject({ queueID: 'sales', subscriberID: 'agt-101' });
  });

  it('is the Queue() a Local channel the caller dialed runs', async () => {
    const bed = await start({ queues: QUEUES });
    const caller = bed.double.createChannel('PJSIP/trunk', { caller: CALLER, context: 'from-trunk', exten: '15005550099', state: 'Ring' });
    bed.double.runApp(caller.id, 'Dial', 'Local/600@queues', { context: 'from-trunk', exten: '15005550099' });
    const half1 = bed.double.outgoingChannel(caller.id, 'Local/600@queues', 'AppDial', 'Local/600@queues-0000001b;1');
    const half2 = bed.double.createChannel('Local/600@queues', { name: 'Local/600@queues-0000001b;2', caller: CALLER, context: 'queues', exten: '600', state: 'Ring' });
    bed.double.tellDial(caller.id, half1.id, 'Local/600@queues');
    bed.double.runApp(half2.id, 'Queue', 'sales-q,t', { context: 'queues', exten: '600' });
    const call = await bed.until(() => bed.pushed.get(caller.id)?.queueID !== undefined && bed.pushed.get(caller.id));
    expect(call).toMatchObject({ isOutbound: false, calledNumber: '15005550099', queueID: 'sales', queueName: 'Sales' });
    expect([...bed.pushed.keys()]).toEqual([caller.id]);
  });

  it('is read from ARI\'s channel list for a caller who was waiting before the service listened', async () => {
    const bed = await start({ stream: false, queues: QUEUES });
    const call = bed.double.inboundCall(CALLER, { did: '15005550006', queue: 'sales-q' });
    const [listed] = await bed.phone.listCalls(bed.signal);
    expect(listed).toMatchObject({ callID: call.channelID, calledNumber: '15005550006', queueID: 'sales', queueName: 'Sales' });
  });
});

describe('placing a call through ARI', () => {
  it('two steps: rings the agent\'s phone, and once answered the dialplan dials the number: one outbound call', async () => {
    const bed = await start();
    bed.double.behave('PJSIP/101', { answerAfterMs: 40 });
    bed.double.behave(`number:${REMOTE}`, { answerAfterMs: 40, talkMs: 80 });
    const told = await bed.phone.placeCall({ providerSubscriberID: 'agt-101', remoteNumber: REMOTE }, bed.signal);
    const callID = (told as CallUpdate[])[0]?.callID as string;
    expect(callID).toMatch(/^callboard-/);
    const originate = bed.double.requests.find((request) => request.method === 'POST');
    expect(originate).toMatchObject({ path: '/ari/channels', query: { endpoint: 'PJSIP/101', extension: REMOTE, context: 'from-internal', priority: '1', channelId: callID } });
    for (const update of told as CallUpdate[]) bed.pushed.set(update.callID, { ...bed.pushed.get(update.callID), ...update.fields, callID } as ProviderCall);
    const ended = await bed.until(() => bed.pushed.get(callID)?.endedAt !== undefined && bed.pushed.get(callID));
    expect(ended).toMatchObject({ isOutbound: true, isMissedCall: false, remoteNumber: REMOTE, subscriberID: 'agt-101' });
    expect(ended.subscriberAnsweredAt).toBeLessThanOrEqual(ended.answeredAt as number);
    expect(ended.answeredAt).toBeGreaterThan(ended.startedAt);
    expect(only(bed).callID).toBe(callID);
  });

  it('direct: dials the number first, then the agent\'s extension; still the agent\'s outbound call', async () => {
    const bed = await start({ dialMode: 'direct' });
    bed.double.behave(`number:${REMOTE}`, { answerAfterMs: 30 });
    bed.double.behave('PJSIP/102', { answerAfterMs: 30, talkMs: 60 });
    const told = (await bed.phone.placeCall({ providerSubscriberID: 'agt-102', remoteNumber: REMOTE }, bed.signal)) as CallUpdate[];
    const callID = told[0]?.callID as string;
    const originate = bed.double.requests.find((request) => request.method === 'POST');
    expect(originate?.query).toMatchObject({ endpoint: `PJSIP/${REMOTE}@trunk`, extension: '102', context: 'from-internal' });
    const ended = await bed.until(() => bed.pushed.get(callID)?.endedAt !== undefined && bed.pushed.get(callID));
    expect(ended).toMatchObject({ isOutbound: true, remoteNumber: REMOTE, subscriberID: 'agt-102', isMissedCall: false });
    expect(ended.subscriberAnsweredAt).toBeGreaterThanOrEqual(ended.answeredAt as number);
  });

  it('refuses an agent whose endpoint Asterisk does not know, or whose phone is offline, before anything rings', async () => {
    const bed = await start();
    const unknown = asteriskOnDouble(bed.double.url, systemClock, {
      agents: [{ subscriberID: 'agt-9', firstName: 'No', lastName: 'Phone', email: '', extension: '199', number: '15550000199', endpoint: 'PJSIP/199', active: true }],
    });
    await expect(unknown.placeCall({ providerSubscriberID: 'agt-9', remoteNumber: REMOTE }, bed.signal)).rejects.toMatchObject({
      code: 'subscriber_not_found',
      message: expect.stringContaining('PJSIP/199'),
    });
    bed.double.setEndpointState('PJSIP/103', 'offline');
    const refusal = bed.phone.placeCall({ providerSubscriberID: 'agt-103', remoteNumber: REMOTE }, bed.signal);
    await expect(refusal).rejects.toBeInstanceOf(SubscriberRejection);
    await expect(refusal).rejects.toMatchObject({ code: 'subscriber_not_registered' });
    expect(bed.double.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('tells who is registered from the endpoints, and follows their state changes', async () => {
    const bed = await start();
    expect((await bed.phone.listSubscribers(bed.signal)).map((s) => [s.providerSubscriberID, s.registered])).toEqual([
      ['agt-101', true],
      ['agt-102', true],
      ['agt-103', true],
    ]);
    bed.double.setEndpointState('PJSIP/102', 'offline');
    await vi.waitFor(async () => expect((await bed.phone.listSubscribers(bed.signal))[1]?.registered).toBe(false));
  });
});

describe('ending a call through ARI', () => {
  it('hangs up every live leg of the call', async () => {
    const bed = await start();
    const call = bed.double.inboundCall(CALLER).ring(['PJSIP/101']).answer('PJSIP/101');
    const answered = await bed.until(() => bed.pushed.get(call.channelID)?.answeredAt !== undefined && bed.pushed.get(call.channelID));
    await bed.phone.endCall?.(answered, bed.signal);
    expect(bed.double.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toContain(`/ari/channels/${call.channelID}`);
    const ended = await bed.until(() => bed.pushed.get(call.channelID)?.endedAt !== undefined && bed.pushed.get(call.channelID));
    expect(ended.isMissedCall).toBe(false);
    await expect(bed.phone.endCall?.(ended, bed.signal)).rejects.toBeInstanceOf(CallNotEndable);
  });
});

describe('the event socket', () => {
  it('says when it drops, lists while it is down, and tells what passed once it reopens', async () => {
    const bed = await start();
    await vi.waitFor(() => expect(bed.health).toEqual([{ connected: true }]));
    bed.double.refuseEvents = true;
    bed.double.cutEvents();
    await vi.waitFor(() => expect(bed.health.at(-1)).toMatchObject({ connected: false, detail: expect.stringContaining('polled') }));
    const call = bed.double.inboundCall(CALLER).ring(['PJSIP/101']).answer('PJSIP/101');
    // Down: every list asks ARI.
    const listed = await bed.phone.listCalls(bed.signal);
    expect(listed.map((c) => c.callID)).toEqual([call.channelID]);
    expect(listed[0]).toMatchObject({ isOutbound: false, subscriberID: 'agt-101', remoteNumber: CALLER.number });
    call.agentHangsUp('PJSIP/101');
    bed.double.refuseEvents = false;
    await vi.waitFor(() => expect(bed.health.at(-1)).toEqual({ connected: true }), { timeout: 12_000 });
    // Reopened: the lists reconcile the model and the call's end is told.
    const ended = await bed.until(() => bed.pushed.get(call.channelID)?.endedAt !== undefined && bed.pushed.get(call.channelID));
    expect(ended.endedAt).toBeGreaterThan(ended.startedAt);
  });

  it('answers lists from the events while the socket is up, asking ARI only to reconcile', async () => {
    const bed = await start();
    await vi.waitFor(() => expect(bed.double.requests.filter((request) => request.path === '/ari/channels').length).toBe(1));
    const before = bed.double.requests.length;
    for (let i = 0; i < 5; i += 1) await bed.phone.listCalls(bed.signal);
    expect(bed.double.requests.length).toBe(before);
  });
});
