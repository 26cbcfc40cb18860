/** The shared sync feed in PostgreSQL: terms fence writes, one transaction per sync, reads from a position or a checkpoint. */
import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { NotLeading, type FeedChange } from '../calls/shared-sync.js';
import { providerCall } from '../test-support/provider-call.js';
import { historyKind, useHistoryStore } from '../test-support/test-history.js';
import { journalBatch } from '../calls/journal-batch.js';
import type { FeedHealth } from '../calls/provider-health.js';
import { openHistoryDatabase } from './open-history-database.js';
import { SyncFeeds } from './sync-feeds.js';

const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const T0 = Date.UTC(2026, 10, 23, 12);

const change = (seq: number, ids: string[], removed: string[] = []): FeedChange => ({
  seq,
  at: T0 + seq,
  data: `{"seq":${seq}}`,
  upserts: ids.map((id) => providerCall(id, T0)),
  removed,
});

/** A sync committing `upserts` as change `seq`, with the journal batch of those calls. */
const step = (after: number, ids: string[], options: { checkpoint?: string[]; removed?: string[]; health?: FeedHealth } = {}) => ({
  after,
  takenAt: T0 + after + 1,
  batch: journalBatch(undefined, ids.map((id) => providerCall(id, T0)), T0 + after + 1),
  change: change(after + 1, ids, options.removed),
  health: options.health ?? {},
  ...(options.checkpoint ? { checkpoint: options.checkpoint.map((id) => providerCall(id, T0)) } : {}),
});

// FOR UPDATE and NOTIFY are PostgreSQL's: a cluster needs it, and `npm test` runs this file against it.
describe.skipIf(historyKind !== 'postgres')('sync feeds (PostgreSQL)', () => {
  const store = useHistoryStore();
  const feeds = () => store().syncFeeds('callboard_sync_test');

  it('raises the term at each claim, and refuses a write from an older term with nothing of it written', async () => {
    const first = await feeds().claim(scope, 'a', T0);
    expect(first).toMatchObject({ term: 1, state: { seq: 0, takenAt: undefined } });
    const second = await feeds().claim(scope, 'b', T0);
    expect(second.term).toBe(2);
    expect(second.state.epoch).toBe(first.state.epoch);

    await expect(feeds().commit(scope, 1, step(0, ['old']))).rejects.toBeInstanceOf(NotLeading);
    expect(await store().recall(scope, 0)).toMatchObject({ calls: [], lastSyncAt: undefined });
    await feeds().commit(scope, 2, step(0, ['new']));
    expect((await store().recall(scope, 0)).calls.map((call) => call.callID)).toEqual(['new']);
  });

  it('refuses a leader out of step with the feed', async () => {
    const { term } = await feeds().claim(scope, 'a', T0);
    await feeds().commit(scope, term, step(0, ['a']));
    // The leader thinks the feed is still at 0: another write went in that it never saw.
    await expect(feeds().commit(scope, term, step(0, ['b']))).rejects.toThrow(/stands at 1, the leader at 0/);
    await expect(feeds().commit(scope, term, { ...step(1, ['b']), change: change(5, ['b']) })).rejects.toThrow(/numbered 5, after 1/);
  });

  it('answers the changes after a position, or the checkpoint and the changes after it', async () => {
    const { term, state } = await feeds().claim(scope, 'a', T0);
    await feeds().commit(scope, term, step(0, ['a', 'b'], { checkpoint: ['a', 'b'] }));
    await feeds().commit(scope, term, step(1, ['c']));
    await feeds().commit(scope, term, step(2, [], { removed: ['a'] }));

    const after1 = await feeds().read(scope, { epoch: state.epoch, seq: 1 });
    expect(after1?.checkpoint).toBeUndefined();
    expect(after1?.changes.map((c) => c.seq)).toEqual([2, 3]);
    expect(after1?.changes[1]?.removed).toEqual(['a']);
    expect(after1?.state).toMatchObject({ seq: 3, takenAt: T0 + 3, health: {} });

    expect(await feeds().read(scope, { epoch: state.epoch, seq: 3 })).toMatchObject({ changes: [] });
    // Nothing held, another epoch's position, or one ahead of the feed: from the checkpoint.
    for (const from of [undefined, { epoch: 'other', seq: 2 }, { epoch: state.epoch, seq: 9 }]) {
      const read = await feeds().read(scope, from);
      expect(read?.checkpoint?.seq).toBe(1);
      expect(read?.checkpoint?.calls.map((call) => call.callID)).toEqual(['a', 'b']);
      expect(read?.changes.map((c) => c.seq)).toEqual([2, 3]);
    }
  });

  it('reads the checkpoint\'s calls out of the database only to rebuild from them: not to fence a commit, claim a term or read from a position', async () => {
    // Every row the database answers, as the feed's own queries get them.
    const rows: Record<string, unknown>[] = [];
    const spy: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        rows.push(...(args.result.rows as Record<string, unknown>[]));
        return args.result;
      },
    };
    const db = await openHistoryDatabase(store().location);
    try {
      const watched = new SyncFeeds(db.withPlugin(spy), 'callboard_sync_test');
      const carriedCalls = () => rows.filter((row) => 'checkpoint_calls' in row).length;
      const { term, state } = await watched.claim(scope, 'a', T0);
      await watched.commit(scope, term, step(0, ['a', 'b'], { checkpoint: ['a', 'b'] }));
      await watched.commit(scope, term, step(1, ['c']));
      await watched.commitHealth(scope, term, { failure: { kind: 'unavailable', message: 'down' } });
      await watched.claim(scope, 'b', T0);
      expect((await watched.read(scope, { epoch: state.epoch, seq: 1 }))?.changes.map((c) => c.seq)).toEqual([2]);
      expect(await watched.read(scope, { epoch: state.epoch, seq: 2 })).toMatchObject({ changes: [] });
      expect(carriedCalls()).toBe(0);

      // A follower with nothing to continue from reads them once.
      const whole = await watched.read(scope, undefined);
      expect(whole?.checkpoint?.calls.map((call) => call.callID)).toEqual(['a', 'b']);
      expect(carriedCalls()).toBe(1);
    } finally {
      await db.destroy();
    }
  });

  it('records the leader’s health for the followers, as each commit carries it, and refuses a stale leader', async () => {
    const { term } = await feeds().claim(scope, 'a', T0);
    const failing: FeedHealth = { failure: { kind: 'unavailable', message: 'down' } };
    const degraded: FeedHealth = { degraded: 'event socket down' };
    await feeds().commitHealth(scope, term, failing);
    expect((await feeds().read(scope, undefined))?.state.health).toEqual(failing);
    await expect(feeds().commitHealth(scope, term - 1, { failure: { kind: 'error', message: 'stale leader' } })).rejects.toBeInstanceOf(NotLeading);
    // A commit of pushed updates while lists still fail keeps the failure: it carries the leader's health as it stands.
    await feeds().commit(scope, term, step(0, ['a'], { health: { ...failing, ...degraded } }));
    expect((await feeds().read(scope, undefined))?.state.health).toEqual({ ...failing, ...degraded });
    await feeds().commit(scope, term, step(1, ['b'], { health: degraded }));
    expect((await feeds().read(scope, undefined))?.state.health).toEqual(degraded);
    await feeds().commitHealth(scope, term, {});
    expect((await feeds().read(scope, undefined))?.state.health).toEqual({});
  });

  it('keeps pushed updates stored by any instance until the commit that applies them removes them, and refuses a stale leader that tries', async () => {
    const { term } = await feeds().claim(scope, 'a', T0);
    const update = (callID: string, sequence: number) => ({ callID, at: T0, source: callID, sequence, fields: { answeredAt: T0 + sequence } });
    expect(await feeds().delivered(scope, 10)).toBeUndefined();
    await feeds().deliver(scope, [update('x', 1)], T0);
    await feeds().deliver(scope, [update('y', 1), update('y', 2)], T0 + 1);
    const taken = await feeds().delivered(scope, 10);
    expect(taken?.updates.map((u) => `${u.callID}${u.sequence}`)).toEqual(['x1', 'y1', 'y2']);
    expect(taken?.ids).toHaveLength(2);
    expect((await feeds().delivered(scope, 1))?.updates).toEqual([update('x', 1)]);
    // Another scope's inbox is its own.
    expect(await feeds().delivered({ ...scope, providerID: 'other' }, 10)).toBeUndefined();

    await expect(feeds().commit(scope, term - 1, { ...step(0, ['x']), delivered: taken?.ids ?? [] })).rejects.toBeInstanceOf(NotLeading);
    expect((await feeds().delivered(scope, 10))?.ids).toEqual(taken?.ids);
    await feeds().commit(scope, term, { ...step(0, ['x']), delivered: taken?.ids.slice(0, 1) ?? [] });
    expect((await feeds().delivered(scope, 10))?.updates.map((u) => u.callID)).toEqual(['y', 'y']);
  });
});
