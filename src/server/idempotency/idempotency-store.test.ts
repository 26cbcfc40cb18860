/** The idempotency store over the service's database: runs against the embedded store, and PostgreSQL when DATABASE_URL is set. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { ProviderFailure } from '../providers/phone-system.js';
import { useHistoryStore } from '../test-support/test-history.js';
import {
  ATTEMPT_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  IdempotencyKeyQuotaReached,
  IdempotencyKeyReused,
  IdempotencyStore,
  outcomeUnknown,
  ReplayedFailure,
} from './idempotency-store.js';

const store = useHistoryStore();
const acmeSupport = { accountID: 'acme', applicationID: 'support' };
const acmeSales = { accountID: 'acme', applicationID: 'sales' };
const globex = { accountID: 'globex', applicationID: 'support' };

const setup = (keysPerApplication = 1000) => {
  const clock = new ManualClock(Date.parse('2026-11-22T09:00:00.000Z'));
  const placed: string[] = [];
  const idempotency = new IdempotencyStore(store().idempotencyKeys, clock, { keysPerApplication });
  const call = (name: string, delayMs = 0) => async () => {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    placed.push(name);
  };
  return { clock, placed, idempotency, call };
};

describe('IdempotencyStore', () => {
  it('places once and replays the success to a retry', async () => {
    const { idempotency, placed, call } = setup();
    expect(await idempotency.run(acmeSupport, 'k', 'f', call('first'))).toEqual({ replayed: false });
    expect(await idempotency.run(acmeSupport, 'k', 'f', call('second'))).toEqual({ replayed: true });
    expect(placed).toEqual(['first']);
    await expect(idempotency.run(acmeSupport, 'k', 'other body', call('third'))).rejects.toThrow(IdempotencyKeyReused);
  });

  it('keeps keys apart per account and per application', async () => {
    const { idempotency, placed, call } = setup();
    for (const scope of [acmeSupport, acmeSales, globex]) expect(await idempotency.run(scope, 'same', 'f', call(scope.applicationID))).toEqual({ replayed: false });
    expect(placed).toHaveLength(3);
    // Another body under the same key elsewhere is not "reused": it is another application's key.
    expect(await idempotency.run(acmeSales, 'only-here', 'f1', call('a'))).toEqual({ replayed: false });
    expect(await idempotency.run(acmeSupport, 'only-here', 'f2', call('b'))).toEqual({ replayed: false });
  });

  it('places exactly one call for concurrent attempts on two instances sharing the database', async () => {
    const { clock, placed, call } = setup();
    const one = new IdempotencyStore(store().idempotencyKeys, clock, { keysPerApplication: 1000 });
    const two = new IdempotencyStore(store().idempotencyKeys, clock, { keysPerApplication: 1000 });
    const answers = await Promise.all([
      one.run(acmeSupport, 'k', 'f', call('one', 80)),
      two.run(acmeSupport, 'k', 'f', call('two', 80)),
      one.run(acmeSupport, 'k', 'f', call('one again', 80)),
    ]);
    expect(placed).toHaveLength(1);
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
  });

  it('keeps its promise across a restart', async () => {
    const { clock, placed, call, idempotency } = setup();
    await idempotency.run(acmeSupport, 'k', 'f', call('before'));
    const afterRestart = new IdempotencyStore(store().idempotencyKeys, clock, { keysPerApplication: 1000 });
    expect(await afterRestart.run(acmeSupport, 'k', 'f', call('after'))).toEqual({ replayed: true });
    expect(placed).toEqual(['before']);
  });

  it('replays an unknown outcome (a provider timeout) as a failure, and never tries again under that key', async () => {
    const { idempotency, placed, call } = setup();
    const timeout = () => Promise.reject(new ProviderFailure('timeout', 'no answer within 5000 ms', 'Acme PBX'));
    await expect(idempotency.run(acmeSupport, 'k', 'f', timeout, outcomeUnknown)).rejects.toThrow(ProviderFailure);
    const replay = await idempotency.run(acmeSupport, 'k', 'f', call('retry'), outcomeUnknown).catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(ReplayedFailure);
    expect((replay as ReplayedFailure).failure).toMatchObject({ kind: 'timeout', message: 'no answer within 5000 ms', providerName: 'Acme PBX' });
    expect(placed).toEqual([]);
  });

  it('forgets a failure that placed nothing, so the retry tries again and the key costs no quota', async () => {
    const { idempotency, placed, call } = setup(1);
    await expect(idempotency.run(acmeSupport, 'k', 'f', () => Promise.reject(new ProviderFailure('unavailable', 'down')), outcomeUnknown)).rejects.toThrow();
    expect(await idempotency.run(acmeSupport, 'other', 'f', call('other'))).toEqual({ replayed: false });
    expect(placed).toEqual(['other']);
  });

  it("refuses an application past its quota, and never evicts another application's key", async () => {
    const { idempotency, placed, call, clock } = setup(3);
    await idempotency.run(globex, 'globex-key', 'f', call('globex'));
    for (let i = 0; i < 3; i += 1) {
      await idempotency.run(acmeSupport, `k${i}`, 'f', call(`acme ${i}`));
      clock.advance(60_000);
    }
    const refused = await idempotency.run(acmeSupport, 'k3', 'f', call('acme 3')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(IdempotencyKeyQuotaReached);
    // The oldest key expires 24 h after it was claimed, three minutes ago.
    expect((refused as IdempotencyKeyQuotaReached).retryAfterMs).toBe(IDEMPOTENCY_TTL_MS - 180_000);
    // Its own keys still replay, other applications still place, and globex's key still holds.
    expect(await idempotency.run(acmeSupport, 'k0', 'f', call('again'))).toEqual({ replayed: true });
    expect(await idempotency.run(acmeSales, 'k3', 'f', call('sales'))).toEqual({ replayed: false });
    expect(await idempotency.run(globex, 'globex-key', 'f', call('globex again'))).toEqual({ replayed: true });
    expect(placed).toEqual(['globex', 'acme 0', 'acme 1', 'acme 2', 'sales']);
  });

  it('frees quota as keys expire, and prunes them', async () => {
    const { idempotency, clock, call } = setup(2);
    await idempotency.run(acmeSupport, 'a', 'f', call('a'));
    await idempotency.run(acmeSupport, 'b', 'f', call('b'));
    await expect(idempotency.run(acmeSupport, 'c', 'f', call('c'))).rejects.toThrow(IdempotencyKeyQuotaReached);
    clock.advance(IDEMPOTENCY_TTL_MS);
    expect(await idempotency.run(acmeSupport, 'c', 'f', call('c'))).toEqual({ replayed: false });
    expect(await idempotency.run(acmeSupport, 'a', 'f', call('a after a day'))).toEqual({ replayed: false });
    clock.advance(IDEMPOTENCY_TTL_MS);
    expect(await store().idempotencyKeys.pruneExpired(clock.now())).toBe(2);
    expect(await store().idempotencyKeys.read(acmeSupport, 'c')).toBeUndefined();
  });

  it('answers "outcome unknown" for a key whose attempt never finished (its process died), and places nothing', async () => {
    const { idempotency, clock, placed, call } = setup();
    await store().idempotencyKeys.claim(acmeSupport, 'k', 'f', clock.now(), 1000);
    clock.advance(ATTEMPT_LEASE_MS);
    const replay = await idempotency.run(acmeSupport, 'k', 'f', call('retry')).catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(ReplayedFailure);
    expect((replay as ReplayedFailure).failure.message).toMatch(/did not finish/);
    expect(placed).toEqual([]);
  });
});
