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

/** The answers to list requests so far (this stubbed service has no change stream, so the feed polls). */
const listAnswers = (fetchSpy: ReturnType<typeof stubFetch>) =>
  fetchSpy.mock.calls.flatMap((call, i) =>
    String(call[0]).includes('/calls/stream') ? [] : [fetchSpy.mock.results[i]?.value as Promise<Response>],
  );

const pollAgain = async (
  result: { current: ReturnType<typeof useCallsFeed> },
  fetchSpy: ReturnType<typeof stubFetch>,
  requests: number,
) => {
  act(() => result.current.refetch());
  await waitFor(() => expect(listAnswers(fetchSpy)).toHaveLength(requests));
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
    const answers = await Promise.all(listAnswers(fetchSpy).slice(2));
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

describe('useCallsFeed on the change stream', () => {
  /** A service that streams: a snapshot per provider, then what `push` sends; the list is never polled. */
  const serveStream = () => {
    let send: (text: string) => void = () => undefined;
    const fetchSpy = stubFetch({
      'GET /v1/accounts/:accountID/applications/:applicationID/calls/stream': ({ url }) => {
        const providers = (url.searchParams.get('providers') ?? '').split(',');
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            send = (text) => controller.enqueue(new TextEncoder().encode(text));
            for (const providerID of providers) {
              const calls = [callRecord(`${providerID}-1`, { providerID, startedAt: at(providerID === 'pbx-main' ? 9 : 5) })];
              send(
                `event: snapshot\nid: s-${providerID}\ndata: ${JSON.stringify({ providerID, cursor: 's', calls, snapshotAgeMs: 0 })}\n\n`,
              );
            }
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      },
    });
    return {
      fetchSpy,
      push: (name: string, data: unknown) => act(() => send(`event: ${name}\nid: x\ndata: ${JSON.stringify(data)}\n\n`)),
    };
  };

  it('fills each provider from its snapshot, patches only what changed, and never polls the list', async () => {
    const { fetchSpy, push } = serveStream();
    const { result } = renderHookWithApp(() => useCallsFeed(scopes, { intervalMs: 100 }));
    await waitFor(() => expect(result.current.calls.map((c) => c.callID)).toEqual(['pbx-main-1', 'sip-trunk-1']));
    expect(result.current.mode).toBe('streaming');
    const kept = result.current.calls[1];

    push('changes', {
      providerID: 'pbx-main',
      cursor: 'c2',
      upserted: [callRecord('pbx-main-2', { startedAt: at(1) })],
      removed: ['pbx-main-1'],
    });
    await waitFor(() => expect(result.current.calls.map((c) => c.callID)).toEqual(['sip-trunk-1', 'pbx-main-2']));
    expect(result.current.calls[0]).toBe(kept);
    expect(listAnswers(fetchSpy)).toHaveLength(0);
    // One stream for both providers.
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('shows a provider the service says is unavailable as unhealthy, with the problem', async () => {
    const { push } = serveStream();
    const { result } = renderHookWithApp(() => useCallsFeed(scopes));
    await waitFor(() => expect(result.current.mode).toBe('streaming'));
    const problem = {
      type: 'about:blank',
      title: 'Unavailable',
      status: 503,
      detail: 'The phone system does not answer.',
      code: 'provider_unavailable',
    };
    push('status', { providerID: 'sip-trunk', available: false, snapshotAgeMs: 31_000, problem });
    await waitFor(() => expect(result.current.unhealthy?.available).toBe(false));
    expect(result.current.unhealthy?.problem?.code).toBe('provider_unavailable');
  });
});
