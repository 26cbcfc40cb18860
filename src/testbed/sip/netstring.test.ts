import { describe, expect, it } from 'vitest';
import { encodeNetstring, NetstringReader } from './netstring.js';

describe('netstrings', () => {
  it('frames a payload by its byte length', () => {
    expect(encodeNetstring('{"a":"é"}').toString()).toBe('10:{"a":"é"},');
  });

  it('reads frames split and joined across chunks', () => {
    const reader = new NetstringReader();
    const wire = Buffer.concat([encodeNetstring('first'), encodeNetstring('{"second":2}')]);
    expect(reader.push(wire.subarray(0, 4))).toEqual([]);
    expect(reader.push(wire.subarray(4, 12))).toEqual(['first']);
    expect(reader.push(wire.subarray(12))).toEqual(['{"second":2}']);
  });

  it('refuses bytes that are not a netstring', () => {
    expect(() => new NetstringReader().push(Buffer.from('HTTP/1.1 200 OK\r\n:'))).toThrow(/not a netstring/);
    expect(() => new NetstringReader().push(Buffer.from('3:abc;'))).toThrow(/closing comma/);
  });
});
