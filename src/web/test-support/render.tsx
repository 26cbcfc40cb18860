/**
 * Renders a component or a hook as the app would: a query client with test defaults, the
 * connection (a stored token unless told otherwise, or a signed-in person's session) and its API
 * client, polling, the announcer, and the router at a given address. Answer its requests with `stubFetch`.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, renderHook } from '@testing-library/react';
import { useEffect, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { AnnouncerProvider } from '../lib/announcer.js';
import { ApiProvider } from '../lib/api/api-context.js';
import { ConnectionProvider, useConnection } from '../lib/connection-context.js';
import { sessionKeys, type SignedInSession } from '../lib/api/auth-session.js';
import { forgetConnection, saveConnection, type Connection, type SessionConnection, type TokenConnection } from '../lib/connection.js';
import { PollingProvider } from '../lib/polling-context.js';

export const TEST_CONNECTION: TokenConnection = { kind: 'token', baseURL: '', token: 't', remember: false };

/** A signed-in person's session, for `connection`; override the roles (and the rest) the test is about. */
export const testSession = (overrides: Partial<Omit<SessionConnection, 'kind' | 'baseURL'>> = {}): SessionConnection => ({
  kind: 'session',
  baseURL: '',
  csrfToken: 'csrf-test',
  person: { subject: 'sub-ada', email: 'ada@example.com', name: 'Ada Lovelace' },
  roles: ['supervisor'],
  ...overrides,
});

/** What `GET /auth/session` answers for the session. */
export const signedInAnswer = (session: SessionConnection): SignedInSession => ({
  signedIn: true,
  person: session.person,
  roles: session.roles,
  csrfToken: session.csrfToken,
  expiresAt: new Date(Date.now() + 8 * 3_600_000).toISOString(),
  idleTimeoutSeconds: 1800,
});

export interface AppOptions {
  /** The address the router starts at; `/` by default. */
  url?: string;
  /**
   * The connection when the app starts: a token's is stored, a session's is the service's answer to
   * `GET /auth/session` already in; `null` for a browser with neither (its start-up asks `/auth/session`: stub it).
   */
  connection?: Connection | null;
}

/** What the connection gate does: the API client for the connection, when there is one. */
const SignedIn = ({ children }: { children: ReactNode }) => {
  const { connection } = useConnection();
  return connection ? <ApiProvider connection={connection}>{children}</ApiProvider> : children;
};

const LocationProbe = ({ onLocation }: { onLocation: (location: Location) => void }) => {
  const location = useLocation();
  useEffect(() => onLocation(location), [location, onLocation]);
  return null;
};

/** The providers around a test's subject, and where the router is now. */
const appWrapper = ({ url = '/', connection = TEST_CONNECTION }: AppOptions = {}) => {
  if (connection?.kind === 'token') saveConnection(connection);
  else forgetConnection();
  // No retries unless a query asks for its own: a failure shows at once.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (connection?.kind === 'session') queryClient.setQueryData(sessionKeys.all, signedInAnswer(connection));
  let current = { pathname: '', search: '' };
  const onLocation = ({ pathname, search }: Location) => {
    current = { pathname, search };
  };
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <ConnectionProvider>
        <PollingProvider>
          <AnnouncerProvider>
            <MemoryRouter initialEntries={[url]}>
              <SignedIn>{children}</SignedIn>
              <LocationProbe onLocation={onLocation} />
            </MemoryRouter>
          </AnnouncerProvider>
        </PollingProvider>
      </ConnectionProvider>
    </QueryClientProvider>
  );
  return { Wrapper, location: () => current };
};

/** `render` inside the app's providers; `rerender` keeps them (and the router's address). */
export const renderWithApp = (ui: ReactElement, options: AppOptions = {}) => {
  const { Wrapper, location } = appWrapper(options);
  return { ...render(ui, { wrapper: Wrapper }), location };
};

/** `renderHook` inside the app's providers. */
export const renderHookWithApp = <Result,>(hook: () => Result, options: AppOptions = {}) =>
  renderHook(hook, { wrapper: appWrapper(options).Wrapper });
