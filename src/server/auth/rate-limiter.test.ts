import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { RateLimiter } from './rate-limiter.js';

describe('RateLimiter', () => {
  it('allows the allowance, then says when to retry, and refills over time', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(2, clock);
    expect(limiter.take('a')).toEqual({ allowed: true });
    expect(limiter.take('a')).toEqual({ allowed: true });
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(limiter.take('b')).toEqual({ allowed: true });
    clock.advance(30_000);
    expect(limiter.take('a')).toEqual({ allowed: true });
  });

  it('keeps at most maxKeys buckets, forgetting refilled ones before throttled ones', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(1, clock, 3);
    limiter.take('throttled');
    for (const key of ['x', 'y']) limiter.take(key);
    clock.advance(60_000);
    limiter.take('throttled');
    // x and y have refilled: a new key makes room by forgetting them, not the throttled one.
    limiter.take('new');
    expect(limiter.size).toBeLessThanOrEqual(3);
    expect(limiter.take('throttled').allowed).toBe(false);
    for (let i = 0; i < 100; i += 1) limiter.take(`flood-${i}`);
    expect(limiter.size).toBeLessThanOrEqual(3);
  });
});
