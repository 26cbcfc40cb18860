import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { ProviderFailure, SubscriberRejection } from '../phone-system.js';
import { JsonRpcError, type JsonRpcCall } from './json-rpc-client.js';
import { createKamailioPhoneSystem } from './kamailio-phone-system.js';
import type { DirectoryEntry } from './subscriber-directory.js';

const person = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', extension: '101', number: '15550101001', active: true };
const directory: DirectoryEntry[] = [
  { subscriberID: 'agt-ada', sipUser: '1001', ...person },
  { subscriberID: 'agt-bob', sipUser: '1002', ...person, firstName: 'Bob', extension: '102' },
  { subscriberID: 'agt-eve', sipUser: '1003', ...person, firstName: 'Eve', extension: '103', active: false },
];

const registered = new Set(['1001', '1003']);

/** Answers the way Kamailio 5.6 does for the users in `registered`, and records every request. */
const stubRPC = (dialogs: unknown[] = [], refused: readonly string[] = []) => {
  const requests: { method: string; params: readonly (string | number)[] }[] = [];
  const rpc: JsonRpcCall = async (method, params) => {
    requests.push({ method, params });
    if (refused.includes(method)) throw new JsonRpcError(method, 500, 'Method Not Found');
    switch (method) {
      case 'ul.lookup':
        if (!registered.has(String(params[1] ?? ''))) throw new JsonRpcError(method, 500, 'AOR not found in location table');
        return { AoR: params[1], Contacts: [{ Contact: { Address: `sip:${params[1]}@127.0.0.1:40000` } }] };
      case 'ul.dump':
        return { Domains: [{ Domain: { Domain: 'location', Size: 1024, AoRs: [...registered].map((AoR) => ({ AoR })) } }] };
      case 'dlg.bridge_dlg':
        return {};
      case 'dlg.list':
        return dialogs;
      case 'dlg.end_dlg':
      case 'tm.t_uac_start':
        return {};
      default:
        throw new JsonRpcError(method, 500, 'Method Not Found');
    }
  };
  return { rpc, requests };
};

const T0 = Date.parse('2026-11-22T09:00:00.000Z');
const build = (dialogs: unknown[] = [], refused: readonly string[] = []) => {
  const stub = stubRPC(dialogs, refused);
  const phoneSystem = createKamailioPhoneSystem({
    rpcURL: 'http://127.0.0.1:1/RPC',
    sipDomain: '127.0.0.1:5060',
    directory,
    clock: new ManualClock(T0),
    rpc: stub.rpc,
  });
  return { phoneSystem, requests: stub.requests };
};

const signal = () => AbortSignal.timeout(1000);

const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SubscriberRejection);
  return (error as SubscriberRejection).code;
};

const T = T0 / 1000;
/** A dialog as dlg.list gives it, with its place in the dialog table. */
const listed = (callID: string, state: number, h_entry: number, h_id: number) => ({
  h_entry,
  h_id,
  'call-id': callID,
  from_uri: 'sip:1001@127.0.0.1:5060',
  to_uri: 'sip:15551234567@127.0.0.1:5060',
  state,
  init_ts: T - 60,
  start_ts: state >= 3 ? T - 50 : 0,
  end_ts: 0,
});
/** The same with its two sides, as Kamailio 5.6 lists them. */
const withLegs = (dialog: ReturnType<typeof listed>) => ({
  ...dialog,
  iflags: 0,
  caller: { tag: 'ct1', contact: 'sip:1001@127.0.0.1:40000', cseq: '20', route_set: '', socket: 'udp:127.0.0.1:5060' },
  callee: { tag: 'ce2', contact: 'sip:15551234567@127.0.0.1:40002', cseq: '0', route_set: '', socket: 'udp:127.0.0.1:5060' },
});

describe('Kamailio ending a call', () => {
  const endTalk = async (dialogs: unknown[], refused: readonly string[] = []) => {
    const { phoneSystem, requests } = build(dialogs, refused);
    const [call] = (await phoneSystem.listCalls(signal())).filter((known) => known.providerCallID === 'talk@pc');
    await expect(phoneSystem.endCall?.(call as NonNullable<typeof call>, signal())).resolves.toEqual([
      { callID: call?.callID, at: T0, fields: { endedAt: T0 } },
    ]);
    return requests.filter((request) => request.method !== 'dlg.list').map((request) => [request.method, request.params[0], request.params[1]]);
  };

  it('sends the callee its own BYE, then ends the dialog with dlg.end_dlg, which sends BYE to both phones', async () => {
    expect(await endTalk([withLegs(listed('other@pc', 4, 7, 11)), withLegs(listed('talk@pc', 4, 342, 56))])).toEqual([
      ['tm.t_uac_start', 'BYE', 'sip:15551234567@127.0.0.1:40002'],
      ['dlg.end_dlg', 342, 56],
    ]);
  });

  it('ends the dialog with dlg.end_dlg alone when Kamailio lists no sides or refuses tm.t_uac_start', async () => {
    expect(await endTalk([listed('talk@pc', 4, 342, 56)])).toEqual([['dlg.end_dlg', 342, 56]]);
    expect(await endTalk([withLegs(listed('talk@pc', 4, 342, 56))], ['tm.t_uac_start'])).toEqual([
      ['tm.t_uac_start', 'BYE', 'sip:15551234567@127.0.0.1:40002'],
      ['dlg.end_dlg', 342, 56],
    ]);
  });

  it('refuses a ringing call, saying why, and says a call whose dialog is gone has ended', async () => {
    // A ringing dialog's callee is not known yet: Kamailio lists its side's fields as null.
    const unknownSide = { tag: null, contact: null, cseq: null, route_set: null, socket: null };
    const ringing = build([{ ...withLegs(listed('ring@pc', 2, 1, 2)), callee: unknownSide }]);
    const [call] = await ringing.phoneSystem.listCalls(signal());
    await expect(ringing.phoneSystem.endCall?.(call as NonNullable<typeof call>, signal())).rejects.toMatchObject({
      name: 'CallNotEndable',
      reason: 'refused',
      message: expect.stringMatching(/still rings/),
    });
    const gone = build([]);
    await expect(gone.phoneSystem.endCall?.(call as NonNullable<typeof call>, signal())).rejects.toMatchObject({ name: 'CallNotEndable', reason: 'ended' });
    expect([...ringing.requests, ...gone.requests].some((request) => request.method === 'dlg.end_dlg')).toBe(false);
  });
});

describe('Kamailio phone system', () => {
  it('lists the directory with each subscriber registered or not', async () => {
    const { phoneSystem } = build();
    const subscribers = await phoneSystem.listSubscribers(signal());
    expect(subscribers.map((s) => [s.providerSubscriberID, s.registered, s.active])).toEqual([
      ['agt-ada', true, true],
      ['agt-bob', false, true],
      ['agt-eve', true, false],
    ]);
  });

  it('bridges a registered subscriber to the remote number, tagging the URI the subscriber is rung at', async () => {
    const { phoneSystem, requests } = build();
    await phoneSystem.placeCall({ providerSubscriberID: 'agt-ada', remoteNumber: '15551234567' }, signal());
    expect(requests.map((r) => r.method)).toEqual(['ul.lookup', 'dlg.bridge_dlg']);
    expect(requests[0]?.params).toEqual(['location', '1001']);
    const [subscriberURI, remoteURI] = requests[1]?.params ?? [];
    expect(subscriberURI).toMatch(new RegExp(`^sip:1001@127\\.0\\.0\\.1:5060;callboard-call=[0-9a-f]{20};callboard-remote=15551234567;callboard-at=${T0}$`));
    expect(remoteURI).toBe(String(subscriberURI).replace(/^sip:1001@/, 'sip:15551234567@'));
  });

  it('refuses unknown, unregistered, inactive and mismatched subscribers without placing a call', async () => {
    const { phoneSystem, requests } = build();
    const place = (providerSubscriberID: string, extra = {}) =>
      phoneSystem.placeCall({ providerSubscriberID, remoteNumber: '15551234567', ...extra }, signal());
    expect(await rejection(place('agt-nobody'))).toBe('subscriber_not_found');
    expect(await rejection(place('agt-bob'))).toBe('subscriber_not_registered');
    expect(await rejection(place('agt-eve'))).toBe('subscriber_inactive');
    expect(await rejection(place('agt-ada', { providerSubscriberExtension: '999' }))).toBe('subscriber_mismatch');
    expect(requests.filter((r) => r.method === 'dlg.bridge_dlg')).toEqual([]);
  });

  it('passes on failures other than an unknown AoR', async () => {
    const failing = createKamailioPhoneSystem({
      rpcURL: 'http://127.0.0.1:1/RPC',
      sipDomain: '127.0.0.1:5060',
      directory,
      clock: new ManualClock(T0),
      rpc: async () => {
        throw new ProviderFailure('unavailable', 'Kamailio cannot be reached (ECONNREFUSED)');
      },
    });
    await expect(failing.placeCall({ providerSubscriberID: 'agt-ada', remoteNumber: '15551234567' }, signal())).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(failing.listCalls(signal())).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
