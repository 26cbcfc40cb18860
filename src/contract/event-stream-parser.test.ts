import { describe, expect, it } from 'vitest';
import { createEventStreamParser } from './event-stream-parser.js';

describe('event stream parser', () => {
  it('reads events, ids, retry and comments, across chunks and line ends', () => {
    const parser = createEventStreamParser();
    expect(parser.push('retry: 2000\n\n: heartbeat\n\nid: a1\nevent: snap')).toEqual([]);
    expect(parser.push('shot\ndata: {"x":1}\r\n\r\nid: a2\rdata: one\rdata: two\r')).toEqual([{ event: 'snapshot', data: '{"x":1}', id: 'a1' }]);
    expect(parser.push('\n\n')).toEqual([{ event: 'message', data: 'one\ntwo', id: 'a2' }]);
    expect(parser.retryMs).toBe(2000);
  });

  it('keeps the last id for events without one, and ignores unknown fields and empty events', () => {
    const parser = createEventStreamParser();
    expect(parser.push('id: 7\ndata: a\n\nfoo: bar\ndata: b\n\nevent: x\n\n')).toEqual([
      { event: 'message', data: 'a', id: '7' },
      { event: 'message', data: 'b', id: '7' },
    ]);
  });
});
