import { describe, expect, it } from 'vitest';
import type { MissedCall } from '../../../../contract/service-levels.js';
import { callRecord } from '../../../test-support/call-record.js';
import { newlyMissedKey, toCallBack } from './to-call-back.js';

const T = Date.parse('2026-11-26T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const journal = (callID: string, remoteNumber: string, startedAt: number, extra: Partial<MissedCall> = {}): MissedCall => ({
  callID,
  remoteNumber,
  startedAt: iso(startedAt),
  endedAt: iso(startedAt + 30_000),
  attempts: 0,
  ...extra,
});

describe('the callers to call back', () => {
  it('lists each number once, oldest first, with how often it missed and was tried, and counts withheld callers apart', () => {
    const list = toCallBack(
      [
        journal('m3', '15550100002', T + 10 * 60_000, { subscriberID: 'agt-2' }),
        journal('m2', '15550100001', T + 5 * 60_000),
        journal('m1', '15550100001', T, { attempts: 1 }),
        journal('w', '', T),
      ],
      [],
      5000,
    );
    expect(list.withheld).toBe(1);
    expect(list.entries).toEqual([
      { remoteNumber: '15550100001', firstMissedAt: T, lastMissedAt: T + 5 * 60_000, missedCalls: 2, attempts: 1 },
      { remoteNumber: '15550100002', subscriberID: 'agt-2', firstMissedAt: T + 10 * 60_000, lastMissedAt: T + 10 * 60_000, missedCalls: 1, attempts: 0 },
    ]);
  });

  it('takes in at once a caller the live feed shows giving up, but not one who gave up within the short-abandon time', () => {
    const gaveUp = callRecord('live-1', { remoteNumber: '15550100003', startedAt: iso(T), endedAt: iso(T + 20_000), isMissedCall: true });
    const hungUpAtOnce = callRecord('live-2', { remoteNumber: '15550100004', startedAt: iso(T), endedAt: iso(T + 3000), isMissedCall: true });
    expect(toCallBack([], [gaveUp, hungUpAtOnce], 5000).entries.map((entry) => entry.remoteNumber)).toEqual(['15550100003']);
  });

  it('counts a callback the live feed shows, and drops the caller once someone reaches them', () => {
    const missed = [journal('m1', '15550100001', T)];
    const ringing = callRecord('back', { isOutbound: true, remoteNumber: '15550100001', startedAt: iso(T + 60_000) });
    expect(toCallBack(missed, [ringing], 5000).entries[0]?.attempts).toBe(1);
    const answered = { ...ringing, answeredAt: iso(T + 70_000) };
    expect(toCallBack(missed, [answered], 5000).entries).toEqual([]);
    // Or they called again and were answered.
    const again = callRecord('again', { remoteNumber: '15550100001', startedAt: iso(T + 90_000), answeredAt: iso(T + 95_000) });
    expect(toCallBack(missed, [again], 5000).entries).toEqual([]);
    // The journal knows of it already.
    expect(toCallBack([journal('m1', '15550100001', T, { reachedAt: iso(T + 80_000) })], [], 5000).entries).toEqual([]);
  });

  it('merges a caller the live feed shows giving up again with their journaled misses, each call once, and reads a new journal anew', () => {
    const missed = [journal('m1', '15550100001', T), journal('m2', '15550100001', T + 60_000, { subscriberID: 'agt-1' })];
    const again = callRecord('live-3', { remoteNumber: '15550100001', startedAt: iso(T + 30_000), endedAt: iso(T + 50_000), subscriberID: 'agt-2' });
    const list = toCallBack(missed, [again, { ...again }, callRecord('m2', { remoteNumber: '15550100001', startedAt: iso(T + 60_000), endedAt: iso(T + 90_000) })], 5000);
    expect(list.entries).toEqual([
      { remoteNumber: '15550100001', subscriberID: 'agt-1', firstMissedAt: T, lastMissedAt: T + 60_000, missedCalls: 3, attempts: 0 },
    ]);
    // The next answer of the journal holds the live call, and one more.
    const next = [...missed, journal('live-3', '15550100001', T + 30_000), journal('m4', '15550100009', T + 120_000)];
    expect(toCallBack(next, [again], 5000).entries.map((entry) => [entry.remoteNumber, entry.missedCalls])).toEqual([
      ['15550100001', 3],
      ['15550100009', 1],
    ]);
  });

  it('names the callers the live feed shows giving up that the journal does not hold yet, in order', () => {
    const gaveUp = (callID: string) => callRecord(callID, { remoteNumber: '15550100001', startedAt: iso(T), endedAt: iso(T + 20_000) });
    const live = [gaveUp('b'), gaveUp('held'), gaveUp('a'), callRecord('ringing', { startedAt: iso(T) }), { ...gaveUp('out'), isOutbound: true }];
    expect(newlyMissedKey([journal('held', '15550100001', T)], live)).toBe('a b');
  });
});
