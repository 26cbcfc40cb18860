import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { recordSample } from '../../../lib/concurrency-samples.js';
import { stubFetch, type RouteHandler } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import { CallTiles } from './call-tiles.js';

const MIN = 60_000;
const scope = (providerID: string, accountID = 'demo'): ProviderScope => ({ accountID, applicationID: 'support', providerID });

const makeCall = (now: number) => {
  const ago = (ms: number) => new Date(now - ms).toISOString();
  return (callID: string, over: Partial<CallRecord> & { startedAgo?: number; answeredAgo?: number; endedAgo?: number } = {}): CallRecord => {
    const { startedAgo = MIN, answeredAgo, endedAgo, ...rest } = over;
    return {
      callID,
      providerCallID: `sip-${callID}`,
      providerID: 'pbx-main',
      providerName: 'Main PBX',
      isOutbound: false,
      isMissedCall: false,
      remoteNumber: '15555550100',
      startedAt: ago(startedAgo),
      ...(answeredAgo === undefined ? {} : { answeredAt: ago(answeredAgo) }),
      ...(endedAgo === undefined ? {} : { endedAt: ago(endedAgo) }),
      ...rest,
    };
  };
};

const listResponse = (calls: CallRecord[]) => Response.json({ calls, totalCalls: calls.length });

/** The tiles ask the list of calls for the missed calls' window, per provider. */
const serveCalls = (answer: RouteHandler) =>
  stubFetch({ 'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls': answer });

const renderTiles = (props: { calls: CallRecord[]; scopes?: ProviderScope[]; loading?: boolean; url?: string }) =>
  renderWithApp(<CallTiles calls={props.calls} scopes={props.scopes ?? [scope('pbx-main')]} loading={props.loading ?? false} />, {
    url: props.url ?? '/?tz=UTC',
  });

const tile = (name: string | RegExp) => screen.getByRole('group', { name });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('CallTiles', () => {
  const liveCalls = (now: number) => {
    const call = makeCall(now);
    return [
      call('ringing-in', { startedAgo: 10_000 }),
      call('ringing-out', { isOutbound: true, startedAgo: 45_000 }),
      call('talking-in', { startedAgo: 100_000, answeredAgo: 90_000 }),
      call('talking-out', {
        isOutbound: true,
        startedAgo: 210_000,
        answeredAgo: 200_000,
        subscriberFirstName: 'Ana',
        subscriberLastName: 'Ruiz',
        subscriberExtension: '201',
        remoteName: 'Jane Doe',
      }),
      call('ended', { startedAgo: 500_000, answeredAgo: 490_000, endedAgo: 5_000 }),
    ];
  };

  it('counts live calls, by direction, the ringing ones and the longest call', () => {
    // One instant for the fixtures and the tiles' clock: a slow first render cannot age what they show.
    const now = Date.parse('2026-11-26T10:00:00Z');
    vi.useFakeTimers({ toFake: ['Date'], now });
    serveCalls(() => listResponse([]));
    renderTiles({ calls: liveCalls(now) });

    within(tile('Live calls now')).getByText('4');
    expect(tile('Inbound / outbound')).toHaveTextContent(/2\s*in\s*·\s*2\s*out/);
    within(tile('Ringing')).getByText('2');
    within(tile('Ringing')).getByText(/Longest ring 0:45/);
    const longest = tile('Longest live call');
    within(longest).getByText(/^3:20$/);
    expect(longest).toHaveTextContent('+1 (555) 555-0100 · outbound');
    expect(within(longest).getByText('Ana Ruiz (201) ↔ Jane Doe')).toHaveAttribute('title', 'Ana Ruiz (201) ↔ Jane Doe');
  });

  it('puts the number of the longest call on a line of its own, before the names that may be cut', () => {
    serveCalls(() => listResponse([]));
    const call = makeCall(Date.now());
    renderTiles({ calls: [call('uk', { remoteNumber: '447911123456', answeredAgo: 60_000, remoteName: 'A Rather Long Company Name Limited' })] });

    const number = within(tile('Longest live call')).getByText('+44 7911 123456');
    expect(number.closest('.truncate')).toBeNull();
    expect(within(tile('Longest live call')).getByText('No agent ↔ A Rather Long Company Name Limited')).toHaveClass('truncate');
  });

  it('reads numbers without a country code in the country of the URL', () => {
    serveCalls(() => listResponse([]));
    const call = makeCall(Date.now());
    renderTiles({ calls: [call('local', { remoteNumber: '02079460958', answeredAgo: 60_000 })], url: '/?tz=UTC&country=GB' });

    within(tile('Longest live call')).getByText('020 7946 0958');
  });

  it('names the alert threshold and raises no warning below the thresholds', () => {
    serveCalls(() => listResponse([]));
    renderTiles({ calls: liveCalls(Date.now()).filter((call) => call.callID !== 'ringing-out') });

    within(tile('Live calls now')).getByText('Alert at 20');
    expect(screen.queryByText(/⚠|alert:/i)).not.toBeInTheDocument();
  });

  it('marks every crossed threshold in words, not colour alone', () => {
    serveCalls(() => listResponse([]));
    localStorage.setItem('callboard.thresholds', JSON.stringify({ concurrentCalls: 4, longRingMs: 30_000, longCallMs: 3 * MIN }));
    renderTiles({ calls: liveCalls(Date.now()) });

    within(tile('Live calls now')).getByText('Alert: at 4');
    within(tile('Ringing')).getByText('1 ringing over 30 s');
    within(tile('Longest live call')).getByText('Over 3 min');
  });

  it('says "over" once the live calls pass the alert threshold', () => {
    serveCalls(() => listResponse([]));
    localStorage.setItem('callboard.thresholds', JSON.stringify({ concurrentCalls: 3 }));
    renderTiles({ calls: liveCalls(Date.now()) });

    within(tile('Live calls now')).getByText('Alert: over 3');
  });

  it('shows counts as unknown, not zero, until the first poll answers', () => {
    serveCalls(() => listResponse([]));
    renderTiles({ calls: [], loading: true });

    within(tile('Live calls now')).getByText('—');
    within(tile('Ringing')).getByText('—');
    expect(tile('Live calls now')).toHaveAttribute('aria-busy', 'true');
  });

  it('holds the box of the details and of a warning until they come, with nothing in it for a reader', () => {
    // The classes that size a line: what the placeholder shares with the detail it stands for.
    const box = (element: Element | null) => [...(element?.classList ?? [])].filter((name) => /^(min-h-|leading-|text-(sm|\[))/.test(name)).sort();
    serveCalls(() => listResponse([]));
    const { unmount } = renderTiles({ calls: [], loading: true });
    const held = tile('Live calls now').querySelector('[data-placeholder="detail"]');
    const warning = tile('Live calls now').querySelector('[data-placeholder="warning"]');
    expect(held).toHaveAttribute('aria-hidden', 'true');
    expect(warning).toHaveAttribute('aria-hidden', 'true');
    expect(warning).toHaveClass('invisible');
    expect(tile('Live calls now')).not.toHaveTextContent(/alert:/i);
    const heldBox = box(held);
    unmount();

    renderTiles({ calls: liveCalls(Date.now()) });
    expect(heldBox).toContain('min-h-[2.5rem]');
    expect(box(within(tile('Live calls now')).getByText('Alert at 20'))).toEqual(heldBox);
  });

  it('holds room for the ringing warning of as many calls as ring, however many digits', () => {
    serveCalls(() => listResponse([]));
    const now = Date.now();
    const call = makeCall(now);
    const held = () => tile('Ringing').querySelector('[data-placeholder="warning"] [data-words]')?.getAttribute('data-words');
    const { unmount } = renderTiles({ calls: [call('r1', { startedAgo: 5_000 })] });
    expect(held()).toBe('8 ringing over 30 s');
    unmount();

    renderTiles({ calls: Array.from({ length: 12 }, (_, i) => call(`r${i}`, { startedAgo: 5_000 })) });
    expect(held()).toBe('88 ringing over 30 s');
  });

  it('counts missed calls of the last 15 minutes from every provider and the live list, each once', async () => {
    const now = Date.now();
    const call = makeCall(now);
    const missed = (id: string, endedAgo: number) => call(id, { isMissedCall: true, startedAgo: endedAgo + 20_000, endedAgo });
    const fetchSpy = serveCalls(({ params }) =>
      params.providerID === 'pbx-main'
        ? listResponse([missed('m1', 2 * MIN), missed('m-old', 16 * MIN), call('answered', { answeredAgo: 30_000 })])
        : listResponse([missed('m1', 2 * MIN), missed('m3', 5 * MIN)]),
    );
    renderTiles({ calls: [missed('m3', 5 * MIN), missed('m4', 10_000)], scopes: [scope('pbx-main'), scope('sip-trunk')] });

    const missedTile = tile('Missed, last 15 min');
    await within(missedTile).findByText('3');
    const asked = fetchSpy.mock.calls.map(([input]) => new URL(String(input), 'http://localhost'));
    expect(asked.map((url) => url.pathname.split('/')[7]).sort()).toEqual(['pbx-main', 'sip-trunk']);
    for (const url of asked) expect(Math.abs(Date.parse(url.searchParams.get('fromDate') ?? '') - (now - 15 * MIN))).toBeLessThan(5_000);
  });

  it('reads the windows again once a missed call shows in the live feed, so it stays counted when it leaves the live list', async () => {
    const now = Date.now();
    const missed = makeCall(now)('m1', { isMissedCall: true, startedAgo: 20_000, endedAgo: 1_000 });
    let journaled: CallRecord[] = [];
    const fetchSpy = serveCalls(() => listResponse(journaled));
    const { rerender } = renderTiles({ calls: [] });
    await within(tile('Missed, last 15 min')).findByText('0');

    rerender(<CallTiles calls={[missed]} scopes={[scope('pbx-main')]} loading={false} />);
    within(tile('Missed, last 15 min')).getByText('1');
    journaled = [missed];
    await vi.waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(2), { timeout: 5_000 });
    // Gone from the live list keepEndedMs later: the window holds it now.
    rerender(<CallTiles calls={[]} scopes={[scope('pbx-main')]} loading={false} />);
    await within(tile('Missed, last 15 min')).findByText('1');
  });

  it('says so when the missed calls cannot be read', async () => {
    serveCalls(() =>
      Response.json({ type: 'about:blank', title: 'Unavailable', status: 503, code: 'provider_unavailable', detail: 'down' }, { status: 503 }),
    );
    renderTiles({ calls: [] });

    await within(tile('Missed, last 15 min')).findByText('Not available right now');
    within(tile('Missed, last 15 min')).getByText('—');
  });

  it('labels today\'s peak with the time its record begins', () => {
    const now = Date.parse('2026-11-22T14:30:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now });
    serveCalls(() => listResponse([]));
    const key = 'peak-account/support/pbx-main';
    recordSample(key, { at: Date.parse('2026-11-22T08:03:00.000Z'), inbound: 5, outbound: 2 }, now);
    recordSample(key, { at: Date.parse('2026-11-22T14:05:00.000Z'), inbound: 15, outbound: 8 }, now);
    recordSample(key, { at: Date.parse('2026-11-22T14:29:58.000Z'), inbound: 3, outbound: 1 }, now);
    renderTiles({ calls: [], scopes: [scope('pbx-main', 'peak-account')] });

    const peak = tile('Peak today (since 08:03)');
    within(peak).getByText('23');
    within(peak).getByText('at 14:05');
  });
});
