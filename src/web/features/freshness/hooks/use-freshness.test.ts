import { describe, expect, it } from 'vitest';
import { STREAM_DEAD_AFTER_MS } from '../../../../contract/call-stream.js';
import { freshnessOf } from './use-freshness.js';

const NOW = Date.parse('2026-11-23T09:00:00Z');
const INTERVAL = 2_000;

const polled = {
  status: 'ready' as const,
  snapshotAgeMs: 500,
  receivedAt: NOW - 1_000,
  failures: 0,
  mode: 'polling' as const,
  streamAliveAt: 0,
};
const streamed = { ...polled, mode: 'streaming' as const, receivedAt: NOW - 60_000, streamAliveAt: NOW - 3_000 };
const problem = { type: 'about:blank', title: 'Unavailable', status: 503, detail: 'down', code: 'provider_unavailable' as const };

describe('freshnessOf', () => {
  it('polled calls: as old as the last answer, stale after a few missed polls', () => {
    expect(freshnessOf(polled, NOW, false, INTERVAL)).toEqual({ level: 'live', ageMs: 1_500 });
    expect(freshnessOf({ ...polled, receivedAt: NOW - 12_000 }, NOW, false, INTERVAL).level).toBe('stale');
  });

  it('pushed calls: live while the stream shows signs of life, though no call changed for a minute', () => {
    expect(freshnessOf(streamed, NOW, false, INTERVAL)).toEqual({ level: 'live', ageMs: 3_000 });
  });

  it('pushed calls: stale once the stream went silent', () => {
    expect(freshnessOf({ ...streamed, streamAliveAt: NOW - STREAM_DEAD_AFTER_MS - 1 }, NOW, false, INTERVAL).level).toBe('stale');
  });

  it('a failing provider turns stale as its last snapshot ages, by the rule for polled calls', () => {
    const failing = { available: true, problem, snapshotAgeMs: 4_000, toldAt: NOW - 2_000 };
    expect(freshnessOf({ ...streamed, unhealthy: failing }, NOW, false, INTERVAL)).toEqual({ level: 'live', ageMs: 6_000 });
    expect(freshnessOf({ ...streamed, unhealthy: failing }, NOW + 5_000, false, INTERVAL)).toEqual({
      level: 'stale',
      ageMs: 11_000,
    });
  });

  it('a provider the service no longer serves is stale at once', () => {
    const gone = { available: false, problem, snapshotAgeMs: 30_500, toldAt: NOW };
    expect(freshnessOf({ ...streamed, unhealthy: gone }, NOW, false, INTERVAL).level).toBe('stale');
  });

  it('paused shows as paused, whatever the delivery', () => {
    expect(freshnessOf(streamed, NOW, true, INTERVAL).level).toBe('paused');
  });
});
