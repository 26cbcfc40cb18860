import { act, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useApi } from '../lib/api/api-context.js';
import { useConnection } from '../lib/connection-context.js';
import { renderWithApp } from '../test-support/render.js';
import { RequireConnection } from './require-connection.js';

const Page = () => {
  const { signOut } = useConnection();
  return (
    <>
      <p>Calls from {useApi().baseURL}</p>
      <button onClick={() => signOut()}>Sign out</button>
    </>
  );
};

const ConnectPage = () => {
  const { state } = useLocation();
  return <p>Connect, then back to {(state as { from?: string } | null)?.from}</p>;
};

const renderGate = (url: string, options: Parameters<typeof renderWithApp>[1] = {}) =>
  renderWithApp(
    <Routes>
      <Route path="/connect" element={<ConnectPage />} />
      <Route element={<RequireConnection />}>
        <Route path="/" element={<Page />} />
        <Route path="/wallboard" element={<Page />} />
      </Route>
    </Routes>,
    { url, ...options },
  );

describe('RequireConnection', () => {
  it('sends a signed-out browser to the connection page, dark for a wall screen, and back afterwards', () => {
    const { location } = renderGate('/wallboard?scale=1.5', { connection: null });
    expect(screen.getByText('Connect, then back to /wallboard?scale=1.5')).toBeInTheDocument();
    expect(location()).toEqual({ pathname: '/connect', search: '?theme=dark' });
  });

  it('leaves the pages as soon as the user signs out', async () => {
    const { location } = renderGate('/?tz=UTC');
    await act(() => userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' })));
    expect(screen.getByText('Connect, then back to /?tz=UTC')).toBeInTheDocument();
    expect(location()).toEqual({ pathname: '/connect', search: '' });
  });
});
