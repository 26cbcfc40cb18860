import { describe, expect, it } from 'vitest';
import { BencodeError, decodeBencode, encodeBencode } from './bencode.js';

describe('bencode', () => {
  it("writes rtpengine's ng messages as the protocol shows them, keys sorted", () => {
    expect(encodeBencode({ command: 'ping' }).toString()).toBe('d7:command4:pinge');
    expect(encodeBencode({ 'call-id': 'c1', flags: ['all'], 'to-tag': 't', n: -3 }).toString()).toBe('d7:call-id2:c15:flagsl3:alle1:ni-3e6:to-tag1:te');
  });

  it('reads back what it writes, multi-byte text included', () => {
    const value = { result: 'ok', sdp: 'v=0\r\ns=Grüße\r\n', list: [1, 'two', { three: [] }] };
    expect(decodeBencode(encodeBencode(value))).toEqual(value);
  });

  it('says where a malformed message goes wrong', () => {
    expect(() => decodeBencode(Buffer.from('di1e2:oke'))).toThrow(BencodeError);
    expect(() => decodeBencode(Buffer.from('di1e2:oke'))).toThrow(/key must be a string/);
    expect(() => decodeBencode(Buffer.from('d6:result2:ok'))).toThrow(/ends early/);
    expect(() => decodeBencode(Buffer.from('i01e'))).toThrow(/at byte 4: "01" is not an integer/);
    expect(() => decodeBencode(Buffer.from('4:pingX'))).toThrow(/1 bytes after the value/);
    expect(() => decodeBencode(Buffer.from('9:ping'))).toThrow(/runs past the end/);
    expect(() => encodeBencode(1.5)).toThrow(/integers only/);
  });
});
