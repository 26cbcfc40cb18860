import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import type { JournalBatch } from '../history/journal-batch.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { ScriptedPhoneSystem } from '../test-support/scripted-phone-system.js';
import { ProviderSync } from './provider-sync.js';

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
  const journal = { failing: false };
  sync = new ProviderSync(phone, {
    providerID: 'p',
    providerName: 'P',
    intervalMs: 1000,
    requestTimeoutMs: 50,
    staleAfterMs: 10_000,
    clock,
    log: silent,
    journal: {
      write: async (batch) => {
        if (journal.failing) throw new Error('disk full');
        batches.push(batch);
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
    expect(sync.fetches).toBe(1);
  });

  it('journals every call at the first sync, then only what changed, closing ghosts at the sync that noticed', async () => {
    const { clock, phone, sync, batches } = setup();
    phone.calls = [call('ghost', 999_000), call('stays', 999_500), call('done', 999_000, { endedAt: 999_900 })];
    await sync.syncOnce();
    phone.calls = [call('stays', 999_500, { answeredAt: 1_000_500 })];
    clock.advance(1000);
    await sync.syncOnce();
    expect(batches.map((b) => ({ ...b, upserts: b.upserts.map((c) => c.callID) }))).toEqual([
      { at: 1_000_000, upserts: ['done', 'ghost', 'stays'], vanished: [], complete: true },
      { at: 1_001_000, upserts: ['stays'], vanished: ['ghost'], complete: false },
    ]);
    expect(sync.liveCount()).toBe(1);
  });

  it('keeps the live feed when a journal write fails, and writes every call at the next sync', async () => {
    const { clock, phone, sync, batches, journal } = setup();
    phone.calls = [call('a', 999_000)];
    journal.failing = true;
    await sync.syncOnce();
    expect(sync.read()).toMatchObject({ ok: true });
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
    expect(sync.failures).toBe(1);
    clock.advance(9_000);
    expect(sync.read()).toMatchObject({ ok: true, ageMs: 9_000 });
    clock.advance(1_001);
    const read = sync.read();
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
    const { phone, sync } = setup();
    const events: string[] = [];
    sync.subscribe((event) => events.push(event.type === 'changes' ? `changes ${event.entry.seq}` : `status ${event.status.available}`));
    phone.calls = [call('a', 1)];
    await sync.syncOnce();
    await sync.syncOnce();
    phone.calls = [call('a', 1), call('b', 2)];
    await sync.syncOnce();
    phone.calls = [call('b', 2)];
    await sync.syncOnce();
    expect(events).toEqual(['changes 1', 'changes 2']);
    const entries = sync.changesSince({ epoch: sync.changeLogEpoch, seq: 0 }) ?? [];
    expect(entries.map((e) => JSON.parse(e.data) as { upserted: { callID: string }[]; removed: string[] })).toMatchObject([
      { upserted: [{ callID: 'b' }], removed: [] },
      { upserted: [], removed: ['a'] },
    ]);
  });

  it('keeps the same ETag while the calls do not change', async () => {
    const { clock, phone, sync } = setup();
    phone.calls = [call('a', 999_000)];
    await sync.syncOnce();
    const first = sync.read();
    clock.advance(1000);
    await sync.syncOnce();
    const second = sync.read();
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
