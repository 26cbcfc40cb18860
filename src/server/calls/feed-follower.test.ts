/** A cluster follower's copy of a provider's calls, caught up from the shared feed. */
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../clock.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { providerCall } from '../test-support/provider-call.js';
import { CallSnapshot } from './call-snapshot.js';
import { FeedFollower } from './feed-follower.js';
import { LiveCalls, type SyncEvent } from './live-calls.js';
import type { FeedChange, FeedRead, SharedSync } from './shared-sync.js';

const T0 = Date.UTC(2026, 10, 26, 12);
const provider = { id: 'pbx', name: 'PBX' };
const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;

/** A feed answering one read: a checkpoint of `calls` at seq 1, then `changes`. */
const feedOf = (calls: ProviderCall[], changes: FeedChange[]): SharedSync =>
  ({
    read: async (): Promise<FeedRead> => ({
      state: { epoch: 'e1', seq: changes.at(-1)?.seq ?? 1, takenAt: T0 + 1000, health: {} },
      checkpoint: { seq: 1, calls },
      changes,
    }),
  }) as unknown as SharedSync;

/** Change `seq`: answers call `seq`, rings a new one, and ends the one rung two changes before. */
const changeOf = (seq: number): FeedChange => ({
  seq,
  at: T0 + seq,
  data: `{"seq":${seq}}`,
  upserts: [providerCall(`c${seq}`, T0, { answeredAt: T0 + seq }), providerCall(`n${seq}`, T0 + seq)],
  removed: [`n${seq - 2}`],
});

/** What a copy becomes with `changes` applied, in order. */
const replay = (calls: readonly ProviderCall[], changes: FeedChange[]) => {
  const byID = new Map(calls.map((call) => [call.callID, call]));
  for (const change of changes) {
    for (const call of change.upserts) byID.set(call.callID, call);
    for (const callID of change.removed) byID.delete(callID);
  }
  return [...byID.values()].sort((a, b) => a.callID.localeCompare(b.callID));
};

describe('FeedFollower', () => {
  afterEach(() => vi.restoreAllMocks());

  it('catches up on many changes with one list made for the last of them, each change numbered and streamed in order', async () => {
    const checkpoint = Array.from({ length: 100 }, (_, i) => providerCall(`c${i}`, T0));
    const changes = Array.from({ length: 50 }, (_, i) => changeOf(i + 2));
    const live = new LiveCalls({ provider, clock: new ManualClock(T0 + 1000), staleAfterMs: 8000 });
    const streamed: number[] = [];
    /** What a stream opened during the catch-up would be sent: the snapshot and the position it stands for. */
    const seenMidway: { calls: readonly ProviderCall[]; seq: number }[] = [];
    live.subscribe((event: SyncEvent) => {
      if (event.type !== 'changes') return;
      streamed.push(event.entry.seq);
      const positioned = live.positioned();
      if (positioned) seenMidway.push({ calls: positioned.snapshot.calls, seq: positioned.position.seq });
    });
    const made = vi.spyOn(CallSnapshot, 'next');

    const follower = new FeedFollower(feedOf(checkpoint, changes), live, provider, silent, () => true);
    expect(await follower.read()).toBe(true);

    expect(replay(live.calls, [])).toEqual(replay(checkpoint, changes));
    expect(live.position).toEqual({ epoch: 'e1', seq: 51 });
    expect(streamed).toEqual(changes.map((change) => change.seq));
    expect(live.changesSince({ epoch: 'e1', seq: 1 })?.map((entry) => entry.seq)).toEqual(streamed);
    // The checkpoint's list, and one for the state after the 50 changes (not one per change).
    expect(made).toHaveBeenCalledTimes(2);
    // A copy taken at any point of the catch-up, with the changes after its position applied, is the last state.
    for (const { calls, seq } of seenMidway)
      expect(
        replay(
          calls,
          changes.filter((change) => change.seq > seq),
        ),
      ).toEqual(replay(checkpoint, changes));
  });
});
