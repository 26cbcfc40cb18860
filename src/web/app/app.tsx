/** The app: providers around the router. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AnnouncerProvider } from '../lib/announcer.js';
import { ConnectionProvider } from '../lib/connection-context.js';
import { PollingProvider } from '../lib/polling-context.js';
import { router } from './router.js';

export const App = () => {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: true, throwOnError: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ConnectionProvider>
        <PollingProvider>
          <AnnouncerProvider>
            <RouterProvider router={router} />
          </AnnouncerProvider>
        </PollingProvider>
      </ConnectionProvider>
    </QueryClientProvider>
  );
};
