import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useEffect } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../../contract/call-record.js';
import { usePolling } from '../../lib/polling-context.js';
import { WallboardPage } from './wallboard-page.js';
import { figures, serviceLevelsAnswer } from '../../test-support/service-levels.js';
import { callRecord } from '../../test-support/call-record.js';
import { stubFetch } from '../../test-support/fetch-stub.js';
import { renderWithApp } from '../../test-support/render.js';

vi.mock('../../features/concurrency/components/concurrency-area-chart.js', () => ({ ConcurrencyAreaChart: () => null }));

const me = {
  account: { id: 'demo', name: 'Demo' },
  applications: [{ id: 'support', name: 'Support desk', providers: [{ id: 'pbx-main', name: 'Main PBX', type: 'simulator', canEndCalls: true, canListen: false, softphone: false }] }],
  permissions: ['calls:read'],
};

const NOW = Date.now();
const call = (callID: string, over: Partial<CallRecord> = {}): CallRecord => callRecord(callID, { startedAt: new Date(NOW - 60_000).toISOString(), ...over });

const liveCalls = [call('a', { answeredAt: new Date(NOW).toISOString() }), call('b', { isOutbound: true }), call('c', { endedAt: new Date(NOW).toISOString() })];

/** `/v1/me`, and the list of calls: `calls` answers the live poll, the missed calls' window is empty. */
const serve = (calls: () => Response) =>
  stubFetch({
    'GET /v1/me': () => Response.json(me),
    'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls': ({ url }) =>
      url.searchParams.has('fromDate') ? Response.json({ calls: [], totalCalls: 0 }) : calls(),
    'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/service-levels': ({ url }) =>
      Response.json(serviceLevelsAnswer(url, figures({ offered: 10, answered: 8, answeredWithin: 6, abandoned: 2, serviceLevel: 0.6, abandonRate: 0.2, averageAnswerSeconds: 14 }))),
  });

const PausedProbe = ({ pauseFirst }: { pauseFirst: boolean }) => {
  const { paused, setPaused } = usePolling();
  useEffect(() => {
    if (pauseFirst) setPaused(true);
  }, [pauseFirst, setPaused]);
  return <output aria-label="polling">{paused ? 'paused' : 'polling'}</output>;
};

const renderWallboard = (url: string, { pauseFirst = false } = {}) =>
  renderWithApp(
    <>
      <PausedProbe pauseFirst={pauseFirst} />
      <Routes>
        <Route path="/wallboard" element={<WallboardPage />} />
        <Route path="/" element={<p>The live view</p>} />
      </Routes>
    </>,
    { url },
  );

beforeEach(() => {
  // jsdom has no media queries; the system prefers light here, so "dark" can only come from the wallboard.
  vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }));
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  document.documentElement.classList.remove('dark');
  document.title = '';
});

describe('WallboardPage', () => {
  it('shows the live count in the tab title, with huge tiles and its freshness', async () => {
    serve(() => Response.json({ calls: liveCalls, totalCalls: liveCalls.length }));
    renderWallboard('/wallboard?tz=UTC');

    await waitFor(() => expect(document.title).toMatch(/\(2\) Live calls · Callboard$/));
    expect(screen.getByRole('heading', { level: 1, name: 'Live calls' })).toBeInTheDocument();
    expect(screen.getByText('Support desk · Main PBX')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Live calls now' })).getByText('2')).toBeInTheDocument();
    expect(screen.getByText(/^Live · updated \d+ s ago$/)).toBeInTheDocument();
    // Service level and who waits come first: what a room reads from across it.
    const tiles = within(screen.getByRole('region', { name: 'Call statistics' })).getAllByRole('group');
    expect(tiles.map((tile) => tile.querySelector('h3')?.textContent)).toEqual([
      'Service level',
      'Waiting now',
      'Speed of answer',
      'Abandon rate',
      'Live calls now',
      'Inbound / outbound',
      'Missed, last 15 min',
      'Longest live call',
    ]);
    await waitFor(() => expect(within(screen.getByRole('group', { name: 'Service level' })).getByText('60 %')).toBeInTheDocument());
    expect(screen.getByRole('group', { name: 'Service level' }).querySelector('svg[data-level="critical"]')).not.toBeNull();
    // Service level 60 % is below the default critical level: the wall says so, and so does the tab.
    const alerts = await screen.findByRole('region', { name: 'Alerts' });
    expect(within(alerts).getByText('Service level 60 %', { selector: 'strong' })).toBeInTheDocument();
    expect(document.title).toBe('‼ Service level 60 % · (2) Live calls · Callboard');
  });

  it('asks for the change stream before the figures ask for theirs: it brings the first data on screen', async () => {
    const requests = serve(() => Response.json({ calls: liveCalls, totalCalls: liveCalls.length }));
    renderWallboard('/wallboard?tz=UTC');

    await waitFor(() => expect(document.title).toMatch(/\(2\) Live calls · Callboard$/));
    const paths = requests.mock.calls.map(([input]) => new URL(String(input), window.location.href).pathname).filter((path) => path !== '/v1/me');
    expect(paths[0]).toBe('/v1/accounts/demo/applications/support/calls/stream');
    expect(paths.filter((path) => path.endsWith('/service-levels')).length).toBeGreaterThan(0);
  });

  it('alerts on the rules its link sets, and an acknowledged alert leaves the wall and the title', async () => {
    serve(() => Response.json({ calls: liveCalls, totalCalls: liveCalls.length }));
    const user = userEvent.setup();
    renderWallboard('/wallboard?tz=UTC&alerts=live:1:5&slwarn=1&slcrit=0');

    const alerts = await screen.findByRole('region', { name: 'Alerts' });
    await waitFor(() => expect(within(alerts).getByText('2 live calls', { selector: 'strong' })).toBeInTheDocument());
    expect(within(alerts).getByText(/1 or more/)).toBeInTheDocument();
    expect(within(alerts).getByText('Warning')).toBeInTheDocument();
    expect(document.title).toBe('⚠ 2 live calls · (2) Live calls · Callboard');

    await user.click(within(alerts).getByRole('button', { name: 'Acknowledge 2 live calls' }));
    expect(screen.queryByRole('region', { name: 'Alerts' })).not.toBeInTheDocument();
    expect(document.title).toBe('(2) Live calls · Callboard');
  });

  it('is dark unless the URL asks for light, and scales the page from the URL', async () => {
    serve(() => Response.json({ calls: [], totalCalls: 0 }));
    const root = document.documentElement;
    const dark = renderWallboard('/wallboard');
    await screen.findByRole('heading', { level: 1, name: 'Live calls' });
    expect(root).toHaveClass('dark');
    expect(root).toHaveClass('wallboard');
    expect(root.style.getPropertyValue('--wall-scale')).toBe('1');
    dark.unmount();
    expect(root).not.toHaveClass('wallboard');
    expect(root.style.getPropertyValue('--wall-scale')).toBe('');

    renderWallboard('/wallboard?theme=light&scale=1.5');
    await screen.findByRole('heading', { level: 1, name: 'Live calls' });
    expect(root).not.toHaveClass('dark');
    expect(root.style.getPropertyValue('--wall-scale')).toBe('1.5');
  });

  it.each([
    ['9', '2'],
    ['0.1', '0.75'],
    ['big', '1'],
  ])('keeps scale=%s within bounds (%s)', async (scale, applied) => {
    serve(() => Response.json({ calls: [], totalCalls: 0 }));
    renderWallboard(`/wallboard?scale=${scale}`);
    await screen.findByRole('heading', { level: 1, name: 'Live calls' });
    expect(document.documentElement.style.getPropertyValue('--wall-scale')).toBe(applied);
  });

  it('says NOT LIVE, in large words, when the calls cannot be read', async () => {
    serve(() => Response.json({ type: 'about:blank', title: 'Unavailable', status: 503, code: 'provider_unavailable', detail: 'The phone system cannot be reached.' }, { status: 503 }));
    renderWallboard('/wallboard');

    expect(await screen.findByText('NOT LIVE — no data yet')).toBeInTheDocument();
    expect(screen.getByText(/The phone system cannot be reached \(provider_unavailable\)\. Reconnecting automatically\./)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('NOT LIVE · Live calls · Callboard'));
  });

  it('links back to the live view with the same workspace, without the wallboard options', async () => {
    serve(() => Response.json({ calls: [], totalCalls: 0 }));
    renderWallboard('/wallboard?provider=pbx-main&theme=light&scale=1.25&tz=UTC&range=60');
    expect(await screen.findByRole('link', { name: 'Back to the live view' })).toHaveAttribute('href', '/?provider=pbx-main&tz=UTC&range=60');
  });

  it('resumes polling that was paused in the live view', async () => {
    serve(() => Response.json({ calls: [], totalCalls: 0 }));
    renderWallboard('/wallboard', { pauseFirst: true });
    await waitFor(() => expect(screen.getByRole('status', { name: 'polling' })).toHaveTextContent('polling'));
  });
});
