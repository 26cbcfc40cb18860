import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../contract/call-record.js';
import type { ProviderScope } from '../../../contract/paths.js';
import { callRecord } from '../../test-support/call-record.js';
import { stubFetch } from '../../test-support/fetch-stub.js';
import { renderHookWithApp } from '../../test-support/render.js';
import { useCallsFeed } from './use-calls-feed.js';

const scopes: ProviderScope[] = [
  { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' },
  { accountID: 'demo', applicationID: 'support', providerID: 'sip-trunk' },
];

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

/**
 * The providers as the service serves them: each list with its ETag, a 304 when the browser's
 * copy is current. `lists` is read at every request: a test puts a provider's new list there
 * (a new ETag, even when it holds the same calls).
 */
const serveProviders = (lists: Partial<Record<string, CallRecord[]>>) => {
  const etags = new Map<CallRecord[], string>();
  return stubFetch({
    'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls': ({ params, init }) => {
      const calls = lists[params.providerID ?? ''] ?? [];
      const etag = etags.get(calls) ?? `"v${etags.size + 1}"`;
      etags.set(calls, etag);
      if (new Headers(init?.headers).get('if-none-match') === etag) return new Response(null, { status: 304, headers: { etag } });
      return Response.json({ calls, totalCalls: calls.length }, { headers: { etag } });
    },
  });
};

const pollAgain = async (
  result: { current: ReturnType<typeof useCallsFeed> },
  fetchSpy: ReturnType<typeof stubFetch>,
  requests: number,
) => {
  act(() => result.current.refetch());
  await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(requests));
  await waitFor(() => expect(result.current.isFetching).toBe(false));
};

describe('useCallsFeed', () => {
  it('merges the providers oldest start first, and keeps the same array while a poll changes nothing', async () => {
    const lists = {
      'pbx-main': [callRecord('a', { startedAt: at(9) }), callRecord('c', { startedAt: at(3) })],
      'sip-trunk': [callRecord('b', { providerID: 'sip-trunk', startedAt: at(5) })],
    };
    const fetchSpy = serveProviders(lists);
    const { result } = renderHookWithApp(() => useCallsFeed(scopes, { intervalMs: 60_000 }));
    await waitFor(() => expect(result.current.calls.map((c) => c.callID)).toEqual(['a', 'b', 'c']));
    const first = result.current.calls;

    // One provider answers 304, the other the same calls under a new ETag: nothing changed on screen.
    lists['sip-trunk'] = lists['sip-trunk'].map((call) => ({ ...call }));
    await pollAgain(result, fetchSpy, 4);
    const answers = await Promise.all(fetchSpy.mock.results.slice(2).map((r) => r.value as Promise<Response>));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 304]);
    expect(result.current.status).toBe('ready');
    expect(result.current.calls).toBe(first);
  });

  it('hands out a new array when a call changed, keeping the objects of the calls that did not', async () => {
    const lists = {
      'pbx-main': [callRecord('a', { startedAt: at(9) })],
      'sip-trunk': [callRecord('b', { providerID: 'sip-trunk', startedAt: at(5) })],
    };
    const fetchSpy = serveProviders(lists);
    const { result } = renderHookWithApp(() => useCallsFeed(scopes, { intervalMs: 60_000 }));
    await waitFor(() => expect(result.current.calls).toHaveLength(2));
    const [a, b] = result.current.calls;

    lists['sip-trunk'] = [{ ...lists['sip-trunk'][0]!, answeredAt: at(4) }];
    await pollAgain(result, fetchSpy, 4);
    expect(result.current.calls[0]).toBe(a);
    expect(result.current.calls[1]).not.toBe(b);
    expect(result.current.calls[1]?.answeredAt).toBe(lists['sip-trunk'][0]?.answeredAt);
  });
});
