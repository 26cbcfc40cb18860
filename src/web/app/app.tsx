/** The app: providers around the router. */
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { AnnouncerProvider } from '../lib/announcer.js';
import { ApiClient } from '../lib/api/api-client.js';
import { meQueryOptions } from '../lib/api/me-query.js';
import { ConnectionProvider, useConnection } from '../lib/connection-context.js';
import { PollingProvider } from '../lib/polling-context.js';
import { router } from './router.js';

/**
 * Asks what the token may see (`/v1/me`) while the page's own code is still on its way: every page
 * behind the connection needs it before its first data, and asked by the page it would wait for
 * that code, then for the page's first render.
 */
const EarlyWorkspace = () => {
  const { connection } = useConnection();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (connection) void queryClient.prefetchQuery(meQueryOptions(new ApiClient(connection)));
  }, [connection, queryClient]);
  return null;
};

export const App = () => {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: true, throwOnError: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ConnectionProvider>
        <EarlyWorkspace />
        <PollingProvider>
          <AnnouncerProvider>
            <RouterProvider router={router} />
          </AnnouncerProvider>
        </PollingProvider>
      </ConnectionProvider>
    </QueryClientProvider>
  );
};
