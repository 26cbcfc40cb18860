/**
 * Two instances in one process sharing a provider's sync through PostgreSQL: updates pushed to
 * either are applied once, by the leader, and every instance serves the result; a provider with no
 * calls at all is still served by a follower once the leader has listed it.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { ManualClock } from '../clock.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import type { CallUpdate } from '../providers/phone-system.js';
import { ScriptedPhoneSystem } from '../test-support/scripted-phone-system.js';
import { createTestHistory, historyKind } from '../test-support/test-history.js';
import { SyncFeeds } from '../history/sync-feeds.js';
import type { FeedCommit } from '../calls/shared-sync.js';

const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const T0 = Date.parse('2026-11-26T09:00:00Z');

const config = serviceConfigSchema.parse({
  cluster: { instances: 2 },
  accounts: [
    {
      id: 'acme',
      name: 'Acme',
      applications: [{ id: 'support', name: 'Support', providers: [{ id: 'pbx', name: 'PBX', type: 'simulator', syncIntervalMs: 60_000 }] }],
      tokens: [],
    },
  ],
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const until = async (what: string, check: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** Two instances of the service on one schema, each with its own view of one scripted phone system (no calls yet). */
const twoInstances = async () => {
  const history = await createTestHistory();
  cleanups.push(() => history.dispose());
  const clock = new ManualClock(T0);
  const phone = new ScriptedPhoneSystem();
  const apps: FastifyInstance[] = [];
  for (const name of ['one', 'two']) {
    const app = await buildApp({ config, history: await history.open(), clock, instanceName: name, createPhoneSystem: () => phone });
    await app.ready();
    cleanups.push(() => app.close());
    apps.push(app);
  }
  const syncs = apps.map((app) => app.providers.get(scope)?.sync as NonNullable<ReturnType<FastifyInstance['providers']['get']>>['sync']);
  await until('a leader', () => syncs.some((sync) => sync.role === 'leader'));
  const leader = syncs.find((sync) => sync.role === 'leader') as (typeof syncs)[number];
  const follower = syncs.find((sync) => sync !== leader) as (typeof syncs)[number];
  return { clock, phone, leader, follower, syncs, apps, history };
};

const commitOriginal = SyncFeeds.prototype.commit;

const served = (sync: { live: { read(): { ok: true; snapshot: { body: Buffer } } | { ok: false } } }) => {
  const read = sync.live.read();
  return read.ok ? (JSON.parse(read.snapshot.body.toString()) as { calls: { callID: string; answeredAt?: string }[] }).calls : undefined;
};

// The cluster needs PostgreSQL: `npm test` runs this file against it.
describe.skipIf(historyKind !== 'postgres')('pushed updates on a cluster (PostgreSQL)', () => {
  it('serves a provider with no calls on the follower too, once the leader has listed it', async () => {
    const { follower, leader } = await twoInstances();
    await until('the leader lists', () => leader.live.settled);
    await until('the follower serves the empty list', () => follower.live.settled);
    expect(served(follower)).toEqual([]);
  });

  it('applies an update pushed to the follower once, through the leader, and both serve it', async () => {
    const { clock, phone, leader, follower } = await twoInstances();
    // After the lead's first list, which may have been under way with no calls.
    await until('the leader lists', () => leader.live.settled);
    phone.calls = [{ callID: 'c', providerCallID: 'c', isOutbound: false, isMissedCall: false, remoteNumber: '15550100001', startedAt: T0 }];
    // The first may join a list still under way from before the call: the second is a fresh one.
    await leader.syncOnce();
    await leader.syncOnce();
    await until('the follower has the call', () => served(follower)?.length === 1);
    const answered: CallUpdate = { callID: 'c', at: T0 + 500, source: 'leg-1', sequence: 1, fields: { answeredAt: T0 + 500 } };
    clock.advance(500);
    await follower.push([answered]);
    await until('both serve the answer', () => [leader, follower].every((sync) => served(sync)?.[0]?.answeredAt !== undefined));
    const seq = leader.live.positioned()?.position.seq;
    // Delivered again, at the other instance: nothing changes.
    await leader.push([answered]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(leader.live.positioned()?.position.seq).toBe(seq);
    expect(follower.live.positioned()?.position).toEqual(leader.live.positioned()?.position);
    expect(phone.listRequests).toBeLessThanOrEqual(3);
  });

  it("has a new leader journal only what changed since the last leader's commit, not every call again", async () => {
    const { clock, phone, leader, follower, syncs, apps } = await twoInstances();
    await until('the leader lists', () => leader.live.settled);
    const call = (i: number) => ({ callID: `c${i}`, providerCallID: `c${i}`, isOutbound: false, isMissedCall: false, remoteNumber: '15550100001', startedAt: T0 - i * 1000 });
    phone.calls = Array.from({ length: 40 }, (_, i) => call(i));
    await leader.syncOnce();
    await leader.syncOnce();
    await until('the follower has the calls', () => served(follower)?.length === 40);

    const commits: FeedCommit[] = [];
    const commit = vi.spyOn(SyncFeeds.prototype, 'commit').mockImplementation(async function (this: SyncFeeds, ...args) {
      commits.push(args[2]);
      return commitOriginal.apply(this, args);
    });
    cleanups.push(async () => commit.mockRestore());
    // The leader goes away; the follower takes over and lists one call answered since.
    await apps[syncs.indexOf(leader)]?.close();
    phone.calls = [{ ...call(0), answeredAt: T0 + 500 }, ...phone.calls.slice(1)];
    clock.advance(1000);
    await until('the follower leads', () => follower.role === 'leader', 30_000);
    // It lists as it takes the lead, which may be before the answer above (the old leader lets go
    // while it closes): the first may join that list, the second is a fresh one.
    await follower.syncOnce();
    await follower.syncOnce();
    await until('its first commit', () => commits.some((step) => step.batch.upserts.length > 0), 10_000);
    const first = commits.find((step) => step.batch.upserts.length > 0) as FeedCommit;
    expect(first.batch.complete).toBe(false);
    expect(first.batch.upserts.map((upsert) => upsert.callID)).toEqual(['c0']);
    // Published once committed.
    await until('the new leader serves the answer', () => served(follower)?.find((call) => call.callID === 'c0')?.answeredAt !== undefined);
  });
});

