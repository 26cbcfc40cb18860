import { describe, expect, it } from 'vitest';
import type { ProviderCall } from '../providers/phone-system.js';
import { historyKind, useHistoryStore } from '../test-support/test-history.js';
import { journalBatch } from '../calls/journal-batch.js';

const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const T = 1_800_000_000_000;
const s = (seconds: number) => T + seconds * 1000;
const call = (id: string, from: number, to: number | undefined, extra: Partial<ProviderCall> = {}): ProviderCall => ({
  callID: id,
  providerCallID: id,
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '123',
  startedAt: s(from),
  ...(to === undefined ? {} : { endedAt: s(to) }),
  ...extra,
});

const openStore = useHistoryStore();

describe(`concurrency buckets (${historyKind})`, () => {
  /**
   * Seconds from T, buckets of 10 s over [0, 30):
   *   A in   -5 .. 12   B out 2 .. 8   C in 5 .. 25   D in (missed) 21 .. 24   E in 27 .. open (now = 40)
   * [0,10):  live at start A; +B 2, +C 5 -> 3 (in A,C = 2; out B = 1); -B 8.
   *          call-seconds A 10 + B 6 + C 5 = 21 -> average 2.1; started B, C.
   * [10,20): live at start A, C = 2; -A 12. Call-seconds A 2 + C 10 = 12 -> 1.2.
   * [20,30): live at start C = 1; +D 21 -> 2; -D 24; -C 25; +E 27. Call-seconds C 5 + D 3 + E 3 = 11 -> 1.1;
   *          started D, E; missed D.
   */
  it('matches a hand-checked small case', async () => {
    const calls = [
      call('A', -5, 12),
      call('B', 2, 8, { isOutbound: true }),
      call('C', 5, 25),
      call('D', 21, 24, { isMissedCall: true }),
      call('E', 27, undefined),
      call('later', 45, 50),
    ];
    await openStore().importCalls(scope, calls);
    const rows = await openStore().concurrency(scope, { from: s(0), to: s(30), bucketMs: 10_000, now: s(40) });
    expect(rows).toEqual([
      { start: s(0), spanMs: 10_000, busyMs: 21_000, peak: 3, peakInbound: 2, peakOutbound: 1, started: 2, missed: 0 },
      { start: s(10), spanMs: 10_000, busyMs: 12_000, peak: 2, peakInbound: 2, peakOutbound: 0, started: 0, missed: 0 },
      { start: s(20), spanMs: 10_000, busyMs: 11_000, peak: 2, peakInbound: 2, peakOutbound: 0, started: 2, missed: 1 },
    ]);
  });

  it('counts a call that ends as another starts once, cuts the last bucket at the window end, and fills empty buckets', async () => {
    await openStore().importCalls(scope, [call('first', 0, 5), call('second', 5, 9)]);
    const rows = await openStore().concurrency(scope, { from: s(0), to: s(25), bucketMs: 10_000, now: s(100) });
    expect(rows.map((r) => [r.peak, r.busyMs, r.spanMs, r.started])).toEqual([
      [1, 9_000, 10_000, 2],
      [0, 0, 10_000, 0],
      [0, 0, 5_000, 0],
    ]);
  });

  it('counts an open call as live until now, and only calls of the provider', async () => {
    await openStore().write(scope, journalBatch(undefined, [call('open', 1, undefined)], s(1)));
    await openStore().importCalls({ ...scope, providerID: 'other' }, [call('other', 0, 20)]);
    const rows = await openStore().concurrency(scope, { from: s(0), to: s(20), bucketMs: 10_000, now: s(15) });
    expect(rows.map((r) => [r.peak, r.busyMs])).toEqual([
      [1, 9_000],
      [1, 5_000],
    ]);
  });
});
