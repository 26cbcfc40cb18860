import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../contract/session.js';
import type { Connection } from '../lib/connection.js';
import { renderWithApp, testSession, TEST_CONNECTION } from '../test-support/render.js';
import { RoleLanding } from './role-landing.js';

const renderHome = (connection: Connection) =>
  renderWithApp(
    <Routes>
      <Route element={<RoleLanding />}>
        <Route index element={<p>Live view</p>} />
      </Route>
      <Route path="/desk" element={<p>My desk</p>} />
      <Route path="/reports" element={<p>Reports</p>} />
    </Routes>,
    { url: '/?tz=UTC', connection },
  );

describe('RoleLanding', () => {
  it.each<[string, Role[], string, string]>([
    ['an agent', ['agent'], 'My desk', '/desk'],
    ['an analyst', ['analyst'], 'Reports', '/reports'],
    ['an analyst who is also an agent', ['agent', 'analyst'], 'Reports', '/reports'],
    ['a supervisor', ['supervisor'], 'Live view', '/'],
    ['an administrator who is also an agent', ['admin', 'agent'], 'Live view', '/'],
  ])('opens %s at the page their roles begin with, keeping the address’s settings', (_who, roles, page, pathname) => {
    const { location } = renderHome(testSession({ roles }));
    expect(screen.getByText(page)).toBeInTheDocument();
    expect(location()).toEqual({ pathname, search: '?tz=UTC' });
  });

  it('keeps a token on the live view', () => {
    renderHome(TEST_CONNECTION);
    expect(screen.getByText('Live view')).toBeInTheDocument();
  });
});
