/**
 * Renders a component or a hook as the app would: a query client with test defaults, the stored
 * connection (signed in unless told otherwise) and its API client, polling, the announcer, and
 * the router at a given address. Answer its requests with `stubFetch`.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, renderHook } from '@testing-library/react';
import { useEffect, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { AnnouncerProvider } from '../lib/announcer.js';
import { ApiProvider } from '../lib/api/api-context.js';
import { ConnectionProvider, useConnection } from '../lib/connection-context.js';
import { forgetConnection, saveConnection, type Connection } from '../lib/connection.js';
import { PollingProvider } from '../lib/polling-context.js';

export const TEST_CONNECTION: Connection = { baseURL: '', token: 't', remember: false };

export interface AppOptions {
  /** The address the router starts at; `/` by default. */
  url?: string;
  /** The connection stored when the app starts; `null` for a browser that is signed out. */
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
  if (connection) saveConnection(connection);
  else forgetConnection();
  // No retries unless a query asks for its own: a failure shows at once.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
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
