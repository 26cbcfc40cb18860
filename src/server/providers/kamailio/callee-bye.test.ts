import { describe, expect, it } from 'vitest';
import { calleeByeParams } from './callee-bye.js';
import type { HandledDialog } from './dialog-calls.js';

/** An answered call as Kamailio 5.6's dlg.list gave it on the test bed: a customer's phone calling agent 1301. */
const answered = (overrides: Partial<HandledDialog> = {}): HandledDialog => ({
  h_entry: 1058,
  h_id: 9295,
  'call-id': 'd1e42e7eb3d58c66',
  from_uri: 'sip:15550005001@127.0.0.1:20222',
  to_uri: 'sip:1301@127.0.0.1:20222;transport=udp',
  state: 4,
  init_ts: 1795836404,
  start_ts: 1795836404,
  end_ts: 0,
  variables: {},
  iflags: 0,
  caller: { tag: '94539f95e3e15e17', contact: 'sip:15550005001-0x55ef371d4380@127.0.0.1:20227', cseq: '7409', route_set: '', socket: 'udp:127.0.0.1:20222' },
  callee: { tag: '6c23e401215e1f6e', contact: 'sip:1301-0x55ab8001f380@127.0.0.1:20224', cseq: '0', route_set: '', socket: 'udp:127.0.0.1:20222' },
  ...overrides,
});

const headersOf = (params: string[] | undefined) => params?.[4]?.split('\r\n').filter((line) => line !== '');

describe('the BYE to a dialog\'s callee', () => {
  it('goes to the callee\'s contact from Kamailio\'s socket, as the caller, one CSeq after the caller\'s', () => {
    const params = calleeByeParams(answered());
    expect(params?.slice(0, 4)).toEqual(['BYE', 'sip:1301-0x55ab8001f380@127.0.0.1:20224', '.', 'udp:127.0.0.1:20222']);
    expect(params?.[4]?.endsWith('\r\n')).toBe(true);
    expect(headersOf(params)).toEqual([
      'From: <sip:15550005001@127.0.0.1:20222>;tag=94539f95e3e15e17',
      'To: <sip:1301@127.0.0.1:20222;transport=udp>;tag=6c23e401215e1f6e',
      'Call-ID: d1e42e7eb3d58c66',
      'CSeq: 7410 BYE',
      'Max-Forwards: 70',
    ]);
  });

  it('skips the CSeqs a PRACK may have used, as the dialog module does', () => {
    expect(headersOf(calleeByeParams(answered({ iflags: 1 << 5 })))).toContain('CSeq: 7490 BYE');
    // Other flags (keep-alives, a timeout BYE) change nothing.
    expect(headersOf(calleeByeParams(answered({ iflags: 0b111 })))).toContain('CSeq: 7410 BYE');
  });

  it('follows the callee\'s route set: its first hop is the next hop, all of it the Route header', () => {
    const callee = { ...answered().callee!, route_set: '<sip:10.0.0.7;lr;ftag=94539f95e3e15e17>,<sip:10.0.0.9:5080;lr>' };
    const params = calleeByeParams(answered({ callee }));
    expect(params?.[2]).toBe('sip:10.0.0.7;lr;ftag=94539f95e3e15e17');
    expect(headersOf(params)).toContain('Route: <sip:10.0.0.7;lr;ftag=94539f95e3e15e17>, <sip:10.0.0.9:5080;lr>');
  });

  it('sends from the default socket when Kamailio names none', () => {
    const callee = { ...answered().callee!, socket: '' };
    expect(calleeByeParams(answered({ callee }))?.[3]).toBe('.');
  });

  it('leaves the call to dlg.end_dlg alone when the dialog lacks what the BYE needs', () => {
    const { caller, callee } = answered();
    const cases: Partial<HandledDialog>[] = [
      { caller: undefined },
      { callee: undefined },
      { callee: { ...callee!, contact: '' } },
      { callee: { ...callee!, tag: '' } },
      { caller: { ...caller!, cseq: 'seven' } },
      // A strict router's route set: the request URI would have to be the route, not the contact.
      { callee: { ...callee!, route_set: '<sip:10.0.0.7>' } },
      // Nothing from a SIP message may add a header line of its own.
      { callee: { ...callee!, tag: 'x\r\nContact: <sip:evil@10.0.0.1>' } },
      { 'call-id': 'abc\ndef' },
    ];
    for (const overrides of cases) expect(calleeByeParams(answered(overrides)), JSON.stringify(overrides)).toBeUndefined();
  });
});
