/**
 * Remembers make-call attempts by Idempotency-Key, so a retry answers as the first attempt did
 * and never places a second call. Keys are scoped to an account and live for 24 hours.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ProviderFailure } from '../providers/phone-system.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

interface Entry {
  fingerprint: string;
  expiresAt: number;
  /** Settles with the first attempt. */
  outcome: Promise<void>;
  settled: boolean;
}

/**
 * Whether a failed attempt stays remembered. A failure that certainly placed no call is
 * forgotten, so a retry tries again; one whose outcome is unknown (the provider timed out and
 * may have placed the call) is replayed, so a retry can never ring twice.
 */
export type RememberFailure = (error: unknown) => boolean;

/** A provider that timed out may have placed the call: its attempt is remembered, so a retry cannot ring twice. */
export const outcomeUnknown: RememberFailure = (error) => error instanceof ProviderFailure && error.kind === 'timeout';

/** The key was already used for a different request within its lifetime. */
export class IdempotencyKeyReused extends Error {
  constructor() {
    super('This Idempotency-Key was already used for a different call. Use a new key for each intended call.');
    this.name = 'IdempotencyKeyReused';
  }
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 100_000,
  ) {}

  static fingerprint(parts: unknown): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  }

  /**
   * Runs `attempt` once per (scope, key). A retry with the same request replays the stored
   * outcome (`replayed: true` on success) or joins the attempt still in flight; a different
   * request under the same key is refused.
   */
  async run(
    scope: string,
    key: string,
    fingerprint: string,
    attempt: () => Promise<void>,
    rememberFailure: RememberFailure = () => false,
  ): Promise<{ replayed: boolean }> {
    this.prune();
    const id = `${scope}\u0000${key}`;
    const existing = this.entries.get(id);
    if (existing) {
      if (existing.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
      await existing.outcome;
      return { replayed: true };
    }
    const entry: Entry = { fingerprint, expiresAt: this.clock.now() + IDEMPOTENCY_TTL_MS, outcome: attempt(), settled: false };
    this.entries.set(id, entry);
    try {
      await entry.outcome;
      entry.settled = true;
      return { replayed: false };
    } catch (error) {
      if (rememberFailure(error)) entry.settled = true;
      else this.entries.delete(id);
      throw error;
    }
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now && this.entries.size < this.maxEntries) break;
      if (entry.settled || entry.expiresAt <= now) this.entries.delete(id);
      else break;
    }
  }
}
