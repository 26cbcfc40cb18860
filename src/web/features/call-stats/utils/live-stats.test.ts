import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import { defaultThresholds } from '../../../lib/thresholds.js';
import { agentLabel, liveCallCount, liveStats } from './live-stats.js';
import { callRecord } from '../../../test-support/call-record.js';

const NOW = Date.parse('2026-11-22T14:30:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const call = (callID: string, over: Partial<CallRecord> = {}): CallRecord => callRecord(callID, { startedAt: ago(60_000), ...over });

const calls = [
  call('ringing-in', { startedAt: ago(10_000) }),
  call('ringing-out-long', { isOutbound: true, startedAt: ago(45_000) }),
  call('talking-in', { startedAt: ago(200_000), answeredAt: ago(180_000) }),
  call('talking-out-oldest', { isOutbound: true, startedAt: ago(150_000), answeredAt: ago(140_000 + 60_000) }),
  call('ended', { startedAt: ago(900_000), answeredAt: ago(890_000), endedAt: ago(10_000) }),
  call('missed', { isMissedCall: true, startedAt: ago(300_000), endedAt: ago(250_000) }),
];

describe('liveStats', () => {
  it('counts live calls by direction and the unanswered ones as ringing', () => {
    expect(liveStats(calls, NOW, defaultThresholds)).toMatchObject({ live: 4, inbound: 2, outbound: 2, ringing: 2, longRings: 1, longestRingMs: 45_000 });
  });

  it('finds the call talking longest, by its answer time', () => {
    const { longest } = liveStats(calls, NOW, defaultThresholds);
    expect(longest?.call.callID).toBe('talking-out-oldest');
    expect(longest?.durationMs).toBe(200_000);
    expect(longest?.overThreshold).toBe(false);
  });

  it('marks the thresholds it crosses', () => {
    const strict = { longCallMs: 200_000, longRingMs: 5_000, concurrentCalls: 4 };
    expect(liveStats(calls, NOW, strict)).toMatchObject({ atLimit: true, longRings: 2, longest: { overThreshold: true } });
    expect(liveStats(calls, NOW, { ...strict, concurrentCalls: 5 }).atLimit).toBe(false);
  });

  it('moves with the clock on the same list: ring times, long rings and the longest call', () => {
    expect(liveStats(calls, NOW, defaultThresholds)).toMatchObject({ longRings: 1, longestRingMs: 45_000, longest: { durationMs: 200_000 } });
    const later = liveStats(calls, NOW + 60_000, defaultThresholds);
    expect(later).toMatchObject({ live: 4, ringing: 2, longRings: 2, longestRingMs: 105_000, longest: { durationMs: 260_000 } });
    expect(liveCallCount(calls)).toBe(4);
  });

  it('has no longest call while nobody talks', () => {
    expect(liveStats([calls[0] as CallRecord], NOW, defaultThresholds).longest).toBeUndefined();
  });
});

describe('agentLabel', () => {
  it('names the agent with the extension, or whichever is known', () => {
    expect(agentLabel(call('a', { subscriberFirstName: 'Ana', subscriberLastName: 'Ruiz', subscriberExtension: '201' }))).toBe('Ana Ruiz (201)');
    expect(agentLabel(call('b', { subscriberExtension: '201' }))).toBe('201');
    expect(agentLabel(call('c'))).toBeUndefined();
  });
});
