import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../contract/call-record.js';
import { ManualClock } from '../clock.js';
import type { JournalRecall } from './call-journal.js';
import type { JournalBatch } from './journal-batch.js';
import { ProviderFailure, type CallUpdate, type ProviderCall, type StreamHealth } from '../providers/phone-system.js';
import { ScriptedPhoneSystem } from '../test-support/scripted-phone-system.js';
import type { FeedHealth } from './provider-health.js';
import { ProviderSync } from './provider-sync.js';
import type { Delivered, FeedCommit, FeedRead, SharedSync, SyncRoles } from './shared-sync.js';

type SyncLog = ConstructorParameters<typeof ProviderSync>[1]['log'];
const silent = { warn: () => undefined, info: () => undefined, debug: () => undefined, error: () => undefined } as unknown as SyncLog;

/** A logger that keeps each line's level and message. */
const recordingLog = () => {
  const lines: string[] = [];
  const at = (level: string) => (_fields: object, message: string) => lines.push(`${level} ${message}`);
  return { lines, log: { warn: at('warn'), info: at('info'), debug: at('debug'), error: at('error') } as unknown as SyncLog };
};
const call = (id: string, startedAt: number, extra: Partial<ProviderCall> = {}): ProviderCall => ({
  callID: id,
  providerCallID: id,
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '123',
  startedAt,
  ...extra,
});

let sync: ProviderSync | undefined;
afterEach(async () => {
  await sync?.stop();
});

const setup = (options: Partial<ConstructorParameters<typeof ProviderSync>[1]> = {}) => {
  const clock = new ManualClock(1_000_000);
  const phone = new ScriptedPhoneSystem();
  const batches: JournalBatch[] = [];
  const journal: { failing: boolean; before: JournalRecall; recalledSince: number[] } = {
    failing: false,
    before: { calls: [], lastSyncAt: undefined },
    recalledSince: [],
  };
  sync = new ProviderSync(phone, {
    providerID: 'p',
    providerName: 'P',
    intervalMs: 1000,
    requestTimeoutMs: 50,
    staleAfterMs: 10_000,
    keepEndedMs: 120_000,
    clock,
    log: silent,
    journal: {
      write: async (batch) => {
        if (journal.failing) throw new Error('disk full');
        batches.push(batch);
      },
      recall: async (since) => {
        journal.recalledSince.push(since);
        return journal.before;
      },
    },
    ...options,
  });
  return { clock, phone, sync, batches, journal };
};

describe('ProviderSync', () => {
  it('shares one upstream request between concurrent syncs', async () => {
    const { phone, sync } = setup();
    await Promise.all([sync.syncOnce(), sync.syncOnce(), sync.syncOnce()]);
    expect(phone.listRequests).toBe(1);
    expect(sync.counts.fetches).toBe(1);
  });

  it('journals every call at the first sync, then only what changed, with the end of a call that left at the sync that noticed', async () => {
    const { clock, phone, sync, batches } = setup();
    phone.calls = [call('ghost', 999_000), call('stays', 999_500), call('done', 999_000, { endedAt: 999_900 })];
    await sync.syncOnce();
    phone.calls = [call('stays', 999_500, { answeredAt: 1_000_500 })];
    clock.advance(1000);
    await sync.syncOnce();
    expect(batches.map((b) => ({ ...b, upserts: b.upserts.map((c) => c.callID), endedByService: [...b.endedByService] }))).toEqual([
      { at: 1_000_000, upserts: ['ghost', 'stays', 'done'], endedByService: [], complete: true },
      // In the order the calls became known.
      { at: 1_001_000, upserts: ['ghost', 'stays'], endedByService: ['ghost'], complete: false },
    ]);
    expect(batches[1]?.upserts[0]).toMatchObject({ endedAt: 1_001_000, isMissedCall: true });
    expect(sync.live.liveCount()).toBe(1);
  });

  it('keeps the live feed when a journal write fails, and writes every call at the next sync', async () => {
    const { clock, phone, sync, batches, journal } = setup();
    phone.calls = [call('a', 999_000)];
    journal.failing = true;
    await sync.syncOnce();
    expect(sync.live.read()).toMatchObject({ ok: true });
    journal.failing = false;
    clock.advance(1000);
    await sync.syncOnce();
    expect(batches).toEqual([expect.objectContaining({ complete: true, upserts: [expect.objectContaining({ callID: 'a' })] })]);
  });

  it('turns a stalled provider into a timeout and keeps the last snapshot until it is too old', async () => {
    const { clock, phone, sync } = setup();
    phone.calls = [call('a', 999_000)];
    await sync.syncOnce();
    phone.failure = 'stall';
    await sync.syncOnce();
    expect(sync.counts.failures).toBe(1);
    clock.advance(9_000);
    expect(sync.live.read()).toMatchObject({ ok: true, ageMs: 9_000 });
    clock.advance(1_001);
    const read = sync.live.read();
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.failure.message).toMatch(/for 10 s: the provider did not answer within 50 ms/);
  });

  it('logs when an outage starts and ends, not every failed poll of it', async () => {
    const { lines, log } = recordingLog();
    const { phone, sync } = setup({ log });
    phone.failure = 'unavailable';
    for (let i = 0; i < 5; i += 1) await sync.syncOnce();
    phone.failure = null;
    await sync.syncOnce();
    await sync.syncOnce();
    expect(lines).toEqual([
      'warn provider sync failing',
      ...Array<string>(4).fill('debug provider sync failed again'),
      'info provider sync recovered',
    ]);
  });

  it('syncs at once when the phone system tells of a change, one poll per burst, at most every 100 ms', async () => {
    const { phone, sync } = setup({ intervalMs: 60_000 });
    let tell: () => void = () => undefined;
    phone.watchChanges = (onChange) => {
      tell = onChange;
      return () => (tell = () => undefined);
    };
    sync.start();
    await sync.ready();
    const before = phone.listRequests;
    for (let i = 0; i < 50; i += 1) tell();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(phone.listRequests - before).toBeGreaterThanOrEqual(1);
    expect(phone.listRequests - before).toBeLessThanOrEqual(2);
    await sync.stop();
    tell();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(phone.listRequests - before).toBeLessThanOrEqual(2);
  });

  it('numbers each sync that changed anything, and tells its listeners', async () => {
    const { phone, sync } = setup({ keepEndedMs: 0 });
    const events: string[] = [];
    sync.live.subscribe((event) =>
      events.push(event.type === 'changes' ? `changes ${event.entry.seq}` : event.type === 'status' ? `status ${event.status.available}` : 'reset'),
    );
    phone.calls = [call('a', 1)];
    await sync.syncOnce();
    await sync.syncOnce();
    phone.calls = [call('a', 1), call('b', 2)];
    await sync.syncOnce();
    phone.calls = [call('b', 2)];
    await sync.syncOnce();
    expect(events).toEqual(['changes 1', 'changes 2']);
    const entries = sync.live.changesSince({ epoch: sync.live.epoch, seq: 0 }) ?? [];
    expect(entries.map((e) => JSON.parse(e.data) as { upserted: { callID: string }[]; removed: string[] })).toMatchObject([
      { upserted: [{ callID: 'b' }], removed: [] },
      { upserted: [], removed: ['a'] },
    ]);
  });

  it('keeps the same ETag while the calls do not change', async () => {
    const { clock, phone, sync } = setup();
    phone.calls = [call('a', 999_000)];
    await sync.syncOnce();
    const first = sync.live.read();
    clock.advance(1000);
    await sync.syncOnce();
    const second = sync.live.read();
    expect(first.ok && second.ok && first.snapshot.etag === second.snapshot.etag).toBe(true);
    expect(second.ok && second.snapshot.takenAt).toBe(1_001_000);
  });

  it('serves a burst of "sync soon" requests with one poll', async () => {
    const { phone, sync } = setup();
    for (let i = 0; i < 20; i += 1) sync.syncSoon();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(phone.listRequests).toBe(1);
  });

  it('polls on its interval once started, and stops', async () => {
    const { phone, sync } = setup({ intervalMs: 100 });
    sync.start();
    await new Promise((resolve) => setTimeout(resolve, 350));
    await sync.stop();
    const seen = phone.listRequests;
    expect(seen).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(phone.listRequests).toBe(seen);
  });
});

describe('ProviderSync: the end of a call', () => {
  /** The wire records of the snapshot served now. */
  const served = (s: ProviderSync) => {
    const read = s.live.read();
    if (!read.ok) throw read.failure;
    return (JSON.parse(read.snapshot.body.toString()) as { calls: CallRecord[] }).calls;
  };
  const etag = (s: ProviderSync) => {
    const read = s.live.read();
    return read.ok ? read.snapshot.etag : undefined;
  };
  const changes = (s: ProviderSync) =>
    (s.live.changesSince({ epoch: s.live.epoch, seq: 0 }) ?? []).map((e) => JSON.parse(e.data) as { upserted: CallRecord[]; removed: string[] });

  it('ends a call that leaves without an end at the sync that noticed, lists it for keepEndedMs, then lets it go', async () => {
    const { clock, phone, sync, batches } = setup({ keepEndedMs: 5000 });
    phone.calls = [call('c', 999_000)];
    await sync.syncOnce();
    phone.calls = [];
    clock.advance(1000);
    await sync.syncOnce();
    expect(served(sync)).toEqual([expect.objectContaining({ callID: 'c', endedAt: new Date(1_001_000).toISOString(), isMissedCall: true })]);
    expect(sync.live.liveCount()).toBe(0);
    for (let i = 0; i < 3; i += 1) {
      clock.advance(1000);
      await sync.syncOnce();
    }
    clock.advance(1999);
    await sync.syncOnce();
    expect(served(sync).map((c) => c.endedAt)).toEqual([new Date(1_001_000).toISOString()]);
    clock.advance(1);
    await sync.syncOnce();
    expect(served(sync)).toEqual([]);
    // The journal got the end once, flagged as the service's, and nothing when the call left the list.
    const ends = batches.filter((b) => b.upserts.some((u) => u.callID === 'c' && u.endedAt !== undefined));
    expect(ends.map((b) => ({ at: b.at, flagged: b.endedByService.has('c') }))).toEqual([{ at: 1_001_000, flagged: true }]);
  });

  it('keeps the end a provider gives, without stamping it again, and lists the call keepEndedMs after that end', async () => {
    const { clock, phone, sync, batches } = setup({ keepEndedMs: 5000 });
    phone.calls = [call('given', 998_000, { answeredAt: 998_500, endedAt: 999_400 })];
    await sync.syncOnce();
    // The provider forgets it at once; the service keeps it, with the provider's end.
    phone.calls = [];
    clock.advance(1000);
    await sync.syncOnce();
    expect(served(sync)).toEqual([expect.objectContaining({ callID: 'given', endedAt: new Date(999_400).toISOString(), isMissedCall: false })]);
    expect(batches.slice(1).flatMap((b) => b.upserts)).toEqual([]);
    clock.set(999_400 + 5000);
    await sync.syncOnce();
    expect(served(sync)).toEqual([]);
  });

  it('lets an ended call go keepEndedMs after its end even while the provider still lists it, and journals it once', async () => {
    const { clock, phone, sync, batches } = setup({ keepEndedMs: 2000 });
    phone.calls = [call('long-listed', 990_000, { endedAt: 999_000 })];
    await sync.syncOnce();
    expect(served(sync).map((c) => c.callID)).toEqual(['long-listed']);
    clock.advance(1000);
    await sync.syncOnce();
    expect(served(sync)).toEqual([]);
    // Seen first after its time on the list: journaled all the same.
    phone.calls.push(call('late', 900_000, { endedAt: 950_000 }));
    clock.advance(1000);
    await sync.syncOnce();
    expect(served(sync)).toEqual([]);
    expect(batches.map((b) => b.upserts.map((c) => c.callID))).toEqual([['long-listed'], [], ['late']]);
  });

  it('marks missed only an inbound call never answered; an outbound one unanswered just ends', async () => {
    const { clock, phone, sync, batches } = setup();
    phone.calls = [
      call('in-unanswered', 999_000),
      call('out-unanswered', 999_000, { isOutbound: true }),
      call('in-answered', 999_000, { answeredAt: 999_500 }),
      call('out-answered', 999_000, { isOutbound: true, answeredAt: 999_500 }),
    ];
    await sync.syncOnce();
    phone.calls = [];
    clock.advance(1000);
    await sync.syncOnce();
    const endedAt = new Date(1_001_000).toISOString();
    expect(served(sync).map((c) => [c.callID, c.isMissedCall, c.endedAt])).toEqual([
      ['in-answered', false, endedAt],
      ['in-unanswered', true, endedAt],
      ['out-answered', false, endedAt],
      ['out-unanswered', false, endedAt],
    ]);
    expect(batches[1]?.upserts.map((c) => [c.callID, c.isMissedCall])).toEqual([
      ['in-unanswered', true],
      ['out-unanswered', false],
      ['in-answered', false],
      ['out-answered', false],
    ]);
  });

  it('remembers an answer the provider stops reporting: the call is not missed', async () => {
    const { clock, phone, sync } = setup();
    phone.calls = [call('c', 999_000, { answeredAt: 999_500 })];
    await sync.syncOnce();
    phone.calls = [call('c', 999_000)];
    clock.advance(1000);
    await sync.syncOnce();
    phone.calls = [];
    clock.advance(1000);
    await sync.syncOnce();
    expect(served(sync)).toEqual([expect.objectContaining({ isMissedCall: false, answeredAt: new Date(999_500).toISOString() })]);
  });

  it('streams the end as an upsert, and the removal only when the call leaves the list for good', async () => {
    const { clock, phone, sync } = setup({ keepEndedMs: 3000 });
    phone.calls = [];
    await sync.syncOnce();
    phone.calls = [call('c', 1_000_500)];
    clock.advance(1000);
    await sync.syncOnce();
    phone.calls = [];
    clock.advance(1000);
    await sync.syncOnce();
    for (let i = 0; i < 3; i += 1) {
      clock.advance(1000);
      await sync.syncOnce();
    }
    expect(changes(sync)).toEqual([
      { providerID: 'p', cursor: expect.any(String), upserted: [expect.not.objectContaining({ endedAt: expect.anything() })], removed: [] },
      { providerID: 'p', cursor: expect.any(String), upserted: [expect.objectContaining({ callID: 'c', endedAt: new Date(1_002_000).toISOString(), isMissedCall: true })], removed: [] },
      { providerID: 'p', cursor: expect.any(String), upserted: [], removed: ['c'] },
    ]);
  });

  it('keeps the ETag while an ended call is kept, and changes it when the call leaves', async () => {
    const { clock, phone, sync } = setup({ keepEndedMs: 3000 });
    phone.calls = [call('c', 999_000), call('stays', 999_000)];
    await sync.syncOnce();
    phone.calls = [call('stays', 999_000)];
    clock.advance(1000);
    await sync.syncOnce();
    const whileKept = etag(sync);
    clock.advance(1000);
    await sync.syncOnce();
    expect(etag(sync)).toBe(whileKept);
    clock.advance(2000);
    await sync.syncOnce();
    expect(etag(sync)).not.toBe(whileKept);
    expect(served(sync).map((c) => c.callID)).toEqual(['stays']);
  });

  it('journals the end of a call with keepEndedMs 0, though it is never listed ended', async () => {
    const { clock, phone, sync, batches } = setup({ keepEndedMs: 0 });
    phone.calls = [call('c', 999_000)];
    await sync.syncOnce();
    phone.calls = [];
    clock.advance(1000);
    await sync.syncOnce();
    expect(served(sync)).toEqual([]);
    expect(batches[1]?.upserts).toEqual([expect.objectContaining({ callID: 'c', endedAt: 1_001_000, isMissedCall: true })]);
    expect(batches[1]?.endedByService.has('c')).toBe(true);
  });

  it('ends a call that left during a provider outage at the last sync that saw it, not when the outage ended', async () => {
    const { clock, phone, sync } = setup({ keepEndedMs: 60_000 });
    phone.calls = [call('c', 999_000, { answeredAt: 999_200 })];
    await sync.syncOnce();
    phone.failure = 'unavailable';
    for (let i = 0; i < 9; i += 1) {
      clock.advance(1000);
      await sync.syncOnce();
    }
    phone.failure = null;
    phone.calls = [];
    clock.advance(1000);
    await sync.syncOnce();
    expect(served(sync)).toEqual([expect.objectContaining({ callID: 'c', endedAt: new Date(1_000_000).toISOString(), isMissedCall: false })]);
  });

  it('lists a call again as the provider has it when it comes back after the service ended it', async () => {
    const { clock, phone, sync, batches } = setup();
    phone.calls = [call('c', 999_000)];
    await sync.syncOnce();
    phone.calls = [];
    clock.advance(1000);
    await sync.syncOnce();
    phone.calls = [call('c', 999_000, { answeredAt: 1_001_500 })];
    clock.advance(1000);
    await sync.syncOnce();
    expect(served(sync)).toEqual([expect.not.objectContaining({ endedAt: expect.anything() })]);
    expect(served(sync)[0]).toMatchObject({ isMissedCall: false, answeredAt: new Date(1_001_500).toISOString() });
    expect(batches[2]?.endedByService.size).toBe(0);
  });

  it('after a restart, lists again the calls that had just ended, and ends those that left meanwhile at the last sync written', async () => {
    const { clock, phone, sync, journal, batches } = setup({ keepEndedMs: 60_000 });
    clock.set(2_000_000);
    journal.before = {
      calls: [
        { ...call('ended-before', 1_900_000, { endedAt: 1_950_000, isMissedCall: true }), closedBySync: true },
        { ...call('left-meanwhile', 1_900_000, { isOutbound: true }), closedBySync: false },
        { ...call('still-live', 1_900_000, { answeredAt: 1_900_500 }), closedBySync: false },
      ],
      lastSyncAt: 1_960_000,
    };
    phone.calls = [call('still-live', 1_900_000, { answeredAt: 1_900_500 })];
    await sync.syncOnce();
    expect(journal.recalledSince).toEqual([2_000_000 - 60_000]);
    expect(served(sync).map((c) => [c.callID, c.endedAt ?? null, c.isMissedCall])).toEqual([
      ['ended-before', new Date(1_950_000).toISOString(), true],
      ['left-meanwhile', new Date(1_960_000).toISOString(), false],
      ['still-live', null, false],
    ]);
    expect(batches[0]).toMatchObject({ complete: true });
    expect([...(batches[0]?.endedByService ?? [])].sort()).toEqual(['ended-before', 'left-meanwhile']);
    // Asked once per run, not at every sync.
    clock.advance(1000);
    await sync.syncOnce();
    expect(journal.recalledSince).toHaveLength(1);
  });
});

describe('ProviderSync: updates the provider pushes', () => {
  const served = (s: ProviderSync) => {
    const read = s.live.read();
    if (!read.ok) throw read.failure;
    return (JSON.parse(read.snapshot.body.toString()) as { calls: CallRecord[] }).calls;
  };
  const answered = (at: number, sequence: number): CallUpdate => ({ callID: 'c', at, source: 'leg', sequence, fields: { answeredAt: at } });

  it('applies an update at once: published as a change, journaled, with no list asked for', async () => {
    const { clock, phone, sync, batches } = setup();
    phone.calls = [call('c', 999_000)];
    await sync.syncOnce();
    const changes: number[] = [];
    sync.live.subscribe((event) => event.type === 'changes' && changes.push(event.entry.seq));
    clock.advance(300);
    await sync.push([answered(1_000_300, 1)]);
    expect(served(sync)).toEqual([expect.objectContaining({ callID: 'c', answeredAt: new Date(1_000_300).toISOString() })]);
    expect(changes).toEqual([1]);
    expect(phone.listRequests).toBe(1);
    expect(batches.at(-1)).toMatchObject({ at: 1_000_000, upserts: [expect.objectContaining({ answeredAt: 1_000_300 })] });
    // The snapshot's age is the last list's: an update says nothing of the calls it does not name.
    expect(sync.live.read()).toMatchObject({ ok: true, ageMs: 300 });
  });

  it('changes nothing for an update delivered twice', async () => {
    const { phone, sync, batches } = setup();
    phone.calls = [call('c', 999_000)];
    await sync.syncOnce();
    await sync.push([answered(1_000_000, 1)]);
    const written = batches.length;
    const etag = sync.live.read();
    await sync.push([answered(1_000_000, 1)]);
    expect(batches).toHaveLength(written);
    const again = sync.live.read();
    expect(etag.ok && again.ok && etag.snapshot.etag === again.snapshot.etag).toBe(true);
  });

  it('does not let a list asked for before an update undo it', async () => {
    const { clock, phone, sync } = setup();
    phone.calls = [call('c', 999_000)];
    await sync.syncOnce();
    let answerList: () => void = () => undefined;
    phone.listLatency = () => new Promise<void>((resolve) => (answerList = resolve));
    clock.advance(1000);
    const listing = sync.syncOnce();
    await new Promise((resolve) => setImmediate(resolve));
    await sync.push([{ callID: 'c', at: 1_000_900, source: 'leg', sequence: 1, fields: { answeredAt: 1_000_500, endedAt: 1_000_900 } }]);
    answerList();
    await listing;
    expect(served(sync)).toEqual([expect.objectContaining({ endedAt: new Date(1_000_900).toISOString(), isMissedCall: false })]);
  });

  it('keeps updates that come before the first list, and publishes them with it', async () => {
    const { phone, sync } = setup();
    await sync.push([answered(1_000_000, 1)]);
    await sync.push([{ callID: 'n', at: 1_000_000, fields: { providerCallID: 'n', isOutbound: true, remoteNumber: '15550100001', startedAt: 1_000_000 } }]);
    expect(sync.live.settled).toBe(false);
    phone.calls = [call('c', 999_000)];
    await sync.syncOnce();
    expect(served(sync).map((c) => [c.callID, c.answeredAt])).toEqual([
      ['c', new Date(1_000_000).toISOString()],
      ['n', undefined],
    ]);
  });

  it('lists soon, within the provider’s floor, when an update names a call no list has shown', async () => {
    const { phone, sync } = setup({ intervalMs: 60_000, minListIntervalMs: 300 });
    // When each list started, on the real clock the schedule runs on: the test asserts gaps, never a fixed wait.
    const listedAt: number[] = [];
    const list = phone.listCalls.bind(phone);
    phone.listCalls = (signal) => (listedAt.push(performance.now()), list(signal));
    await sync.syncOnce();
    phone.calls = [call('c', 999_000)];
    await sync.push([answered(1_000_000, 1)]);
    await vi.waitFor(() => expect(phone.listRequests).toBe(2), { timeout: 5000, interval: 10 });
    expect((listedAt[1] as number) - (listedAt[0] as number)).toBeGreaterThanOrEqual(290);
    expect(served(sync)[0]).toMatchObject({ answeredAt: new Date(1_000_000).toISOString() });
  });

  it('asks no list before the time a rate-limited provider gave', async () => {
    const { phone, sync } = setup({ intervalMs: 100 });
    const listedAt: number[] = [];
    phone.listCalls = async () => {
      phone.listRequests += 1;
      listedAt.push(performance.now());
      throw new ProviderFailure('unavailable', 'rate limited', undefined, 500);
    };
    sync.start();
    // Every 100 ms otherwise: the second list waits out the 500 ms the provider asked for, however busy the machine.
    await vi.waitFor(() => expect(phone.listRequests).toBeGreaterThanOrEqual(2), { timeout: 5000, interval: 10 });
    expect((listedAt[1] as number) - (listedAt[0] as number)).toBeGreaterThanOrEqual(490);
  });

  it('takes updates from a connection it opens to the phone system while it syncs, and closes it when it stops', async () => {
    const { phone, sync } = setup({ intervalMs: 60_000 });
    let push: ((updates: CallUpdate[]) => void) | undefined;
    phone.streamUpdates = (onUpdates) => {
      push = onUpdates;
      return () => (push = undefined);
    };
    phone.calls = [call('c', 999_000)];
    sync.start();
    await sync.ready();
    push?.([answered(1_000_000, 1)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served(sync)[0]).toMatchObject({ answeredAt: new Date(1_000_000).toISOString() });
    await sync.stop();
    expect(push).toBeUndefined();
  });

  it('keeps the provider failing while updates arrive and lists fail; the next list answered ends it', async () => {
    const { clock, phone, sync } = setup();
    phone.calls = [call('c', 999_000)];
    await sync.syncOnce();
    phone.failure = 'unavailable';
    clock.advance(1000);
    await sync.syncOnce();
    await sync.push([answered(1_000_500, 1)]);
    expect(served(sync)[0]).toMatchObject({ answeredAt: new Date(1_000_500).toISOString() });
    expect(sync.live.status()).toMatchObject({ available: true, failure: expect.objectContaining({ kind: 'unavailable' }) });
    phone.failure = null;
    clock.advance(1000);
    await sync.syncOnce();
    expect(sync.live.status().failure).toBeUndefined();
  });

  it('says the sync is degraded while the push connection is down, and no more once it reopens or the sync stops', async () => {
    const { phone, sync } = setup({ intervalMs: 60_000 });
    let tell: ((health: StreamHealth) => void) | undefined;
    phone.streamUpdates = (_onUpdates, onHealth) => {
      tell = onHealth;
      return () => (tell = undefined);
    };
    const told: (string | undefined)[] = [];
    sync.live.subscribe((event) => event.type === 'status' && told.push(event.status.degraded));
    sync.start();
    await sync.ready();
    tell?.({ connected: false, detail: 'socket closed' });
    await vi.waitFor(() => expect(sync.live.status().degraded).toBe('socket closed'), { timeout: 2000, interval: 5 });
    tell?.({ connected: true });
    await vi.waitFor(() => expect(sync.live.status().degraded).toBeUndefined(), { timeout: 2000, interval: 5 });
    tell?.({ connected: false, detail: 'socket closed again' });
    await vi.waitFor(() => expect(sync.live.status().degraded).toBe('socket closed again'), { timeout: 2000, interval: 5 });
    await sync.stop();
    expect(sync.live.status().degraded).toBeUndefined();
    expect(told).toEqual(['socket closed', undefined, 'socket closed again', undefined]);
  });
});

describe('ProviderSync in a cluster', () => {
  /** A seat whose feed holds calls `a` and `b` (what the last leader committed), with one stored update for `a`. */
  const seat = () => {
    const commits: FeedCommit[] = [];
    const healths: FeedHealth[] = [];
    let roles: SyncRoles | undefined;
    let stored: Delivered | undefined = {
      ids: ['d1'],
      updates: [{ callID: 'a', at: 1_000_000, fields: { answeredAt: 1_000_000 } }],
    };
    const shared = {
      join: (given: SyncRoles) => {
        roles = given;
        return async () => undefined;
      },
      read: async (): Promise<FeedRead> => ({
        state: { epoch: 'e1', seq: 1, takenAt: 999_900, health: {} },
        checkpoint: { seq: 1, calls: [call('a', 999_000), call('b', 999_500)] },
        changes: [],
      }),
      commit: async (step: FeedCommit) => {
        commits.push(step);
      },
      takeDelivered: async () => {
        const taken = stored;
        stored = undefined;
        return taken;
      },
      deliver: async () => undefined,
      resign: async () => undefined,
      requestSync: () => undefined,
      commitHealth: async (health: FeedHealth) => {
        healths.push(health);
      },
    } as unknown as SharedSync;
    /** Another instance stored a delivery for the leader. */
    const store = (delivered: Delivered) => {
      stored = delivered;
      roles?.delivered();
    };
    return { shared, commits, healths, store, roles: () => roles as SyncRoles };
  };

  it('takes in no stored update as a new leader before its first list, which would publish every other call gone', async () => {
    const { shared, commits, roles } = seat();
    const { phone, sync } = setup({ intervalMs: 60_000, requestTimeoutMs: 10_000, shared });
    phone.calls = [call('a', 999_000), call('b', 999_500)];
    let answer: (() => void) | undefined;
    phone.listLatency = () => new Promise<void>((resolve) => (answer = resolve));
    sync.start();
    await sync.ready();
    roles().lead();
    await vi.waitFor(() => expect(answer).toBeDefined(), { timeout: 5000, interval: 5 });
    // The update is stored before the new leader's first list has answered.
    roles().delivered();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(commits).toEqual([]);
    answer?.();
    await vi.waitFor(() => expect(commits.some((commit) => commit.delivered?.includes('d1'))).toBe(true), { timeout: 5000, interval: 5 });
    expect(commits.flatMap((commit) => commit.change?.removed ?? [])).toEqual([]);
    const read = sync.live.read();
    if (!read.ok) throw read.failure;
    const served = (JSON.parse(read.snapshot.body.toString()) as { calls: CallRecord[] }).calls;
    expect(served.map((record) => [record.callID, record.answeredAt])).toEqual([
      ['a', new Date(1_000_000).toISOString()],
      ['b', undefined],
    ]);
  });

  it('commits the provider’s health with every sync: a drained update keeps the failure, a list answered ends it', async () => {
    const { shared, commits, healths, store, roles } = seat();
    const { clock, phone, sync } = setup({ intervalMs: 60_000, shared });
    phone.calls = [call('a', 999_000), call('b', 999_500)];
    sync.start();
    await sync.ready();
    roles().lead();
    await vi.waitFor(() => expect(commits.some((commit) => commit.delivered?.includes('d1'))).toBe(true), { timeout: 5000, interval: 5 });
    expect(commits.map((commit) => commit.health)).toEqual(commits.map(() => ({})));

    phone.failure = 'unavailable';
    clock.advance(1000);
    await sync.syncOnce();
    expect(healths).toEqual([{ failure: { kind: 'unavailable', message: expect.any(String) } }]);
    const before = commits.length;
    store({ ids: ['d2'], updates: [{ callID: 'b', at: 1_001_000, fields: { answeredAt: 1_001_000 } }] });
    await vi.waitFor(() => expect(commits.some((commit) => commit.delivered?.includes('d2'))).toBe(true), { timeout: 5000, interval: 5 });
    expect(commits.slice(before).map((commit) => commit.health)).toEqual([{ failure: { kind: 'unavailable', message: expect.any(String) } }]);
    expect(sync.live.status().failure).toBeDefined();

    phone.failure = null;
    clock.advance(1000);
    await sync.syncOnce();
    expect(commits.at(-1)?.health).toEqual({});
    expect(sync.live.status().failure).toBeUndefined();
  });

  it('commits "degraded" while the leader’s push connection is down, and its end', async () => {
    const { shared, healths, roles } = seat();
    const { phone, sync } = setup({ intervalMs: 60_000, shared });
    let tell: ((health: StreamHealth) => void) | undefined;
    phone.streamUpdates = (_onUpdates, onHealth) => {
      tell = onHealth;
      return () => (tell = undefined);
    };
    sync.start();
    await sync.ready();
    expect(tell).toBeUndefined();
    roles().lead();
    await vi.waitFor(() => expect(tell).toBeDefined(), { timeout: 5000, interval: 5 });
    tell?.({ connected: false, detail: 'socket closed' });
    await vi.waitFor(() => expect(healths).toEqual([{ degraded: 'socket closed' }]), { timeout: 5000, interval: 5 });
    tell?.({ connected: true });
    await vi.waitFor(() => expect(healths).toEqual([{ degraded: 'socket closed' }, {}]), { timeout: 5000, interval: 5 });
    // Followers take the health from the feed: losing the lead closes the connection here.
    roles().follow();
    expect(tell).toBeUndefined();
  });
});
