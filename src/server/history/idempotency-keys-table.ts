/**
 * Idempotency-Keys in the service's database, the same SQL on both dialects: a key is a unique
 * row claimed in a transaction, and each application's live keys are counted in a row of their
 * own, so the quota check costs one upsert however many keys there are.
 */
import type { Transaction } from 'kysely';
import type {
  Claim,
  IdempotencyKeys,
  IdempotencyScope,
  KeyRecord,
  KeyState,
  RememberedFailure,
} from '../idempotency/idempotency-store.js';
import { IDEMPOTENCY_TTL_MS } from '../idempotency/idempotency-store.js';
import type { HistoryDb, HistoryTables } from './history-tables.js';

type Trx = Transaction<HistoryTables>;

const inScope = (scope: IdempotencyScope) => ({ account_id: scope.accountID, application_id: scope.applicationID }) as const;
const keyOf = (scope: IdempotencyScope, key: string) => ({ ...inScope(scope), idempotency_key: key }) as const;

/** Thrown inside the claim's transaction to roll it back when the count passed the quota. */
class OverQuota extends Error {}

const toRecord = (row: { fingerprint: string; state: string; claimed_at: number; expires_at: number; failure: string | null }): KeyRecord => ({
  fingerprint: row.fingerprint,
  state: row.state as KeyState,
  claimedAt: Number(row.claimed_at),
  expiresAt: Number(row.expires_at),
  ...(row.failure === null ? {} : { failure: JSON.parse(row.failure) as RememberedFailure }),
});

const addToCount = async (trx: Trx, scope: IdempotencyScope, delta: number): Promise<number> => {
  const row = await trx
    .insertInto('idempotency_key_counts')
    .values({ ...inScope(scope), live_keys: Math.max(0, delta) })
    .onConflict((oc) =>
      oc.columns(['account_id', 'application_id']).doUpdateSet((eb) => ({ live_keys: eb('idempotency_key_counts.live_keys', '+', delta) })),
    )
    .returning('live_keys')
    .executeTakeFirstOrThrow();
  return Number(row.live_keys);
};

export class IdempotencyKeysTable implements IdempotencyKeys {
  constructor(private readonly db: HistoryDb) {}

  async claim(scope: IdempotencyScope, key: string, fingerprint: string, at: number, quota: number): Promise<Claim> {
    try {
      return await this.tryClaim(scope, key, fingerprint, at, quota);
    } catch (error) {
      if (!(error instanceof OverQuota)) throw error;
    }
    // The count may include keys that expired since the last prune: drop them and count exactly.
    const live = await this.recount(scope, at);
    if (live < quota) return this.tryClaim(scope, key, fingerprint, at, quota).catch((error: unknown) => this.full(error, scope));
    return this.full(new OverQuota(), scope);
  }

  async settle(scope: IdempotencyScope, key: string, state: 'placed' | 'unknown', failure?: RememberedFailure): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ state, failure: failure === undefined ? null : JSON.stringify(failure) })
      .where((eb) => eb.and(keyOf(scope, key)))
      .where('state', '=', 'pending')
      .execute();
  }

  async forget(scope: IdempotencyScope, key: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const removed = await trx
        .deleteFrom('idempotency_keys')
        .where((eb) => eb.and(keyOf(scope, key)))
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) > 0) await addToCount(trx, scope, -1);
    });
  }

  async read(scope: IdempotencyScope, key: string): Promise<KeyRecord | undefined> {
    const row = await this.db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'state', 'claimed_at', 'expires_at', 'failure'])
      .where((eb) => eb.and(keyOf(scope, key)))
      .executeTakeFirst();
    return row === undefined ? undefined : toRecord(row);
  }

  async pruneExpired(at: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const removed = await trx.deleteFrom('idempotency_keys').where('expires_at', '<=', at).executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) return 0;
      await trx
        .updateTable('idempotency_key_counts')
        .set((eb) => ({
          live_keys: eb
            .selectFrom('idempotency_keys')
            .select((k) => k.fn.countAll<number>().as('n'))
            .whereRef('idempotency_keys.account_id', '=', 'idempotency_key_counts.account_id')
            .whereRef('idempotency_keys.application_id', '=', 'idempotency_key_counts.application_id'),
        }))
        .execute();
      return Number(removed.numDeletedRows);
    });
  }

  /** One transaction: free an expired key of this name, claim it, count it; roll back past the quota. */
  private tryClaim(scope: IdempotencyScope, key: string, fingerprint: string, at: number, quota: number): Promise<Claim> {
    return this.db.transaction().execute(async (trx): Promise<Claim> => {
      const expired = await trx
        .deleteFrom('idempotency_keys')
        .where((eb) => eb.and(keyOf(scope, key)))
        .where('expires_at', '<=', at)
        .executeTakeFirst();
      if (Number(expired.numDeletedRows) > 0) await addToCount(trx, scope, -1);
      const claimed = await trx
        .insertInto('idempotency_keys')
        .values({ ...keyOf(scope, key), fingerprint, state: 'pending', claimed_at: at, expires_at: at + IDEMPOTENCY_TTL_MS, failure: null })
        .onConflict((oc) => oc.columns(['account_id', 'application_id', 'idempotency_key']).doNothing())
        .returning('idempotency_key')
        .execute();
      if (claimed.length === 0) {
        const row = await trx
          .selectFrom('idempotency_keys')
          .select(['fingerprint', 'state', 'claimed_at', 'expires_at', 'failure'])
          .where((eb) => eb.and(keyOf(scope, key)))
          .executeTakeFirstOrThrow();
        return { kind: 'existing', record: toRecord(row) };
      }
      if ((await addToCount(trx, scope, 1)) > quota) throw new OverQuota();
      return { kind: 'claimed' };
    });
  }

  /** Deletes the scope's expired keys and sets its count to the keys left; answers that count. */
  private recount(scope: IdempotencyScope, at: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('idempotency_keys').where((eb) => eb.and(inScope(scope))).where('expires_at', '<=', at).execute();
      const { n } = await trx
        .selectFrom('idempotency_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.and(inScope(scope)))
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('idempotency_key_counts')
        .set({ live_keys: Number(n) })
        .where((eb) => eb.and(inScope(scope)))
        .execute();
      return Number(n);
    });
  }

  /** The quota holds: the oldest live key of the scope says when there is room again. */
  private async full(error: unknown, scope: IdempotencyScope): Promise<Claim> {
    if (!(error instanceof OverQuota)) throw error;
    const { oldest } = await this.db
      .selectFrom('idempotency_keys')
      .select((eb) => eb.fn.min('expires_at').as('oldest'))
      .where((eb) => eb.and(inScope(scope)))
      .executeTakeFirstOrThrow();
    return { kind: 'quota-full', retryAt: Number(oldest ?? 0) };
  }
}
