import { cleanup, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_ENDED_REASON, useConnection } from '../../lib/connection-context.js';
import { stubFetch } from '../../test-support/fetch-stub.js';
import { renderWithApp, signedInAnswer, testSession } from '../../test-support/render.js';
import { SignInPage } from './sign-in-page.js';

const OFFERED = { signedIn: false, signIn: { label: 'Sign in with Okta' } };

const Landing = ({ name }: { name: string }) => <p>{name}</p>;

/** Ends the session as a 401 would, from outside the page. */
const SessionEnder = () => {
  const { signOut } = useConnection();
  return <button onClick={() => signOut(SESSION_ENDED_REASON)}>End the session</button>;
};

const renderSignIn = (url: string, options: Parameters<typeof renderWithApp>[1] = { connection: null }) =>
  renderWithApp(
    <>
      <SessionEnder />
      <Routes>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/connect" element={<Landing name="Connection page" />} />
        <Route path="/desk" element={<Landing name="My desk" />} />
        <Route path="/reports" element={<Landing name="Reports" />} />
      </Routes>
    </>,
    { url, ...options },
  );

const button = () => screen.findByRole('link', { name: 'Sign in with Okta' });

beforeEach(() => {
  vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }));
});

afterEach(() => {
  // Unmounted before matchMedia goes: the page reads it while it is on screen.
  cleanup();
  vi.unstubAllGlobals();
  document.documentElement.classList.remove('dark');
});

describe('SignInPage', () => {
  it("offers the company's sign-in, which comes back to the page the person wanted, and a quiet way to use a token", async () => {
    stubFetch({ 'GET /auth/session': () => Response.json(OFFERED) });
    renderSignIn('/sign-in?returnTo=%2Freports%3Frange%3D7d');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to Callboard' })).toBeInTheDocument();
    expect(await button()).toHaveAttribute('href', '/auth/sign-in?returnTo=%2Freports%3Frange%3D7d');
    expect(screen.getByRole('link', { name: 'Use an API token instead' })).toHaveAttribute('href', '/connect');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('refuses a return address on another site: the sign-in then lands where the roles do', async () => {
    stubFetch({ 'GET /auth/session': () => Response.json(OFFERED) });
    for (const offSite of ['//evil.example/steal', 'https://evil.example/', '/\\evil.example']) {
      const view = renderSignIn(`/sign-in?returnTo=${encodeURIComponent(offSite)}`);
      expect(await button()).toHaveAttribute('href', '/auth/sign-in');
      view.unmount();
    }
  });

  it('says what went wrong and what to do, for each problem the sign-in can come back with', async () => {
    stubFetch({ 'GET /auth/session': () => Response.json(OFFERED) });
    const view = renderSignIn('/sign-in?problem=no_role');
    await button();
    expect(screen.getByRole('alert')).toHaveTextContent('Your account has no Callboard role');
    expect(screen.getByRole('alert')).toHaveTextContent('Ask your administrator to add you to a Callboard group, then sign in again.');
    view.unmount();

    const expired = renderSignIn('/sign-in?problem=expired');
    await button();
    expect(screen.getByRole('alert')).toHaveTextContent(/took too long.*started in another browser or tab/);
    expired.unmount();

    renderSignIn('/sign-in?problem=something_new');
    await button();
    expect(screen.getByRole('alert')).toHaveTextContent('The sign-in did not work');
  });

  it('says that the person signed out, or that their session ended', async () => {
    stubFetch({ 'GET /auth/session': () => Response.json(OFFERED) });
    const view = renderSignIn('/sign-in?signedOut=1');
    await button();
    expect(screen.getByText('You signed out')).toBeInTheDocument();
    view.unmount();

    renderSignIn('/sign-in?returnTo=%2Fwallboard');
    await button();
    expect(screen.queryByText(SESSION_ENDED_REASON)).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'End the session' }));
    expect(await screen.findByText('Your session ended; sign in again.')).toBeInTheDocument();
    expect(screen.getByText(/ends after a while without use/)).toBeInTheDocument();
  });

  it('keeps the dark theme of a wall screen sent here, and passes it on to the connection page', async () => {
    stubFetch({ 'GET /auth/session': () => Response.json(OFFERED) });
    renderSignIn('/sign-in?theme=dark&returnTo=%2Fwallboard');
    await button();
    expect(document.documentElement).toHaveClass('dark');
    expect(screen.getByRole('link', { name: 'Use an API token instead' })).toHaveAttribute('href', '/connect?theme=dark');
  });

  it('goes on to the connection page where the service offers no sign-in', async () => {
    stubFetch({ 'GET /auth/session': () => Response.json({ signedIn: false }) });
    renderSignIn('/sign-in');
    expect(await screen.findByText('Connection page')).toBeInTheDocument();
  });

  it("opens the page a person signed in already wanted, or their role's", async () => {
    const agent = testSession({ roles: ['agent'] });
    const view = renderSignIn('/sign-in', { connection: agent });
    expect(screen.getByText('My desk')).toBeInTheDocument();
    view.unmount();

    stubFetch({ 'GET /auth/session': () => Response.json(signedInAnswer(agent)) });
    renderSignIn('/sign-in?returnTo=%2Freports', { connection: null });
    expect(await screen.findByText('Reports')).toBeInTheDocument();
  });
});
