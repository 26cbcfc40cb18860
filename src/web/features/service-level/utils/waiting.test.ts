import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import { callRecord } from '../../../test-support/call-record.js';
import { waitingNow } from './waiting.js';

const NOW = Date.parse('2026-11-22T14:30:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const call = (callID: string, over: Partial<CallRecord> = {}): CallRecord =>
  callRecord(callID, { startedAt: ago(60_000), ...over });

const calls = [
  call('queued', { startedAt: ago(30_000), subscriberID: undefined }),
  call('ringing-an-agent', { startedAt: ago(10_000), subscriberID: 'ana' }),
  call('answered', { subscriberID: 'ana', answeredAt: ago(50_000) }),
  call('gone', { startedAt: ago(90_000), endedAt: ago(5_000), subscriberID: undefined }),
  call('outbound', { isOutbound: true, startedAt: ago(120_000), subscriberID: undefined }),
];

describe('waitingNow', () => {
  it('counts inbound callers neither answered nor gone, the queued ones apart, and the longest wait', () => {
    expect(waitingNow(calls, NOW)).toEqual({ count: 2, queued: 1, longestMs: 30_000 });
  });

  it('moves the longest wait with the clock on the same list', () => {
    expect(waitingNow(calls, NOW + 5_000).longestMs).toBe(35_000);
  });

  it('has no longest wait when nobody waits', () => {
    expect(waitingNow([], NOW)).toEqual({ count: 0, queued: 0, longestMs: undefined });
  });
});
