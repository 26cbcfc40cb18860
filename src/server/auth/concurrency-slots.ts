/**
 * How many of one kind of work each token may have under way at once, and all tokens together:
 * requests in flight, long-lived streams, heavy reads. A slot is taken before the work starts and
 * given back when it ends; past a cap the work is refused, and nobody else's slot is touched.
 */
import type { Principal } from './token-index.js';

export type SlotKind = 'requests' | 'streams' | 'heavy-queries';

export interface SlotCaps {
  perToken: number;
  /** All tokens together. */
  total: number;
}

/** A cap was reached: `scope` says whose, the token's own or the service's as a whole. */
export class SlotsExhausted extends Error {
  constructor(
    readonly kind: SlotKind,
    readonly scope: 'token' | 'total',
    readonly cap: number,
  ) {
    super(`${scope === 'token' ? 'this token' : 'the service'} holds its limit of ${cap} ${kind}`);
    this.name = 'SlotsExhausted';
  }
}

/** Gives the slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

/** A token is told apart by its account and its name, the same key as its rate limit. */
export const tokenKey = (principal: Principal): string => `${principal.accountID}\u0000${principal.tokenName}`;

export class ConcurrencySlots {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(
    readonly kind: SlotKind,
    readonly caps: SlotCaps,
  ) {}

  /** Takes a slot for `principal`, or throws SlotsExhausted. */
  acquire(principal: Principal): ReleaseSlot {
    const key = tokenKey(principal);
    const mine = this.held.get(key) ?? 0;
    if (mine >= this.caps.perToken) throw new SlotsExhausted(this.kind, 'token', this.caps.perToken);
    if (this.total >= this.caps.total) throw new SlotsExhausted(this.kind, 'total', this.caps.total);
    this.held.set(key, mine + 1);
    this.total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }

  /** Slots in use by one token, or by all. */
  inUse(principal?: Principal): number {
    return principal === undefined ? this.total : (this.held.get(tokenKey(principal)) ?? 0);
  }

  /** Runs `work` holding a slot, given back however it ends. */
  async run<T>(principal: Principal, work: () => Promise<T>): Promise<T> {
    const release = this.acquire(principal);
    try {
      return await work();
    } finally {
      release();
    }
  }
}
