/** A token bucket per caller: `perMinute` requests a minute, refilled continuously. */
import type { Clock } from '../clock.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One answer shared by every allowed request: nothing is allocated for the common case. */
const ALLOWED: RateDecision = Object.freeze({ allowed: true });

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;

  /**
   * `maxKeys` bounds the buckets kept when callers are many and unknown (source addresses): past
   * it, buckets that have refilled are dropped, as a new bucket would be the same.
   */
  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
    private readonly maxKeys = Number.POSITIVE_INFINITY,
  ) {
    this.refillPerMs = perMinute / 60_000;
  }

  take(key: string): RateDecision {
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, updatedAt: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs);
    bucket.updatedAt = now;
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= this.maxKeys) this.forgetRefilled(now);
      this.buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return ALLOWED;
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.refillPerMs / 1000)) };
  }

  get size(): number {
    return this.buckets.size;
  }

  /** Drops the buckets that are full again; if none is, the oldest, so the map never outgrows `maxKeys`. */
  private forgetRefilled(now: number): void {
    for (const [key, bucket] of this.buckets)
      if (bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs >= this.perMinute) this.buckets.delete(key);
    if (this.buckets.size < this.maxKeys) return;
    const oldest = this.buckets.keys().next();
    if (!oldest.done) this.buckets.delete(oldest.value);
  }
}
