/**
 * Make-call attempts by Idempotency-Key, so a retry answers as the first attempt did and never
 * places a second call. Keys are scoped to an account and application, live for 24 hours and are
 * kept in the service's database (`IdempotencyKeys`): a key holds across restarts and on every
 * instance sharing the database. A key is claimed (a unique row) before the provider is called and
 * its outcome stored after, so concurrent attempts with one key place exactly one call. Each
 * application may hold a bounded number of keys; past it that application is refused, and no
 * other application's key is ever evicted to make room.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ProviderFailure } from '../providers/phone-system.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * How long a claimed key may stay pending before a retry stops waiting for it: longer than any
 * provider request may take (120 s at most), so only an attempt whose process died is given up.
 */
export const ATTEMPT_LEASE_MS = 150_000;

/** How often a retry looks again at a key another instance is still placing. */
const PENDING_POLL_MS = 100;

export interface IdempotencyScope {
  accountID: string;
  applicationID: string;
}

/** What a provider said when it timed out: the call may exist, so a retry is answered with it. */
export interface RememberedFailure {
  message: string;
  providerName?: string;
}

export type KeyState = 'pending' | 'placed' | 'unknown';

export interface KeyRecord {
  fingerprint: string;
  state: KeyState;
  claimedAt: number;
  expiresAt: number;
  failure?: RememberedFailure;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'existing'; record: KeyRecord }
  /** The application holds its quota of live keys; the oldest expires at `retryAt`. */
  | { kind: 'quota-full'; retryAt: number };

/** Where keys live: the service's database, one implementation per dialect behind this interface. */
export interface IdempotencyKeys {
  /**
   * Claims the key as pending unless it is live already (then answers its record), all in one
   * transaction; an expired key is claimed afresh. Refuses when the scope holds `quota` live keys.
   */
  claim(scope: IdempotencyScope, key: string, fingerprint: string, at: number, quota: number): Promise<Claim>;
  /** Stores a pending key's outcome. */
  settle(scope: IdempotencyScope, key: string, state: 'placed' | 'unknown', failure?: RememberedFailure): Promise<void>;
  /** Drops a pending key whose attempt certainly placed no call. */
  forget(scope: IdempotencyScope, key: string): Promise<void>;
  read(scope: IdempotencyScope, key: string): Promise<KeyRecord | undefined>;
  /** Deletes expired keys everywhere; answers how many. */
  pruneExpired(at: number): Promise<number>;
}

/**
 * Whether a failed attempt stays remembered. A failure that certainly placed no call is
 * forgotten, so a retry tries again; one whose outcome is unknown (the provider timed out and
 * may have placed the call) is remembered and replayed, so a retry can never ring twice.
 */
export type RememberFailure = (error: unknown) => RememberedFailure | undefined;

/** A provider that timed out may have placed the call: its attempt is remembered, so a retry cannot ring twice. */
export const outcomeUnknown: RememberFailure = (error) =>
  error instanceof ProviderFailure && error.kind === 'timeout' ? { message: error.message, providerName: error.providerName } : undefined;

/** The key was already used for a different request within its lifetime. */
export class IdempotencyKeyReused extends Error {
  constructor() {
    super('This Idempotency-Key was already used for a different call. Use a new key for each intended call.');
    this.name = 'IdempotencyKeyReused';
  }
}

/** The application holds as many live keys as it may; the oldest frees its place in `retryAfterMs`. */
export class IdempotencyKeyQuotaReached extends Error {
  constructor(
    readonly quota: number,
    readonly retryAfterMs: number,
  ) {
    super(`This application holds ${quota} Idempotency-Keys from the last 24 hours, its limit.`);
    this.name = 'IdempotencyKeyQuotaReached';
  }
}

/** A retry answered with the first attempt's failure: the same answer, marked as a replay. */
export class ReplayedFailure extends Error {
  constructor(readonly failure: Error) {
    super(failure.message);
    this.name = 'ReplayedFailure';
  }
}

const revive = (failure: RememberedFailure | undefined): ProviderFailure =>
  new ProviderFailure('timeout', failure?.message ?? 'the provider did not confirm the call in time', failure?.providerName);

/** The attempt's process stopped before storing its outcome: whether it placed the call is unknown. */
const abandoned = () =>
  new ProviderFailure(
    'timeout',
    'the first attempt with this key did not finish (the service stopped while placing it): the call may or may not have been placed',
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface IdempotencyOptions {
  /** Live keys one application may hold. */
  keysPerApplication: number;
}

export class IdempotencyStore {
  /** Attempts this instance is placing, so a concurrent retry here joins at once instead of polling. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly keys: IdempotencyKeys,
    private readonly clock: Clock,
    private readonly options: IdempotencyOptions,
  ) {}

  static fingerprint(parts: unknown): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  }

  /**
   * Runs `attempt` once per (scope, key). A retry with the same request replays the stored
   * outcome (`replayed: true` on success, a `ReplayedFailure` when the outcome is unknown) or
   * waits for the attempt still in flight; a different request under the same key is refused.
   */
  async run(
    scope: IdempotencyScope,
    key: string,
    fingerprint: string,
    attempt: () => Promise<void>,
    rememberFailure: RememberFailure = () => undefined,
  ): Promise<{ replayed: boolean }> {
    for (;;) {
      const now = this.clock.now();
      const claim = await this.keys.claim(scope, key, fingerprint, now, this.options.keysPerApplication);
      if (claim.kind === 'quota-full') throw new IdempotencyKeyQuotaReached(this.options.keysPerApplication, Math.max(0, claim.retryAt - now));
      if (claim.kind === 'claimed') return this.placeOnce(scope, key, attempt, rememberFailure);
      const replayed = await this.replay(scope, key, fingerprint, claim.record);
      // The attempt it waited for placed nothing and was forgotten: this one tries again.
      if (replayed !== 'forgotten') return replayed;
    }
  }

  private async placeOnce(scope: IdempotencyScope, key: string, attempt: () => Promise<void>, rememberFailure: RememberFailure) {
    const id = idOf(scope, key);
    const outcome = this.place(scope, key, attempt, rememberFailure);
    this.inFlight.set(id, outcome.catch(() => undefined));
    try {
      await outcome;
      return { replayed: false };
    } finally {
      this.inFlight.delete(id);
    }
  }

  private async place(scope: IdempotencyScope, key: string, attempt: () => Promise<void>, rememberFailure: RememberFailure): Promise<void> {
    try {
      await attempt();
    } catch (error) {
      const remembered = rememberFailure(error);
      if (remembered) await this.keys.settle(scope, key, 'unknown', remembered);
      else await this.keys.forget(scope, key);
      throw error;
    }
    // The call is placed whatever happens next. Were this write to fail, the key stays pending and
    // its retries answer "outcome unknown" once the lease ends: never a second call.
    await this.keys.settle(scope, key, 'placed').catch(() => undefined);
  }

  private async replay(scope: IdempotencyScope, key: string, fingerprint: string, first: KeyRecord): Promise<{ replayed: boolean } | 'forgotten'> {
    if (first.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
    let record: KeyRecord | undefined = first;
    while (record?.state === 'pending') {
      if (this.clock.now() >= record.claimedAt + ATTEMPT_LEASE_MS) throw new ReplayedFailure(abandoned());
      const local = this.inFlight.get(idOf(scope, key));
      await (local ?? sleep(PENDING_POLL_MS));
      record = await this.keys.read(scope, key);
    }
    if (record === undefined) return 'forgotten';
    if (record.state === 'unknown') throw new ReplayedFailure(revive(record.failure));
    return { replayed: true };
  }
}

const idOf = (scope: IdempotencyScope, key: string) => `${scope.accountID}\u0000${scope.applicationID}\u0000${key}`;
