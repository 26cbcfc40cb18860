import { useQuery } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useApi } from '../lib/api/api-context.js';
import { useConnection } from '../lib/connection-context.js';
import { stubFetch } from '../test-support/fetch-stub.js';
import { renderWithApp, signedInAnswer, testSession } from '../test-support/render.js';
import { RequireConnection } from './require-connection.js';
import { SignInPage } from './routes/sign-in-page.js';
import { useRefusedToken } from './use-refused-token.js';

const Page = () => {
  const { signOut } = useConnection();
  const client = useApi();
  return (
    <>
      <p>
        Calls from {client.baseURL || 'this site'} with a {client.connection.kind}
      </p>
      <button onClick={() => signOut()}>Sign out</button>
    </>
  );
};

/** A page that polls the service, and signs a refused token out, as the live pages do. */
const PollingPage = () => {
  const client = useApi();
  const calls = useQuery({ queryKey: ['calls'], queryFn: ({ signal }) => client.get('/v1/calls', z.object({}), signal) });
  useRefusedToken(calls.error ?? undefined);
  return <p>{calls.isError ? 'Failed' : 'Polling'}</p>;
};

const ConnectPage = () => {
  const { state } = useLocation();
  return <p>Connect, then back to {(state as { from?: string } | null)?.from}</p>;
};

const renderGate = (url: string, options: Parameters<typeof renderWithApp>[1] = {}) =>
  renderWithApp(
    <Routes>
      <Route path="/connect" element={<ConnectPage />} />
      <Route path="/sign-in" element={<SignInPage />} />
      <Route element={<RequireConnection />}>
        <Route path="/" element={<Page />} />
        <Route path="/wallboard" element={<PollingPage />} />
      </Route>
    </Routes>,
    { url, ...options },
  );

const unauthorized = () =>
  Response.json(
    { type: 'urn:callboard:problem:unauthorized', title: 'Unauthorized', status: 401, code: 'unauthorized', detail: 'The session ended.' },
    { status: 401, headers: { 'content-type': 'application/problem+json' } },
  );

beforeEach(() => {
  vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }));
});

afterEach(() => {
  // Unmounted before matchMedia goes: the pages read it while they are on screen.
  cleanup();
  vi.unstubAllGlobals();
  document.documentElement.classList.remove('dark');
});

describe('RequireConnection', () => {
  it('sends a browser neither signed in nor offered a sign-in to the connection page, dark for a wall screen, and back afterwards', async () => {
    stubFetch({ 'GET /auth/session': () => Response.json({ signedIn: false }) });
    const { location } = renderGate('/wallboard?scale=1.5', { connection: null });
    expect(await screen.findByText('Connect, then back to /wallboard?scale=1.5')).toBeInTheDocument();
    await waitFor(() => expect(location()).toEqual({ pathname: '/connect', search: '?theme=dark' }));
  });

  it('sends a browser that may sign in to the sign-in page, which leads back to the page it wanted, dark for a wall screen', async () => {
    stubFetch({ 'GET /auth/session': () => Response.json({ signedIn: false, signIn: { label: 'Sign in with Okta' } }) });
    const { location } = renderGate('/wallboard?scale=1.5', { connection: null });
    expect(screen.getByText('Checking your sign-in…')).toBeInTheDocument();
    const button = await screen.findByRole('link', { name: 'Sign in with Okta' });
    expect(button).toHaveAttribute('href', `/auth/sign-in?returnTo=${encodeURIComponent('/wallboard?scale=1.5')}`);
    await waitFor(() => expect(location().pathname).toBe('/sign-in'));
    expect(new URLSearchParams(location().search).get('theme')).toBe('dark');
    expect(document.documentElement).toHaveClass('dark');
  });

  it('opens the page for a browser signed in, with no token: nothing of the session is stored', async () => {
    const session = testSession();
    const fetchSpy = stubFetch({ 'GET /auth/session': () => Response.json(signedInAnswer(session)) });
    renderGate('/', { connection: null });
    expect(await screen.findByText('Calls from this site with a session')).toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.length).toBe(0);
  });

  it('keeps a stored token without asking for a session', () => {
    const fetchSpy = stubFetch({});
    renderGate('/');
    expect(screen.getByText('Calls from this site with a token')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('leaves the pages as soon as the user signs out', async () => {
    const { location } = renderGate('/?tz=UTC');
    await act(() => userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' })));
    expect(screen.getByText('Connect, then back to /?tz=UTC')).toBeInTheDocument();
    expect(location()).toEqual({ pathname: '/connect', search: '' });
  });

  it("takes a wall screen whose session ended (its first 401) to the sign-in, dark, saying so, and back to the wall afterwards", async () => {
    stubFetch({
      'GET /v1/calls': unauthorized,
      'GET /auth/session': () => Response.json({ signedIn: false, signIn: { label: 'Sign in with Okta' } }),
    });
    const { location } = renderGate('/wallboard?agents=1', { connection: testSession() });
    expect(await screen.findByText('Your session ended; sign in again.')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/sign-in'));
    expect(new URLSearchParams(location().search).get('theme')).toBe('dark');
    expect(screen.getByRole('link', { name: 'Sign in with Okta' })).toHaveAttribute(
      'href',
      `/auth/sign-in?returnTo=${encodeURIComponent('/wallboard?agents=1')}`,
    );
    expect(document.documentElement).toHaveClass('dark');
  });

  it("signs a refused token out to the connection page, as it always did, not to the sign-in", async () => {
    stubFetch({ 'GET /v1/calls': unauthorized });
    const { location } = renderGate('/wallboard');
    expect(await screen.findByText('Connect, then back to /wallboard')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/connect'));
  });
});
