import { describe, expect, it } from 'vitest';
import { queuesConfigSchema } from '../../queues/queue-config.js';
import { QueueDirectory } from '../../queues/queue-directory.js';
import { CallNotListenable, ProviderFailure } from '../phone-system.js';
import { taggedURI } from './click-to-call-tag.js';
import { callsFromDialogs, dialogToListen, parseDialogs, type Dialog } from './dialog-calls.js';
import { parseSipURI, phoneNumberOf } from './sip-uri.js';
import { createSubscriberDirectory } from './subscriber-directory.js';

const directory = createSubscriberDirectory([
  {
    subscriberID: 'agt-ada',
    sipUser: '1001',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    extension: '101',
    number: '15550101001',
    active: true,
  },
]);

const queues = new QueueDirectory(
  queuesConfigSchema.parse([
    { id: 'support', name: 'Support', numbers: ['8000'], providerQueues: ['support'] },
    { id: 'sales', name: 'Sales', numbers: ['+18005550100'], providerQueues: ['sales-line'] },
  ]),
);

const T = 1_795_000_000;
const dialog = (overrides: Partial<Dialog>): Dialog => ({
  'call-id': 'a84b4c76e66710@pc33',
  from_uri: 'sip:1001@127.0.0.1:5060',
  to_uri: 'sip:15551234567@127.0.0.1:5060;transport=udp',
  state: 4,
  init_ts: T,
  start_ts: T + 3,
  end_ts: 0,
  variables: {},
  ...overrides,
});

const ada = {
  subscriberID: 'agt-ada',
  subscriberFirstName: 'Ada',
  subscriberLastName: 'Lovelace',
  subscriberEmail: 'ada@example.com',
  subscriberExtension: '101',
  subscriberNumber: '15550101001',
};

describe('dialogs as calls', () => {
  it('lists a subscriber calling out as outbound, with times in ms and the directory fields', () => {
    const [call] = callsFromDialogs([dialog({})], directory, queues);
    expect(call).toEqual({
      callID: expect.stringMatching(/^kam-[0-9a-f]{24}$/),
      providerCallID: 'a84b4c76e66710@pc33',
      isOutbound: true,
      isMissedCall: false,
      remoteNumber: '15551234567',
      startedAt: T * 1000,
      answeredAt: (T + 3) * 1000,
      // Their own phone placed it: connected on their side from the start.
      subscriberAnsweredAt: T * 1000,
      ...ada,
    });
  });

  it('lists a call to a subscriber as inbound from the caller, and one ringing without answeredAt', () => {
    const [call] = callsFromDialogs([dialog({ from_uri: 'sip:+4930123456@127.0.0.1', to_uri: 'sip:1001@127.0.0.1', state: 2, start_ts: 0 })], directory, queues);
    expect(call).toMatchObject({ isOutbound: false, remoteNumber: '4930123456', subscriberID: 'agt-ada' });
    expect(call?.answeredAt).toBeUndefined();
  });

  it('keeps the callID stable across polls and distinct between calls', () => {
    const first = callsFromDialogs([dialog({}), dialog({ 'call-id': 'other' })], directory, queues);
    const again = callsFromDialogs([dialog({ state: 4 })], directory, queues);
    expect(again[0]?.callID).toBe(first[0]?.callID);
    expect(first[1]?.callID).not.toBe(first[0]?.callID);
  });

  it('lists an ended dialog with its end while Kamailio keeps it: answered, not missed', () => {
    const [call] = callsFromDialogs([dialog({ state: 5, end_ts: T + 40 })], directory, queues);
    expect(call).toMatchObject({ isOutbound: true, isMissedCall: false, answeredAt: (T + 3) * 1000, endedAt: (T + 40) * 1000 });
  });

  it('marks missed an inbound dialog that ended without an answer (the caller gave up, or the agent rejected it)', () => {
    const inbound = { from_uri: 'sip:15557654321@127.0.0.1', to_uri: 'sip:1001@127.0.0.1', start_ts: 0 };
    const [ringing] = callsFromDialogs([dialog({ ...inbound, state: 2 })], directory, queues);
    expect(ringing).toMatchObject({ isOutbound: false, isMissedCall: false });
    expect(ringing?.endedAt).toBeUndefined();
    const [missed] = callsFromDialogs([dialog({ ...inbound, state: 5, end_ts: T + 4 })], directory, queues);
    expect(missed).toMatchObject({ callID: ringing?.callID, isOutbound: false, isMissedCall: true, endedAt: (T + 4) * 1000 });
    expect(missed?.answeredAt).toBeUndefined();
  });

  it('ends an outbound dialog nobody answered without marking it missed', () => {
    const [call] = callsFromDialogs([dialog({ state: 5, start_ts: 0, end_ts: T + 9 })], directory, queues);
    expect(call).toMatchObject({ isOutbound: true, isMissedCall: false, endedAt: (T + 9) * 1000 });
    expect(call?.answeredAt).toBeUndefined();
  });

  it('leaves out an ended dialog that does not say when it ended: the service ends the call', () => {
    expect(callsFromDialogs([dialog({ state: 5, end_ts: 0 })], directory, queues)).toEqual([]);
  });

  it('gives an empty remote number for a caller whose user part is no phone number', () => {
    const [call] = callsFromDialogs([dialog({ from_uri: 'sip:anonymous@anonymous.invalid', to_uri: 'sip:1001@127.0.0.1' })], directory, queues);
    expect(call?.remoteNumber).toBe('');
  });

  it('lists both legs of a click-to-call as one outbound call that starts when it was placed', () => {
    const tag = { callKey: '0123456789abcdef0123', remoteNumber: '15551234567', placedAt: T * 1000 + 700 };
    const ringing = dialog({ from_uri: 'sip:controller@127.0.0.1:5060', to_uri: taggedURI('sip:1001@127.0.0.1:5060', tag), state: 2, start_ts: 0 });
    const [asRinging] = callsFromDialogs([ringing], directory, queues);
    expect(asRinging).toMatchObject({ callID: 'kam-0123456789abcdef0123', isOutbound: true, remoteNumber: '15551234567', startedAt: T * 1000 + 700, ...ada });
    expect(asRinging?.answeredAt).toBeUndefined();
    expect(asRinging?.subscriberAnsweredAt).toBeUndefined();

    // The subscriber picked up: they hear the remote number being dialed.
    const [dialing] = callsFromDialogs([{ ...ringing, state: 4, start_ts: T + 1 }], directory, queues);
    expect(dialing).toMatchObject({ subscriberAnsweredAt: (T + 1) * 1000 });
    expect(dialing?.answeredAt).toBeUndefined();

    // The subscriber answered; the controller's leg lingers while the bridged call is set up and answered in the same second.
    const agentAnswered = { ...ringing, state: 4, start_ts: T + 1 };
    const bridged = dialog({ 'call-id': 'bridged@1001', from_uri: taggedURI('sip:1001@127.0.0.1:5060', tag), state: 4, init_ts: T, start_ts: T });
    const calls = callsFromDialogs([agentAnswered, bridged], directory, queues);
    expect(calls).toEqual([
      {
        callID: 'kam-0123456789abcdef0123',
        providerCallID: 'bridged@1001',
        isOutbound: true,
        isMissedCall: false,
        remoteNumber: '15551234567',
        startedAt: T * 1000 + 700,
        answeredAt: T * 1000 + 700,
        subscriberAnsweredAt: T * 1000 + 700,
        ...ada,
      },
    ]);
  });

  it("lists a browser's click-to-call as one call too: the browser calls from its own address, the REFER's tagged target in its To", () => {
    const tag = { callKey: '0123456789abcdef0123', remoteNumber: '15551234567', placedAt: T * 1000 + 700 };
    const controller = dialog({ from_uri: 'sip:controller@127.0.0.1:5060', to_uri: taggedURI('sip:1001@127.0.0.1:5060', tag), state: 4, start_ts: T + 1 });
    const browsers = dialog({ 'call-id': 'browser@1001', from_uri: 'sip:1001@127.0.0.1:5060', to_uri: taggedURI('sip:15551234567@127.0.0.1:5060', tag), init_ts: T + 1, start_ts: T + 2 });
    expect(callsFromDialogs([controller, browsers], directory, queues)).toEqual([
      expect.objectContaining({ callID: 'kam-0123456789abcdef0123', providerCallID: 'browser@1001', isOutbound: true, remoteNumber: '15551234567', answeredAt: (T + 2) * 1000, ...ada }),
    ]);
  });

  describe('a click-to-call that ends', () => {
    const tag = { callKey: 'fedcba9876543210fedc', remoteNumber: '15551234567', placedAt: T * 1000 + 700 };
    const controller = (overrides: Partial<Dialog>) =>
      dialog({ from_uri: 'sip:controller@127.0.0.1:5060', to_uri: taggedURI('sip:1001@127.0.0.1:5060', tag), ...overrides });
    const bridged = (overrides: Partial<Dialog>) =>
      dialog({ 'call-id': 'bridged@1001', from_uri: taggedURI('sip:1001@127.0.0.1:5060', tag), init_ts: T + 2, ...overrides });

    it('ends when the subscriber never answers or rejects it, never before it was placed', () => {
      const [call] = callsFromDialogs([controller({ state: 5, start_ts: 0, end_ts: T })], directory, queues);
      expect(call).toMatchObject({ callID: 'kam-fedcba9876543210fedc', isOutbound: true, isMissedCall: false, endedAt: T * 1000 + 700 });
      expect(call?.answeredAt).toBeUndefined();
    });

    it('stays live while the subscriber who answered is transferred to the remote number', () => {
      const [call] = callsFromDialogs([controller({ state: 5, start_ts: T + 1, end_ts: T + 2 })], directory, queues);
      expect(call).toMatchObject({ callID: 'kam-fedcba9876543210fedc', isOutbound: true });
      expect(call?.endedAt).toBeUndefined();
      expect(call?.answeredAt).toBeUndefined();
    });

    it('ends unanswered when the remote party never answers', () => {
      const [call] = callsFromDialogs([bridged({ state: 5, start_ts: 0, end_ts: T + 30 })], directory, queues);
      expect(call).toMatchObject({ callID: 'kam-fedcba9876543210fedc', isMissedCall: false, endedAt: (T + 30) * 1000 });
      expect(call?.answeredAt).toBeUndefined();
    });

    it('ends answered after the two talked', () => {
      const [call] = callsFromDialogs([bridged({ state: 5, start_ts: T + 5, end_ts: T + 65 })], directory, queues);
      expect(call).toMatchObject({ answeredAt: (T + 5) * 1000, endedAt: (T + 65) * 1000, isMissedCall: false });
    });
  });

  describe("a call to a hunt group's number", () => {
    /** A customer's call to 8000 ringing two phones, as Kamailio 5.6's dlg.list gave it on the test bed. */
    const ringing = {
      h_entry: 508,
      h_id: 10245,
      ref: 1,
      'call-id': 'fed47e5bd3ff5938',
      from_uri: 'sip:15550001@127.0.0.1:21207',
      to_uri: 'sip:8000@127.0.0.1:21207;transport=udp',
      state: 2,
      start_ts: 0,
      init_ts: 1795899264,
      end_ts: 0,
      duration: 0,
      timeout: 0,
      lifetime: 14400,
      dflags: 640,
      sflags: 0,
      iflags: 0,
      caller: { tag: '4dddea6d305ee142', contact: 'sip:15550001-0x55ba0438c380@127.0.0.1:21218', cseq: '12873', route_set: '', socket: 'udp:127.0.0.1:21207' },
      callee: { tag: null, contact: null, cseq: null, route_set: null, socket: null },
      profiles: [],
      variables: [{ queue: 'support' }, { called: '8000' }],
    };
    const listed = (overrides: object) => callsFromDialogs(parseDialogs([{ ...ringing, ...overrides }]), directory, queues);

    it("is inbound in the queue the routing script named, with the number dialed", () => {
      expect(listed({})).toEqual([
        {
          callID: expect.stringMatching(/^kam-/),
          providerCallID: 'fed47e5bd3ff5938',
          isOutbound: false,
          isMissedCall: false,
          remoteNumber: '15550001',
          startedAt: 1795899264000,
          calledNumber: '8000',
          queueID: 'support',
          queueName: 'Support',
        },
      ]);
    });

    it("is in the queue of the number dialed when the script names no queue a queue lists, the number's digits without its +", () => {
      const variables = [{ queue: 'overflow' }, { called: '+18005550100' }];
      expect(listed({ variables })).toMatchObject([{ calledNumber: '18005550100', queueID: 'sales', queueName: 'Sales' }]);
      expect(listed({ variables: [{ called: 'help-desk' }] })).toEqual([expect.not.objectContaining({ queueID: expect.anything() })]);
      expect(listed({ variables: [{ called: 'help-desk' }] })).toMatchObject([{ calledNumber: 'help-desk' }]);
    });

    it('tells neither once it ended, as Kamailio drops the variables then: the service keeps those it saw', () => {
      const [ended] = listed({ state: 5, start_ts: 1795899264, end_ts: 1795899265, variables: [] });
      expect(ended).toMatchObject({ isOutbound: false, endedAt: 1795899265000 });
      expect(ended).not.toHaveProperty('calledNumber');
      expect(ended).not.toHaveProperty('queueID');
    });

    it('leaves out variables of another shape, and tells no dialed number for an outbound call', () => {
      expect(listed({ variables: { queue: 'support' } })).toEqual([expect.not.objectContaining({ queueID: expect.anything() })]);
      expect(listed({ variables: [{ called: 8000 }, { queue: 'support' }] })).toEqual([expect.not.objectContaining({ calledNumber: expect.anything() })]);
      const [outbound] = listed({ from_uri: 'sip:1001@127.0.0.1:21207' });
      expect(outbound).toMatchObject({ isOutbound: true, subscriberID: 'agt-ada' });
      expect(outbound).not.toHaveProperty('calledNumber');
      expect(outbound).not.toHaveProperty('queueID');
    });
  });

  it('refuses an answer of another shape as a provider error', () => {
    expect(() => parseDialogs({ dialogs: [] })).toThrow(ProviderFailure);
    expect(parseDialogs([{ ...dialog({}), h_entry: 1, caller: {} }])).toEqual([dialog({})]);
  });
});

describe('the dialog a listener forks', () => {
  const sides = (caller: string, callee: string) => ({
    h_entry: 1,
    h_id: 2,
    caller: { tag: caller, contact: 'sip:a@x', cseq: '1', route_set: '', socket: 'udp:127.0.0.1:5060' },
    callee: { tag: callee, contact: 'sip:b@y', cseq: '1', route_set: '', socket: 'udp:127.0.0.1:5060' },
  });
  const tag = { callKey: '0123456789abcdef0123', remoteNumber: '15551234567', placedAt: T * 1000 };
  const controller = { ...dialog({ 'call-id': 'controller@k', from_uri: 'sip:controller@127.0.0.1:5060', to_uri: taggedURI('sip:1001@127.0.0.1:5060', tag) }), ...sides('c1', 'c2') };

  it("is the subscriber's own call of a click-to-call, with both parties' tags, never the controller's leg", () => {
    const own = { ...dialog({ 'call-id': 'own@1001', from_uri: taggedURI('sip:1001@127.0.0.1:5060', tag) }), ...sides('agent', 'remote') };
    expect(dialogToListen([controller, own], 'kam-0123456789abcdef0123')).toEqual({ sipCallID: 'own@1001', tags: ['agent', 'remote'] });
    expect(() => dialogToListen([controller], 'kam-0123456789abcdef0123')).toThrow(CallNotListenable);
  });

  it('says whether the call still rings or has gone', () => {
    const ringing = { ...dialog({ state: 2, start_ts: 0 }), ...sides('a', '') };
    const [call] = callsFromDialogs([ringing], directory, queues);
    const notYet = () => dialogToListen([ringing], call?.callID ?? '');
    expect(notYet).toThrow(expect.objectContaining({ reason: 'not_answered' }));
    expect(() => dialogToListen([], call?.callID ?? '')).toThrow(expect.objectContaining({ reason: 'ended' }));
  });
});

describe('SIP URIs', () => {
  it('reads the user part and the parameters', () => {
    const uri = parseSipURI('<sip:alice:secret@example.com:5061;transport=tcp;Lr>');
    expect(uri.user).toBe('alice');
    expect([...uri.params]).toEqual([
      ['transport', 'tcp'],
      ['lr', ''],
    ]);
    expect(parseSipURI('sip:example.com').user).toBe('');
  });

  it('takes only digits as a phone number', () => {
    expect(phoneNumberOf('+15551234567')).toBe('15551234567');
    expect(phoneNumberOf('555-1234')).toBe('');
    expect(phoneNumberOf('1234567890123456')).toBe('');
  });
});
