import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../../contract/call-record.js';
import { ApiClient } from './api-client.js';
import { countMissedSince, RECENT_WINDOW_MS, recentMissedCallsQueryOptions } from './recent-calls-query.js';
import { callRecord } from '../../test-support/call-record.js';
import { stubFetch } from '../../test-support/fetch-stub.js';

const NOW = Date.parse('2026-11-22T14:30:00.000Z');
const MIN = 60_000;
const iso = (at: number) => new Date(at).toISOString();

const call = (callID: string, over: Partial<CallRecord> = {}): CallRecord => callRecord(callID, { isMissedCall: true, startedAt: iso(NOW - 5 * MIN), endedAt: iso(NOW - 4 * MIN), ...over });

afterEach(() => vi.restoreAllMocks());

describe('countMissedSince', () => {
  const since = NOW - RECENT_WINDOW_MS;

  it('counts a missed call once however many lists hold it', () => {
    const a = call('a');
    const b = call('b');
    expect(countMissedSince([[a, b], [{ ...a }], [b]], since)).toBe(2);
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
    expect(countMissedSince(lists, since)).toBe(2);
  });

  it('leaves out calls that were not missed, and lists not loaded yet', () => {
    expect(countMissedSince([[call('answered', { isMissedCall: false, answeredAt: iso(NOW - 5 * MIN) })], undefined], since)).toBe(0);
  });
});

describe('recentMissedCallsQueryOptions', () => {
  it('asks the list for the missed calls of the last 15 minutes, and keeps only those whatever the service answers', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const fetchSpy = stubFetch({
      'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls': () =>
        Response.json({ calls: [call('m'), call('talked', { isMissedCall: false })], totalCalls: 2, fromDate: iso(NOW - RECENT_WINDOW_MS), toDate: iso(NOW) }),
    });
    const client = new ApiClient({ baseURL: '', token: 't', remember: false });
    const scope = { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' };
    const data = await new QueryClient().fetchQuery(recentMissedCallsQueryOptions(client, scope, { enabled: true }));

    const url = new URL(String(fetchSpy.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.pathname).toBe('/v1/accounts/demo/applications/support/provider/pbx-main/calls');
    expect(url.searchParams.get('fromDate')).toBe(iso(NOW - RECENT_WINDOW_MS));
    expect(url.searchParams.get('isMissedCall')).toBe('true');
    expect(data.calls.map((c) => c.callID)).toEqual(['m']);
  });
});
