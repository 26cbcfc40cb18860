import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../../contract/call-record.js';
import { ApiClient } from './api-client.js';
import {
  countMissedSince,
  missedOutsideWindows,
  missedWindows,
  RECENT_WINDOW_MS,
  recentMissedCallsQueryOptions,
} from './recent-calls-query.js';
import { callRecord } from '../../test-support/call-record.js';
import { stubFetch } from '../../test-support/fetch-stub.js';

const NOW = Date.parse('2026-11-22T14:30:00.000Z');
const MIN = 60_000;
const iso = (at: number) => new Date(at).toISOString();

const call = (callID: string, over: Partial<CallRecord> = {}): CallRecord =>
  callRecord(callID, { isMissedCall: true, startedAt: iso(NOW - 5 * MIN), endedAt: iso(NOW - 4 * MIN), ...over });

afterEach(() => vi.restoreAllMocks());

describe('countMissedSince', () => {
  const since = NOW - RECENT_WINDOW_MS;
  const count = (lists: (CallRecord[] | undefined)[], live: CallRecord[] = []) =>
    countMissedSince(missedWindows(lists), live, since);

  it('counts a missed call once however many lists hold it, the live feed included', () => {
    const a = call('a');
    const b = call('b');
    expect(count([[a, b], [{ ...a }], [b]], [{ ...b }])).toBe(2);
    expect(count([], [a, b, { ...a }])).toBe(2);
  });

  it('counts by when the call ended, or by its start while no end is known', () => {
    const lists = [
      [
        call('ended-in-window', { startedAt: iso(NOW - 20 * MIN), endedAt: iso(NOW - 14 * MIN) }),
        call('ended-before', { startedAt: iso(NOW - 20 * MIN), endedAt: iso(NOW - 16 * MIN) }),
        call('no-end-in-window', { startedAt: iso(NOW - MIN), endedAt: undefined }),
        call('no-end-before', { startedAt: iso(NOW - 30 * MIN), endedAt: undefined }),
      ],
    ];
    expect(count(lists)).toBe(2);
    expect(count([], lists[0])).toBe(2);
  });

  it('counts a call that any list puts in range: a window may not know yet of the end the live feed shows', () => {
    const ringing = call('x', { startedAt: iso(NOW - 16 * MIN), endedAt: undefined });
    expect(count([[ringing]])).toBe(0);
    expect(count([[ringing]], [{ ...ringing, endedAt: iso(NOW - MIN) }])).toBe(1);
    expect(count([[{ ...ringing, endedAt: iso(NOW - MIN) }]], [ringing])).toBe(1);
  });

  it('leaves out calls that were not missed, and lists not loaded yet', () => {
    expect(count([[call('answered', { isMissedCall: false, answeredAt: iso(NOW - 5 * MIN) })], undefined])).toBe(0);
  });

  it('gives what counting every copy of every list gives, over random lists and moments', () => {
    // The definition, one copy at a time: a call counts when any copy of it is missed in range.
    const byDefinition = (lists: CallRecord[][], at: number) =>
      new Set(
        lists.flat().flatMap((one) => (one.isMissedCall && Date.parse(one.endedAt ?? one.startedAt) >= at ? [one.callID] : [])),
      ).size;
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const randomCall = () =>
      call(`c${Math.floor(random() * 40)}`, {
        isMissedCall: random() < 0.8,
        startedAt: iso(NOW - Math.floor(random() * 30 * MIN)),
        endedAt: random() < 0.3 ? undefined : iso(NOW - Math.floor(random() * 20 * MIN)),
      });
    for (let round = 0; round < 200; round += 1) {
      const lists = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        Array.from({ length: Math.floor(random() * 30) }, randomCall),
      );
      const live = Array.from({ length: Math.floor(random() * 30) }, randomCall);
      const at = NOW - Math.floor(random() * 25 * MIN);
      expect(countMissedSince(missedWindows(lists), live, at)).toBe(byDefinition([...lists, live], at));
    }
  });
});

describe('missedOutsideWindows', () => {
  it('names the ended missed calls of the live feed that no window holds, in order', () => {
    const windows = missedWindows([[call('held')], undefined]);
    const live = [
      call('b'),
      call('held'),
      call('a'),
      call('ringing', { endedAt: undefined }),
      call('answered', { isMissedCall: false }),
    ];
    expect(missedOutsideWindows(windows, live)).toBe('a b');
    expect(missedOutsideWindows(windows, [call('held')])).toBe('');
  });
});

describe('recentMissedCallsQueryOptions', () => {
  it('asks the list for the missed calls of the last 15 minutes, and keeps only those whatever the service answers', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const fetchSpy = stubFetch({
      'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls': () =>
        Response.json({
          calls: [call('m'), call('talked', { isMissedCall: false })],
          totalCalls: 2,
          fromDate: iso(NOW - RECENT_WINDOW_MS),
          toDate: iso(NOW),
        }),
    });
    const client = new ApiClient({ kind: 'token', baseURL: '', token: 't', remember: false });
    const scope = { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' };
    const data = await new QueryClient().fetchQuery(recentMissedCallsQueryOptions(client, scope, { enabled: true }));

    const url = new URL(String(fetchSpy.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.pathname).toBe('/v1/accounts/demo/applications/support/provider/pbx-main/calls');
    expect(url.searchParams.get('fromDate')).toBe(iso(NOW - RECENT_WINDOW_MS));
    expect(url.searchParams.get('isMissedCall')).toBe('true');
    expect(data.calls.map((c) => c.callID)).toEqual(['m']);
  });
});
