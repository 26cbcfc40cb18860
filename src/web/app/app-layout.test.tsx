import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../contract/session.js';
import { formatPhoneNumber } from '../lib/format.js';
import { pageLoad } from '../lib/page-load.js';
import { browserPhoneCountry, setDefaultPhoneCountry } from '../lib/phone-country.js';
import { stubFetch } from '../test-support/fetch-stub.js';
import { renderWithApp, testSession } from '../test-support/render.js';
import { AppLayout } from './app-layout.js';

/** A page as click-to-call writes its numbers: no country passed, so the default applies. */
const PlainNumber = () => {
  const { search } = useLocation();
  return (
    <>
      <p>{formatPhoneNumber('02079460958')}</p>
      <output aria-label="address">{search}</output>
    </>
  );
};

const renderLayout = (url: string, options: Parameters<typeof renderWithApp>[1] = {}) =>
  renderWithApp(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="/" element={<PlainNumber />} />
      </Route>
    </Routes>,
    { url, ...options },
  );

/** What `/v1/me` answers the header: one provider, with a browser phone when asked. */
const me = (softphone = false, subscriberIDs?: string[]) => ({
  account: { id: 'demo', name: 'Demo' },
  applications: [{ id: 'support', name: 'Support', providers: [{ id: 'pbx-main', name: 'Main PBX', type: 'kamailio', canEndCalls: false, canListen: false, softphone }] }],
  permissions: ['calls:read'],
  ...(subscriberIDs ? { subscriberIDs } : {}),
});
const ME = { 'GET /v1/me': () => Response.json(me()) };

const navLinks = () => within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link').map((link) => link.textContent);

beforeEach(() => {
  stubFetch(ME);
  vi.stubGlobal('matchMedia', () => ({
    matches: false,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});

afterEach(() => {
  // Unmounted before matchMedia goes: the layout reads it while it is on screen.
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setDefaultPhoneCountry(browserPhoneCountry());
});

describe('AppLayout', () => {
  it('puts the page in the main landmark, after the banner and the navigation', () => {
    renderLayout('/?tz=UTC');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('status', { name: 'address' }));
  });

  it('names the time zone once when its short name is its name, and both otherwise', () => {
    const utc = renderLayout('/?tz=UTC');
    expect(screen.getByText(/^Times in/)).toHaveTextContent(/^Times in UTC$/);
    utc.unmount();
    renderLayout('/?tz=Europe/Paris');
    expect(screen.getByText(/^Times in/)).toHaveTextContent(/^Times in Europe\/Paris \((CET|CEST|GMT\+1|GMT\+2)\)$/);
  });

  it('shows the default country beside the time zone, and keeps a new choice in the URL for every page', async () => {
    renderLayout('/?tz=UTC&country=US');
    const picker = screen.getByRole('combobox', { name: 'Default country' });
    expect(picker).toHaveValue('US');
    expect(picker).toHaveAccessibleDescription(/without a country code/);
    expect(screen.queryByText('020 7946 0958')).not.toBeInTheDocument();

    await userEvent.setup().selectOptions(picker, 'United Kingdom (+44)');
    expect(new URLSearchParams(screen.getByRole('status', { name: 'address' }).textContent ?? '').get('country')).toBe('GB');
    expect(screen.getByText('020 7946 0958')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Analytics' })).toHaveAttribute('href', expect.stringContaining('country=GB'));
    expect(screen.getByRole('link', { name: 'Reports' })).toHaveAttribute('href', expect.stringMatching(/^\/reports\?.*country=GB/));
  });

  it("ignores a country the phone rules do not know, and uses the browser's", () => {
    renderLayout('/?country=XX');
    expect(screen.getByRole('combobox', { name: 'Default country' })).toHaveValue(browserPhoneCountry());
  });

  it('shows a signed-in person their name and roles in words, and signs the session out at the service before leaving for where it says', async () => {
    const assign = vi.spyOn(pageLoad, 'assign').mockImplementation(() => undefined);
    const fetchSpy = stubFetch({ ...ME, 'POST /auth/sign-out': () => Response.json({ redirectTo: 'https://id.example.com/logout?client=callboard' }) });
    renderLayout('/?tz=UTC', { connection: testSession({ roles: ['agent', 'supervisor'], csrfToken: 'csrf-9' }) });
    const banner = screen.getByRole('banner');
    expect(banner).toHaveTextContent('Ada Lovelace · Supervisor and Agent');
    await userEvent.setup().click(within(banner).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://id.example.com/logout?client=callboard'));
    const [, init] = fetchSpy.mock.calls.find(([input]) => String(input).endsWith('/auth/sign-out')) ?? [];
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-9');
  });

  it('says so, and stays signed in, when the service cannot sign the session out', async () => {
    const assign = vi.spyOn(pageLoad, 'assign').mockImplementation(() => undefined);
    stubFetch({ ...ME, 'POST /auth/sign-out': () => Response.json({ code: 'internal' }, { status: 500, statusText: 'Internal Server Error' }) });
    renderLayout('/?tz=UTC', { connection: testSession() });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/Could not sign out: .*500.*You are still signed in/);
    expect(assign).not.toHaveBeenCalled();
  });

  it.each<[string, Role[], string[]]>([
    ['an agent', ['agent'], ['My desk']],
    ['a supervisor', ['supervisor'], ['Live', 'Analytics', 'Reports', 'Wallboard']],
    ['an analyst', ['analyst'], ['Analytics', 'Reports']],
    ['an administrator', ['admin'], ['Live', 'Analytics', 'Reports', 'Wallboard']],
    ['an administrator who is also an agent', ['admin', 'agent'], ['Live', 'My desk', 'Analytics', 'Reports', 'Wallboard']],
  ])('shows %s the pages their roles use', (_who, roles, pages) => {
    renderLayout('/?tz=UTC', { connection: testSession({ roles }) });
    expect(navLinks()).toEqual(pages);
  });

  it('offers the browser phone to an agent whose provider has one, turned off until they turn it on', async () => {
    stubFetch({ 'GET /v1/me': () => Response.json(me(true, ['1001'])) });
    renderLayout('/?tz=UTC', { connection: testSession({ roles: ['agent'] }) });
    const toggle = await within(screen.getByRole('banner')).findByRole('switch', { name: 'Browser phone' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
  });

  it('shows a token every page, as it always did, and signs it out here', () => {
    renderLayout('/?tz=UTC');
    expect(navLinks()).toEqual(['Live', 'Analytics', 'Reports', 'Wallboard']);
    expect(screen.getByRole('banner')).not.toHaveTextContent('Ada');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });
});
